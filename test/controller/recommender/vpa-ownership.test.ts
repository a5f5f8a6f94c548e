import { test } from 'node:test';
import assert from 'node:assert/strict';
import { losingVpas } from '../../../src/controller/recommender/vpa-ownership.ts';

const vpa = (name: string, createdAt: number | undefined, targetName = 'web', namespace = 'shop') => ({ id: `${namespace}/${name}`, name, namespace, createdAt, targetKind: 'Deployment', targetName });

test('two VPAs on one workload: the oldest wins, the other is told which', () => {
  const losers = losingVpas([vpa('a', 10 * 3600_000), vpa('b', 9 * 3600_000), vpa('c', 1, 'api')]);
  assert.deepEqual([...losers], [['shop/a', 'b']]);
});

test('same creation time: by name; a missing time loses; other namespaces do not compete', () => {
  assert.deepEqual([...losingVpas([vpa('z', 5), vpa('y', 5)])], [['shop/z', 'y']]);
  assert.deepEqual([...losingVpas([vpa('a', undefined), vpa('b', 7)])], [['shop/a', 'b']]);
  assert.equal(losingVpas([vpa('a', 1), vpa('a', 2, 'web', 'other')]).size, 0);
});
