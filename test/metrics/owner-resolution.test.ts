import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnerIndex } from '../../src/metrics/owner-resolution.ts';

test('pods resolve through ReplicaSets and Jobs to the top-most workload', () => {
  const index = new OwnerIndex([
    { namespace: 'a', kind: 'Pod', name: 'web-1', ownerKind: 'ReplicaSet', ownerName: 'web-x' },
    { namespace: 'a', kind: 'ReplicaSet', name: 'web-x', ownerKind: 'Deployment', ownerName: 'web' },
    { namespace: 'a', kind: 'Pod', name: 'r-1', ownerKind: 'Job', ownerName: 'r-9' },
    { namespace: 'a', kind: 'Job', name: 'r-9', ownerKind: 'CronJob', ownerName: 'r' },
    { namespace: 'a', kind: 'Pod', name: 'lone', ownerKind: '<none>', ownerName: '<none>' },
    { namespace: 'a', kind: 'Pod', name: 'orphan-rs-1', ownerKind: 'ReplicaSet', ownerName: 'orphan-rs' },
  ]);
  assert.deepEqual(index.workloadOf('a', 'web-1'), { kind: 'Deployment', name: 'web' });
  assert.deepEqual(index.workloadOf('a', 'r-1'), { kind: 'CronJob', name: 'r' });
  assert.deepEqual(index.workloadOf('a', 'lone'), { kind: 'Pod', name: 'lone' });
  assert.deepEqual(index.workloadOf('a', 'orphan-rs-1'), { kind: 'ReplicaSet', name: 'orphan-rs' });
  assert.deepEqual(index.workloadOf('b', 'web-1'), { kind: 'Pod', name: 'web-1' });
});

test('workloadOf is the end of chainOf, also past 5 owners and around a loop of owners', () => {
  // p -> ReplicaSet o1 -> Job o2 -> ReplicaSet o3 -> ... -> Job o8: deeper than the 5 owners followed.
  const kindOf = (i: number) => (i === 0 ? 'Pod' : i % 2 === 1 ? 'ReplicaSet' : 'Job') as 'Pod' | 'ReplicaSet' | 'Job';
  const deep = Array.from({ length: 8 }, (_, i) => ({
    namespace: 'a',
    kind: kindOf(i),
    name: i === 0 ? 'p' : `o${i}`,
    ownerKind: kindOf(i + 1),
    ownerName: `o${i + 1}`,
  }));
  const loop = [
    { namespace: 'a', kind: 'Pod' as const, name: 'q', ownerKind: 'ReplicaSet', ownerName: 'x' },
    { namespace: 'a', kind: 'ReplicaSet' as const, name: 'x', ownerKind: 'Job', ownerName: 'y' },
    { namespace: 'a', kind: 'Job' as const, name: 'y', ownerKind: 'ReplicaSet', ownerName: 'x' },
  ];
  const index = new OwnerIndex([...deep, ...loop]);
  for (const pod of ['p', 'q', 'none']) assert.deepEqual(index.workloadOf('a', pod), index.chainOf('a', pod).at(-1), pod);
  assert.deepEqual(index.workloadOf('a', 'p'), { kind: 'ReplicaSet', name: 'o5' });
  assert.deepEqual(new OwnerIndex([]).workloadOf('a', 'p'), { kind: 'Pod', name: 'p' });
});
