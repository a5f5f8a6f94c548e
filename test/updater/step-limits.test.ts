import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitStep, limitSteps } from '../../src/updater/step-limits.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';

const o = updaterOptions();

test('x2 up, x0.5 down per step, whole units', () => {
  assert.equal(limitStep(300, 1000, o), 600);
  assert.equal(limitStep(2048, 512, o), 1024);
  assert.equal(limitStep(3, 1, o), 2, 'ceil(3 x 0.5) = 2');
  assert.equal(limitStep(300, 450, o), 450);
  assert.equal(limitStep(undefined, 450, o), 450, 'a new value has nothing to step from');
});

test('request == limit stays equal and request <= limit holds', () => {
  assert.deepEqual(limitSteps({ requests: { cpu: 100 }, limits: { cpu: 100 } }, { requests: { cpu: 500 }, limits: { cpu: 500 } }, o), { requests: { cpu: 200 }, limits: { cpu: 200 } });
  assert.deepEqual(limitSteps({ requests: { cpu: 100 }, limits: { cpu: 300 } }, { requests: { cpu: 800 }, limits: { cpu: 900 } }, o), { requests: { cpu: 200 }, limits: { cpu: 600 } });
});
