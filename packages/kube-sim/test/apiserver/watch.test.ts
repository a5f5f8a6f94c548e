import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startSim, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim({ bookmarkIntervalMs: 50 });
});
after(async () => {
  await sim?.close();
});

interface Seen {
  type: string;
  name: string;
  rv: string;
  annotations?: Record<string, string>;
  code?: number;
}

/** Watches a path and collects events until `until` holds (or gives up after `giveUpMs`). */
async function collect(
  path: string,
  query: Record<string, string>,
  until: (events: Seen[]) => boolean,
  during?: () => Promise<void>,
  giveUpMs = 3000,
): Promise<{ events: Seen[]; ended: boolean }> {
  const events: Seen[] = [];
  let ended = false;
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((r) => {
    resolveDone = r;
  });
  const watch = new k8s.Watch(sim.kc);
  const controller = await watch.watch(
    path,
    query,
    (type: string, obj: { metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; code?: number }) => {
      const seen: Seen = { type, name: obj.metadata?.name ?? '', rv: obj.metadata?.resourceVersion ?? '' };
      if (obj.metadata?.annotations) seen.annotations = obj.metadata.annotations;
      if (obj.code !== undefined) seen.code = obj.code;
      events.push(seen);
      if (until(events)) resolveDone();
    },
    () => {
      ended = true;
      resolveDone();
    },
  );
  try {
    if (during) await during();
    const timer = setTimeout(resolveDone, giveUpMs);
    await done;
    clearTimeout(timer);
  } finally {
    controller.abort();
  }
  return { events, ended };
}

const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): k8s.V1ConfigMap => ({ metadata: { name, labels }, data });

test('watch without resourceVersion starts with ADDED for current objects, then follows changes', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'w1' } } });
  await sim.core.createNamespacedConfigMap({ namespace: 'w1', body: cm('a') });
  const { events } = await collect(
    '/api/v1/namespaces/w1/configmaps',
    {},
    (e) => e.some((x) => x.type === 'DELETED'),
    async () => {
      await sim.core.createNamespacedConfigMap({ namespace: 'w1', body: cm('b') });
      await sim.core.patchNamespacedConfigMap(
        { namespace: 'w1', name: 'a', body: { data: { x: '1' } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
      await sim.core.deleteNamespacedConfigMap({ namespace: 'w1', name: 'b' });
    },
  );
  assert.deepEqual(
    events.map((e) => `${e.type} ${e.name}`),
    ['ADDED a', 'ADDED b', 'MODIFIED a', 'DELETED b'],
  );
  const rvs = events.map((e) => Number(e.rv));
  assert.deepEqual(
    [...rvs].sort((x, y) => x - y),
    rvs,
    'resourceVersions increase',
  );
});

test('watch from a resourceVersion replays only later changes', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'w2' } } });
  const first = await sim.core.createNamespacedConfigMap({ namespace: 'w2', body: cm('one') });
  await sim.core.createNamespacedConfigMap({ namespace: 'w2', body: cm('two') });
  await sim.core.createNamespacedConfigMap({ namespace: 'w2', body: cm('three') });
  const { events } = await collect('/api/v1/namespaces/w2/configmaps', { resourceVersion: first.metadata?.resourceVersion ?? '' }, (e) => e.length >= 2);
  assert.deepEqual(
    events.map((e) => `${e.type} ${e.name}`),
    ['ADDED two', 'ADDED three'],
  );
});

test('watch from a compacted resourceVersion gets an ERROR event with 410 Expired', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'w3' } } });
  const old = await sim.core.createNamespacedConfigMap({ namespace: 'w3', body: cm('old') });
  await sim.core.createNamespacedConfigMap({ namespace: 'w3', body: cm('newer') });
  sim.server.store.compact();
  const { events, ended } = await collect('/api/v1/namespaces/w3/configmaps', { resourceVersion: old.metadata?.resourceVersion ?? '' }, (e) => e.length >= 1);
  assert.equal(events[0]?.type, 'ERROR');
  assert.equal(events[0]?.code, 410);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(ended, true, 'the server ends the stream after the 410');
});

test('allowWatchBookmarks sends BOOKMARK events carrying the current resourceVersion', async () => {
  const { events } = await collect(
    '/api/v1/namespaces/default/configmaps',
    { allowWatchBookmarks: 'true', resourceVersion: sim.server.store.resourceVersion },
    (e) => e.some((x) => x.type === 'BOOKMARK'),
  );
  const bookmark = events.find((e) => e.type === 'BOOKMARK');
  assert.ok(bookmark);
  assert.equal(bookmark.rv, sim.server.store.resourceVersion);
});

test('sendInitialEvents ends the initial ADDED events with an initial-events-end BOOKMARK', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'w5' } } });
  await sim.core.createNamespacedConfigMap({ namespace: 'w5', body: cm('x') });
  const { events } = await collect(
    '/api/v1/namespaces/w5/configmaps',
    { sendInitialEvents: 'true', allowWatchBookmarks: 'true', resourceVersionMatch: 'NotOlderThan' },
    (e) => e.some((x) => x.type === 'BOOKMARK'),
  );
  assert.deepEqual(events.map((e) => e.type).slice(0, 2), ['ADDED', 'BOOKMARK']);
  assert.equal(events[1]?.annotations?.['k8s.io/initial-events-end'], 'true');
});

test('objects moving into or out of a label selector are ADDED / DELETED', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'w6' } } });
  await sim.core.createNamespacedConfigMap({ namespace: 'w6', body: cm('m', { tier: 'a' }) });
  const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
  const { events } = await collect(
    '/api/v1/namespaces/w6/configmaps',
    { labelSelector: 'tier=a' },
    (e) => e.length >= 4,
    async () => {
      await sim.core.patchNamespacedConfigMap({ namespace: 'w6', name: 'm', body: { metadata: { labels: { tier: 'b' } } } }, merge);
      await sim.core.patchNamespacedConfigMap({ namespace: 'w6', name: 'm', body: { data: { ignored: 'yes' } } }, merge);
      await sim.core.patchNamespacedConfigMap({ namespace: 'w6', name: 'm', body: { metadata: { labels: { tier: 'a' } } } }, merge);
      await sim.core.patchNamespacedConfigMap({ namespace: 'w6', name: 'm', body: { data: { seen: 'yes' } } }, merge);
    },
  );
  assert.deepEqual(
    events.map((e) => e.type),
    ['ADDED', 'DELETED', 'ADDED', 'MODIFIED'],
  );
});

test('field selector spec.nodeName narrows a pod watch', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'w7' } } });
  const pod = (name: string, nodeName: string): k8s.V1Pod => ({ metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox:1' }] } });
  const { events } = await collect(
    '/api/v1/pods',
    { fieldSelector: 'spec.nodeName=node-b' },
    (e) => e.length >= 1,
    async () => {
      await sim.core.createNamespacedPod({ namespace: 'w7', body: pod('on-a', 'node-a') });
      await sim.core.createNamespacedPod({ namespace: 'w7', body: pod('on-b', 'node-b') });
    },
  );
  assert.deepEqual(
    events.map((e) => e.name),
    ['on-b'],
  );
});

test('timeoutSeconds ends the watch', async () => {
  // Ended by the server after 1 s: not before, and well before the 10 s this test gives up
  // after (the slack is for a loaded machine; a watch that ignores timeoutSeconds never ends).
  const started = Date.now();
  const { ended } = await collect(
    '/api/v1/namespaces/default/configmaps',
    { timeoutSeconds: '1', resourceVersion: sim.server.store.resourceVersion },
    () => false,
    undefined,
    10_000,
  );
  const took = Date.now() - started;
  assert.equal(ended, true);
  assert.ok(took >= 990 && took < 6000, `ended after ${took} ms`);
});

test('a client-node informer recovers from 410 by relisting', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'w9' } } });
  const informer = k8s.makeInformer(sim.kc, '/api/v1/namespaces/w9/configmaps', () => sim.core.listNamespacedConfigMap({ namespace: 'w9' }));
  const added: string[] = [];
  informer.on('add', (o) => added.push(o.metadata?.name ?? ''));
  await informer.start();
  try {
    await sim.core.createNamespacedConfigMap({ namespace: 'w9', body: cm('before') });
    sim.server.store.compact();
    sim.server.addFault({ verbs: ['watch'], namespaces: ['w9'], dropWatchAfterMs: 0, times: 1 });
    await sim.core.createNamespacedConfigMap({ namespace: 'w9', body: cm('after') });
    for (let i = 0; i < 100 && !added.includes('after'); i += 1) await new Promise((r) => setTimeout(r, 20));
    assert.ok(added.includes('before'));
    assert.ok(added.includes('after'));
  } finally {
    await informer.stop();
    sim.server.faults.clear();
  }
});

test('a list at an exact, compacted resourceVersion is 410 Expired', async () => {
  const before = sim.server.store.resourceVersion;
  await sim.core.createNamespacedConfigMap({ namespace: 'default', body: cm('exact') });
  sim.server.store.compact();
  await assert.rejects(
    sim.core.listNamespacedConfigMap({ namespace: 'default', resourceVersion: before, resourceVersionMatch: 'Exact' }),
    (err) => (err as { code?: number }).code === 410,
  );
});

test('endWatches ends every open watch stream; the client sees the end', async () => {
  let ended = false;
  const watch = new k8s.Watch(sim.kc);
  const controller = await watch.watch(
    '/api/v1/namespaces/default/configmaps',
    {},
    () => undefined,
    () => void (ended = true),
  );
  try {
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(ended, false);
    sim.server.endWatches();
    const deadline = Date.now() + 2000;
    while (!ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(ended, true);
  } finally {
    controller.abort();
  }
});
