/**
 * The updater honours the admission webhook's status Lease on kube-sim, as upstream's e2e updater
 * specs expect of upstream's updater: no Lease, no eviction; the Lease written as those specs write
 * it (holder "e2e test", no renewTime), evictions; a minute without renewal, none again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { kubeAdmissionStatus, type AdmissionStatusSource } from '../../../src/updater/admission-status.ts';
import { createVpa, deployment, startUpdaterFixture, summary } from './updater-fixture.ts';

const NS = 'tailor-system';
const MEM = { memory: '256Mi' };

test('evictions wait while the admission status Lease is missing or stale, and go ahead while it is fresh', async (t) => {
  // The source needs the fixture's kubeconfig, so it is made at the first read.
  const lazy: AdmissionStatusSource = {
    timeoutMs: 60_000,
    where: `${NS}/vpa-admission-controller`,
    read: () => kubeAdmissionStatus(f.kc, NS, 'vpa-admission-controller', 60_000).read(),
  };
  const f = await startUpdaterFixture('1.35', [{ cpu: '8', memory: '16Gi' }], {}, { admissionStatus: lazy });
  t.after(() => f.close());
  await f.core.createNamespace({ body: { metadata: { name: NS } } });
  await f.apps.createNamespacedDeployment({
    namespace: 'default',
    body: deployment('web', 2, [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m', ...MEM } } }]),
  });
  await f.tick(2000);
  await createVpa(f, 'web', 'Recreate', [{ containerName: 'app', target: { cpu: '400m', ...MEM }, lowerBound: { cpu: '300m', ...MEM } }], { minReplicas: 1 });
  const fresh = async () => (await f.registry.getSingleMetric('tailor_updater_admission_status_fresh')!.get()).values[0]?.value;

  // No Lease: every eviction waits, nothing is sent.
  const none = await f.loop();
  assert.deepEqual(summary(none), ['web Wait AdmissionUnavailable', 'web Wait AdmissionUnavailable']);
  assert.match(none.decisions[0]!.message, /Lease tailor-system\/vpa-admission-controller not found/);
  assert.equal(none.admissionStatus?.fresh, false);
  assert.equal(await fresh(), 0);
  assert.deepEqual(
    f.calls.filter((c) => c.startsWith('evict')),
    [],
  );

  // Written as upstream's e2e writes it: evictions go ahead.
  const coordination = f.kc.makeApiClient(k8s.CoordinationV1Api);
  await coordination.createNamespacedLease({
    namespace: NS,
    body: { metadata: { name: 'vpa-admission-controller' }, spec: { holderIdentity: 'e2e test', leaseDurationSeconds: 10 } },
  });
  const allowed = await f.loop();
  assert.ok(summary(allowed).includes('web Evict OutsideBounds'), summary(allowed).join());
  assert.ok(allowed.results.some((r) => r.decision.action === 'Evict' && r.outcome === 'applied'));
  assert.equal(await fresh(), 1);

  // A minute on without a renewal: stale, evictions wait again.
  await f.tick(61_000);
  const stale = await f.loop();
  const evictions = f.calls.filter((c) => c.startsWith('evict')).length;
  assert.ok(
    summary(stale).every((s) => !s.includes('Evict ')),
    summary(stale).join(),
  );
  assert.ok(summary(stale).includes('web Wait AdmissionUnavailable'), summary(stale).join());
  assert.match(stale.decisions.find((d) => d.reason === 'AdmissionUnavailable')!.message, /is stale/);
  assert.equal(f.calls.filter((c) => c.startsWith('evict')).length, evictions);
});
