import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deploymentsToRestart } from '../../src/demo/rollout-restart.ts';
import { vpa } from './demo-fixtures.ts';

test('a Deployment is restarted once its VPA recommends, and only once', () => {
  const none = [vpa('boot')];
  const recommends = [vpa('boot', { cpu: ['250m', '250m', '250m'] }), vpa('web', { cpu: ['300m', '200m', '400m'] })];
  assert.deepEqual(deploymentsToRestart(['boot'], new Set(), none), [], 'no recommendation yet');
  assert.deepEqual(deploymentsToRestart(['boot'], new Set(), recommends), ['boot']);
  assert.deepEqual(deploymentsToRestart(['boot'], new Set(['boot']), recommends), [], 'already restarted');
  assert.deepEqual(deploymentsToRestart([], new Set(), recommends), [], 'web is not named');
});
