import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podReady, workloadBudget } from '../../src/updater/workload-budget.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { container, pod } from '../builders/pods.ts';
import { vpa } from '../builders/vpas.ts';

const o = updaterOptions();
const pods = (n: number) => Array.from({ length: n }, (_, i) => pod({ name: `p${i}`, containers: [container('app', { requests: { cpu: '1' } })] }));

test('tolerance: max(1, floor(replicas x 0.5)) minus the unavailable pods', () => {
  assert.equal(workloadBudget(pods(4), vpa(), o).disruptions, 2);
  assert.equal(workloadBudget(pods(3), vpa(), o).disruptions, 1);
  assert.equal(workloadBudget(pods(3), vpa(), o, 4).disruptions, 1, '4 desired, 3 ready: 2 - 1');
  assert.equal(workloadBudget(pods(2), vpa(), o, 4).disruptions, 0);
});

test('minReplicas: fewer live pods than it, no disruption; the VPA value wins', () => {
  assert.deepEqual(workloadBudget(pods(1), vpa(), o), { live: 1, ready: 1, replicas: 1, minReplicas: 2, disruptions: 0 });
  assert.equal(workloadBudget(pods(1), vpa({ minReplicas: 1 }), o).disruptions, 1);
});

test('readiness from the Ready condition, else from the container statuses', () => {
  const [p] = pods(1);
  assert.equal(podReady(p!), true);
  p!.status!.conditions = [{ type: 'Ready', status: 'False' }];
  assert.equal(podReady(p!), false);
});
