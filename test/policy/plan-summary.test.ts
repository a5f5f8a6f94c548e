import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planPodResources } from '../../src/policy/pod-resources.ts';
import { describePlanChanges } from '../../src/policy/plan-summary.ts';
import { c, MiB, pod } from './fixtures.ts';

test('one line per changed container, what changed and from what', () => {
  const plan = planPodResources({
    pod: pod([c('app', { cpu: '100m', memory: '256Mi' }, { cpu: '200m' }), c('sidecar', { cpu: '50m' }), c('new')]),
    recommendations: [
      { containerName: 'app', target: { cpu: 250, memory: 300 * MiB } },
      { containerName: 'sidecar', target: { cpu: 50 } },
      { containerName: 'new', target: { cpu: 1000 } },
    ],
  });
  assert.deepEqual(describePlanChanges(plan), [
    'app: cpu request 100m -> 250m, memory request 256Mi -> 300Mi, cpu limit 200m -> 500m',
    'new: cpu request unset -> 1',
  ]);
});
