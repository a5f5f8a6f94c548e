import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podOomKills } from '../../src/recommender/pod-oom-kills.ts';

test('OOMKilled last states become kills with the memory request; other terminations do not', () => {
  const pod = {
    metadata: { name: 'web-1', namespace: 'shop' },
    spec: { containers: [{ name: 'app', resources: { requests: { memory: '128Mi' } } }, { name: 'side' }] },
    status: {
      containerStatuses: [
        { name: 'app', lastState: { terminated: { reason: 'OOMKilled', finishedAt: '2026-01-01T10:00:00Z' } } },
        { name: 'side', lastState: { terminated: { reason: 'Error', finishedAt: '2026-01-01T10:00:00Z' } } },
      ],
    },
  };
  assert.deepEqual(podOomKills(pod), [
    {
      id: `shop/web-1/app/${Date.UTC(2026, 0, 1, 10)}`,
      namespace: 'shop',
      pod: 'web-1',
      container: 'app',
      at: Date.UTC(2026, 0, 1, 10),
      requestBytes: 134217728,
    },
  ]);
});

test('a container without a memory request: 0 bytes; no status: no kills', () => {
  const pod = {
    metadata: { name: 'p', namespace: 'n' },
    spec: { containers: [{ name: 'c' }] },
    status: { containerStatuses: [{ name: 'c', lastState: { terminated: { reason: 'OOMKilled', finishedAt: new Date(5000) } } }] },
  };
  assert.equal(podOomKills(pod)[0]!.requestBytes, 0);
  assert.equal(podOomKills(pod)[0]!.at, 5000);
  assert.deepEqual(podOomKills({}), []);
});

test("a native sidecar's OOM kill counts with its memory request; an ordinary init container's does not", () => {
  const oom = (name: string) => ({ name, lastState: { terminated: { reason: 'OOMKilled', finishedAt: '2026-01-01T10:00:00Z' } } });
  const pod = {
    metadata: { name: 'web-1', namespace: 'shop' },
    spec: {
      containers: [{ name: 'app' }],
      initContainers: [
        { name: 'migrate', resources: { requests: { memory: '1Gi' } } },
        { name: 'proxy', restartPolicy: 'Always', resources: { requests: { memory: '64Mi' } } },
      ],
    },
    status: { containerStatuses: [{ name: 'app' }], initContainerStatuses: [oom('migrate'), oom('proxy')] },
  };
  assert.deepEqual(
    podOomKills(pod).map((k) => [k.container, k.requestBytes]),
    [['proxy', 64 * 1024 * 1024]],
  );
});
