/**
 * The admission status Lease on kube-sim: created at start, renewed each interval with the
 * injected clock, left alone while the webhook is not ready, shared by replicas without errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startCluster, T0 } from 'kube-sim/test/e2e/cluster-fixture';
import { StatusKeeper, type StatusKeeperOptions } from '../../src/admission/status-keeper.ts';
import { coordinationApi } from '../../src/kube/kube-apis.ts';
import { admissionStatusVerdict } from '../../src/kube/admission-status-lease.ts';
import { silentLogger } from '../../src/observability/logger.ts';

async function cluster(t: { after: (fn: () => Promise<void>) => void }) {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  await f.core.createNamespace({ body: { metadata: { name: 'tailor-system' } } });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(f.sim.server.kubeconfig());
  const coordination = kc.makeApiClient(k8s.CoordinationV1Api);
  const read = () => coordination.readNamespacedLease({ namespace: 'tailor-system', name: 'vpa-admission-controller' });
  return { f, kc, read };
}

function keeper(kc: k8s.KubeConfig, over: Partial<StatusKeeperOptions>): StatusKeeper {
  return new StatusKeeper({
    api: coordinationApi(kc),
    namespace: 'tailor-system',
    name: 'vpa-admission-controller',
    identity: 'tailor-admission-a',
    intervalMs: 10_000,
    ready: () => undefined,
    clock: () => T0,
    sleep: () => new Promise(() => {}),
    logger: silentLogger(),
    fieldManager: 'tailor-admission',
    ...over,
  });
}

test('created, then renewed with the time of each renewal; fresh for the updater in between', async (t) => {
  const { kc, read } = await cluster(t);
  let now = T0;
  const k = keeper(kc, { clock: () => now });
  assert.equal(await k.renewOnce(), 'created');
  let lease = await read();
  assert.equal(lease.spec?.holderIdentity, 'tailor-admission-a');
  assert.equal(lease.spec?.leaseDurationSeconds, 10);
  assert.equal(new Date(lease.spec!.renewTime!).getTime(), T0);
  now = T0 + 70_000;
  assert.equal(admissionStatusVerdict({ lease }, now, 60_000).fresh, false, 'a minute without renewal is stale');
  assert.equal(await k.renewOnce(), 'renewed');
  lease = await read();
  assert.equal(new Date(lease.spec!.renewTime!).getTime(), T0 + 70_000);
  assert.equal(admissionStatusVerdict({ lease }, now, 60_000).fresh, true);
});

test('not renewed while the webhook is not ready (it would admit pods unchanged)', async (t) => {
  const { kc, read } = await cluster(t);
  let notReady: string | undefined = 'admission: watches not synced yet (vpas)';
  const k = keeper(kc, { ready: () => notReady });
  assert.equal(await k.renewOnce(), 'not-ready');
  await assert.rejects(read(), (err: { code?: number }) => err.code === 404);
  notReady = undefined;
  assert.equal(await k.renewOnce(), 'created');
});

test('replicas share the Lease: a renewal that lost the race is not an error, the upstream e2e holder is taken over', async (t) => {
  const { kc, read } = await cluster(t);
  // As upstream's e2e writes it: holder "e2e test", no renewTime.
  await kc.makeApiClient(k8s.CoordinationV1Api).createNamespacedLease({
    namespace: 'tailor-system',
    body: { metadata: { name: 'vpa-admission-controller' }, spec: { holderIdentity: 'e2e test', leaseDurationSeconds: 10 } },
  });
  const a = keeper(kc, { identity: 'tailor-admission-a' });
  const b = keeper(kc, { identity: 'tailor-admission-b' });
  const outcomes = await Promise.all([a.renewOnce(), b.renewOnce()]);
  assert.ok(
    outcomes.every((o) => o === 'renewed' || o === 'raced'),
    outcomes.join(),
  );
  assert.ok(outcomes.includes('renewed'));
  assert.match((await read()).spec?.holderIdentity ?? '', /^tailor-admission-[ab]$/);
});

test('start renews at once and after every interval; stop ends the loop', async (t) => {
  const { kc, read } = await cluster(t);
  let now = T0;
  const waits: { ms: number; wake: () => void }[] = [];
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      waits.push({ ms, wake: resolve });
      signal?.addEventListener('abort', () => reject(new Error('aborted')));
    });
  const k = keeper(kc, { clock: () => now, sleep });
  const until = async (n: number) => {
    for (let i = 0; i < 500 && waits.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(waits.length, n);
  };
  k.start();
  await until(1);
  assert.equal(waits[0]!.ms, 10_000);
  assert.equal(new Date((await read()).spec!.renewTime!).getTime(), T0);
  now = T0 + 10_000;
  waits[0]!.wake();
  await until(2);
  assert.equal(new Date((await read()).spec!.renewTime!).getTime(), T0 + 10_000);
  await k.stop();
});
