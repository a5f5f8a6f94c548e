import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeDisruptionStatus, scaledValue, type ControllerLookup } from '../../src/apiserver/disruption-budget.ts';
import type { KubeObject } from '../../src/apiserver/types.ts';

const pod = (name: string, ready: boolean, owned = true): KubeObject => ({
  metadata: {
    name,
    labels: { app: 'web' },
    ...(owned ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true }] } : {}),
  },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});
const lookup = (replicas: number): ControllerLookup => ({
  replicasOfController: (p) => (p.metadata.ownerReferences ? { uid: 'rs-uid', replicas } : undefined),
});
const pdb = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } });

test('scaledValue rounds percentages as asked: 25% of 3 is 1 up, 0 down; ints pass through', () => {
  assert.equal(scaledValue('25%', 3, true), 1);
  assert.equal(scaledValue('25%', 3, false), 0);
  assert.equal(scaledValue(2, 10, true), 2);
});

// prettier-ignore: one row per line, read as a table
const cases: { name: string; spec: Record<string, unknown>; pods: KubeObject[]; replicas: number; expected: [number, number, number, number] }[] = [
  { name: 'minAvailable 2, 3 ready', spec: { minAvailable: 2 }, pods: [pod('a', true), pod('b', true), pod('c', true)], replicas: 3, expected: [3, 2, 3, 1] },
  {
    name: 'minAvailable 50% of 4 replicas = 2, 3 ready',
    spec: { minAvailable: '50%' },
    pods: [pod('a', true), pod('b', true), pod('c', true), pod('d', false)],
    replicas: 4,
    expected: [3, 2, 4, 1],
  },
  {
    name: 'maxUnavailable 1 of 5 replicas with 4 pods ready',
    spec: { maxUnavailable: 1 },
    pods: [pod('a', true), pod('b', true), pod('c', true), pod('d', true)],
    replicas: 5,
    expected: [4, 4, 5, 0],
  },
  {
    name: 'maxUnavailable 34% of 3 rounds up to 2',
    spec: { maxUnavailable: '34%' },
    pods: [pod('a', true), pod('b', true), pod('c', true)],
    replicas: 3,
    expected: [3, 1, 3, 2],
  },
  {
    name: 'a pod without a controller makes a maxUnavailable budget allow nothing',
    spec: { maxUnavailable: 1 },
    pods: [pod('a', true, false)],
    replicas: 1,
    expected: [1, 0, 0, 0],
  },
];
for (const c of cases) {
  test(`disruption status: ${c.name}`, () => {
    const s = computeDisruptionStatus(pdb(c.spec), c.pods, lookup(c.replicas));
    assert.deepEqual([s.currentHealthy, s.desiredHealthy, s.expectedPods, s.disruptionsAllowed], c.expected);
  });
}

test('a PDB without a selector selects nothing; an empty selector selects every pod', () => {
  const none = computeDisruptionStatus({ metadata: {}, spec: { minAvailable: 0 } }, [pod('a', true)], lookup(1));
  assert.equal(none.currentHealthy, 0);
  const all = computeDisruptionStatus({ metadata: {}, spec: { selector: {}, minAvailable: 0 } }, [pod('a', true)], lookup(1));
  assert.equal(all.currentHealthy, 1);
});
