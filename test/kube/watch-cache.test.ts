import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import type * as k8s from '@kubernetes/client-node';
import { WatchCache, type WatchEventType } from '../../src/kube/watch-cache.ts';
import { listObjects, resourcePath } from '../../src/kube/list-objects.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { startSim, podManifest } from 'kube-sim/test/apiserver/sim-fixture';

const PODS = { group: '', version: 'v1', plural: 'pods' };
const VPAS = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };

async function until(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/** A sim whose caches are stopped before it closes (also when the test fails). */
async function simWithCaches(t: { after: (fn: () => Promise<void>) => void }) {
  const sim = await startSim();
  const caches: WatchCache<k8s.KubernetesObject>[] = [];
  t.after(async () => {
    await Promise.all(caches.map((c) => c.stop()));
    await sim.close();
  });
  const podCache = (extra: Partial<ConstructorParameters<typeof WatchCache>[0]> = {}) => {
    const events: [WatchEventType, string][] = [];
    const cache = new WatchCache<k8s.V1Pod>({
      kubeConfig: sim.kc,
      resource: PODS,
      logger: silentLogger(),
      restartBaseDelayMs: 50,
      restartMaxDelayMs: 200,
      ...extra,
    });
    cache.on((type, pod) => events.push([type, `${pod.metadata?.namespace}/${pod.metadata?.name}`]));
    caches.push(cache as unknown as WatchCache<k8s.KubernetesObject>);
    return { cache, events };
  };
  return { sim, caches, podCache };
}

const names = (pods: readonly k8s.V1Pod[]) => pods.map((p) => p.metadata!.name!).sort();

test('paths and paged plain-JSON lists', async (t) => {
  assert.equal(resourcePath(PODS), '/api/v1/pods');
  assert.equal(resourcePath(VPAS, 'shop'), '/apis/autoscaling.k8s.io/v1/namespaces/shop/verticalpodautoscalers');
  const sim = await startSim();
  t.after(() => sim.close());
  for (let i = 0; i < 5; i++) await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest(`p${i}`) });
  const list = await listObjects<k8s.V1Pod>(sim.kc, '/api/v1/namespaces/default/pods', { limit: 2 });
  assert.deepEqual(names(list.items), ['p0', 'p1', 'p2', 'p3', 'p4'], 'three pages of at most 2');
  assert.equal(typeof list.items[0]!.metadata!.creationTimestamp, 'string', 'times stay strings, as in watch events');
  assert.ok(Number(list.metadata?.resourceVersion) > 0);
});

test('lists, then follows adds, updates and deletes; cluster-wide custom resources too', async (t) => {
  const { sim, caches, podCache } = await simWithCaches(t);
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('before') });
  const { cache, events } = podCache();
  await cache.start();
  await cache.synced();
  assert.deepEqual(names(cache.list()), ['before']);
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('after') });
  await sim.core.patchNamespacedPod({ name: 'after', namespace: 'default', body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] });
  await sim.core.deleteNamespacedPod({ name: 'before', namespace: 'default' });
  await until('the delete', () => events.some(([type]) => type === 'delete'));
  assert.deepEqual(events, [
    ['add', 'default/before'],
    ['add', 'default/after'],
    ['update', 'default/after'],
    ['delete', 'default/before'],
  ]);
  assert.equal(cache.get('default', 'after')?.metadata?.labels?.['x'], 'y');
  assert.equal(cache.get('default', 'before'), undefined);

  const vpas = new WatchCache<k8s.KubernetesObject>({ kubeConfig: sim.kc, resource: VPAS, logger: silentLogger() });
  caches.push(vpas);
  await vpas.start();
  await sim.custom.createNamespacedCustomObject({
    group: 'autoscaling.k8s.io',
    version: 'v1',
    namespace: 'default',
    plural: 'verticalpodautoscalers',
    body: {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
    },
  });
  await until('the VPA', () => vpas.get('default', 'web') !== undefined);
});

test('watches that the server drops are resumed without losing or repeating events', async (t) => {
  const { sim, podCache } = await simWithCaches(t);
  sim.server.addFault({ verbs: ['watch'], resources: ['pods'], dropWatchAfterMs: 150, times: 4 });
  const { cache, events } = podCache();
  await cache.start();
  for (let i = 0; i < 8; i++) {
    await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest(`p${i}`) });
    await delay(80);
  }
  await until('eight pods', () => cache.list().length === 8);
  assert.equal(events.length, 8, JSON.stringify(events));
  assert.equal(cache.restarts, 0, 'a dropped watch is not an error');
});

test('410 Gone: the cache re-lists, and objects deleted in the gap are reported deleted', async (t) => {
  const { sim, podCache } = await simWithCaches(t);
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('stays') });
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('goes') });
  // The first watch ends after 100 ms; every watch is served 1500 ms late, so no watch is being
  // served while the pods change (~250 ms after the sync) and the watch history is dropped. (It
  // was 400 ms: a loaded machine that made the changes 400 ms late let the watch see them.)
  sim.server.addFault({ verbs: ['watch'], resources: ['pods'], dropWatchAfterMs: 100, times: 1 });
  sim.server.addFault({ verbs: ['watch'], resources: ['pods'], latencyMs: 1500, times: 2 });
  const { cache, events } = podCache();
  await cache.start();
  await cache.synced();
  assert.equal(cache.lists, 1);
  await delay(250);
  sim.server.store.delete('pods', 'default', 'goes');
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('new') });
  sim.server.store.compact();
  await until('the relist', () => cache.get('default', 'new') !== undefined && cache.get('default', 'goes') === undefined, 5000);
  assert.equal(cache.lists, 2, 'the resumed watch got 410 and the cache listed again');
  assert.equal(cache.restarts, 0, '410 is not an error');
  assert.deepEqual(names(cache.list()), ['new', 'stays']);
  assert.ok(events.some(([type, name]) => type === 'delete' && name === 'default/goes'));
});

test('a failing list is retried with backoff until it succeeds; the cache then syncs', async (t) => {
  const { sim, podCache } = await simWithCaches(t);
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('p') });
  sim.server.addFault({ verbs: ['list'], resources: ['pods'], error: 500, times: 2 });
  const waits: number[] = [];
  const { cache } = podCache({ sleep: async (ms) => void waits.push(ms), random: () => 0 });
  assert.equal(cache.isSynced, false);
  await cache.start();
  await cache.synced();
  assert.equal(cache.isSynced, true);
  assert.deepEqual(names(cache.list()), ['p']);
  assert.equal(cache.restarts, 2);
  assert.deepEqual(waits, [25, 50], 'U[d/2, d] at the lowest draw, d = 50 ms x 2^(n-1)');
});

test('stop ends the watch quietly: no restart, no more events', async (t) => {
  const { sim, podCache } = await simWithCaches(t);
  const { cache, events } = podCache();
  await cache.start();
  await cache.synced();
  await cache.stop();
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('late') });
  await delay(200);
  assert.deepEqual(events, []);
  assert.equal(cache.restarts, 0);
});

test('start resolves after the first attempt, listed or not: a cache can serve (and say what it lacks) while its list fails', async (t) => {
  const { sim, podCache } = await simWithCaches(t);
  sim.server.addFault({ verbs: ['list'], resources: ['pods'], error: 500, times: 1000 });
  const { cache } = podCache({ restartBaseDelayMs: 60_000, restartMaxDelayMs: 60_000 });
  await cache.start();
  assert.equal(cache.isSynced, false);
  assert.deepEqual(cache.list(), []);
  assert.equal(cache.resource.plural, 'pods');
});
