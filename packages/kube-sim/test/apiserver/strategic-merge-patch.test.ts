import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from '../../src/apiserver/strategic-merge-patch.ts';
import { applyMergePatch } from '../../src/apiserver/merge-patch.ts';

const pod = {
  spec: {
    containers: [
      {
        name: 'app',
        image: 'app:1',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        ports: [{ containerPort: 80 }],
      },
      { name: 'sidecar', image: 'side:1' },
    ],
  },
  metadata: { finalizers: ['a'], labels: { x: '1' } },
  status: {
    conditions: [
      { type: 'Ready', status: 'False' },
      { type: 'PodScheduled', status: 'True' },
    ],
  },
};

// prettier-ignore: one row per line, read as a table
const cases: [string, unknown, unknown][] = [
  [
    'containers merge by name',
    { spec: { containers: [{ name: 'sidecar', image: 'side:2' }] } },
    { containers: [pod.spec.containers[0], { name: 'sidecar', image: 'side:2' }] },
  ],
  [
    // The real server's order (fidelity corpus, pod-add-container): a new element goes before the server-only ones.
    'a new container goes before the ones the patch does not name',
    { spec: { containers: [{ name: 'extra', image: 'x:1' }] } },
    { containers: [{ name: 'extra', image: 'x:1' }, ...pod.spec.containers] },
  ],
  [
    'a patched container keeps its place among the others',
    { spec: { containers: [{ name: 'sidecar', image: 's:2' }] } },
    { containers: [pod.spec.containers[0], { ...pod.spec.containers[1], image: 's:2' }] },
  ],
  ['$patch: delete removes the keyed element', { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } }, { containers: [pod.spec.containers[0]] }],
  [
    '$patch: replace on a list replaces it',
    { spec: { containers: [{ name: 'only', image: 'o:1' }, { $patch: 'replace' }] } },
    { containers: [{ name: 'only', image: 'o:1' }] },
  ],
  [
    'env merges by name inside a merged container; null deletes a field',
    {
      spec: {
        containers: [
          {
            name: 'app',
            image: null,
            env: [
              { name: 'B', value: '3' },
              { name: 'C', value: '4' },
            ],
          },
        ],
      },
    },
    {
      containers: [
        {
          name: 'app',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '3' },
            { name: 'C', value: '4' },
          ],
          ports: [{ containerPort: 80 }],
        },
        pod.spec.containers[1],
      ],
    },
  ],
  [
    'ports merge by containerPort',
    { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] }] } },
    { containers: [{ ...pod.spec.containers[0], ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] }, pod.spec.containers[1]] },
  ],
  [
    '$setElementOrder reorders the merged list',
    { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }], containers: [{ name: 'app', image: 'app:2' }] } },
    { containers: [pod.spec.containers[1], { ...pod.spec.containers[0], image: 'app:2' }] },
  ],
];

for (const [name, patch, expectedSpec] of cases) {
  test(`strategic merge patch: ${name}`, () => {
    const cleaned = JSON.parse(JSON.stringify(patch)) as unknown;
    const result = applyStrategicMergePatch(pod, cleaned) as typeof pod;
    assert.deepEqual(result.spec, expectedSpec);
    assert.deepEqual(pod.spec.containers.length, 2, 'input untouched');
  });
}

test('strategic merge patch: finalizers merge as a set and $deleteFromPrimitiveList removes', () => {
  const added = applyStrategicMergePatch(pod, { metadata: { finalizers: ['b', 'a'] } }) as typeof pod;
  assert.deepEqual(added.metadata.finalizers, ['a', 'b']);
  const removed = applyStrategicMergePatch(added, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }) as typeof pod;
  assert.deepEqual(removed.metadata.finalizers, ['b']);
});

test('strategic merge patch: conditions merge by type', () => {
  const result = applyStrategicMergePatch(pod, { status: { conditions: [{ type: 'Ready', status: 'True' }] } }) as typeof pod;
  assert.deepEqual(result.status.conditions, [
    { type: 'Ready', status: 'True' },
    { type: 'PodScheduled', status: 'True' },
  ]);
});

test('strategic merge patch: $patch replace on a map and $retainKeys', () => {
  const replaced = applyStrategicMergePatch(pod, { metadata: { labels: { $patch: 'replace', y: '2' } } }) as typeof pod;
  assert.deepEqual(replaced.metadata.labels, { y: '2' });
  const retained = applyStrategicMergePatch(
    { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } },
    { strategy: { $retainKeys: ['type'], type: 'Recreate' } },
  );
  assert.deepEqual(retained, { strategy: { type: 'Recreate' } });
});

test('merge patch replaces lists wholesale and deletes with null', () => {
  const result = applyMergePatch(pod, { spec: { containers: [{ name: 'sidecar', image: 'side:2' }] }, metadata: { labels: null } }) as typeof pod;
  assert.deepEqual(result.spec.containers, [{ name: 'sidecar', image: 'side:2' }]);
  assert.equal(result.metadata.labels, undefined);
});
