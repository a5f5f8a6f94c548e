import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitSteps } from '../../src/updater/step-limits.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';

const o = updaterOptions();

test('request == limit stays equal and request <= limit holds', () => {
  assert.deepEqual(limitSteps({ requests: { cpu: 100 }, limits: { cpu: 100 } }, { requests: { cpu: 500 }, limits: { cpu: 500 } }, o), {
    requests: { cpu: 200 },
    limits: { cpu: 200 },
  });
  assert.deepEqual(limitSteps({ requests: { cpu: 100 }, limits: { cpu: 300 } }, { requests: { cpu: 800 }, limits: { cpu: 900 } }, o), {
    requests: { cpu: 200 },
    limits: { cpu: 600 },
  });
});
