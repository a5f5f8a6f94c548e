/**
 * Finding Tailor's leader replica by its Lease (kube-sim's API server): the holder's pod first,
 * terminating and not-running pods left out, no leader when the Lease names a pod that is gone; a
 * rollout stamps each Deployment's template as `kubectl rollout restart` does.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { podManifest, startSim, type SimFixture } from 'kube-sim/test/apiserver/sim-fixture';
import { COMPONENTS, replicasOf, rollout, TAILOR_NAMESPACE } from './tailor-faults.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim();
  await sim.core.createNamespace({ body: { metadata: { name: TAILOR_NAMESPACE } } });
  for (const name of ['tailor-updater-a', 'tailor-updater-b']) {
    const pod = podManifest(name, { labels: { 'app.kubernetes.io/component': 'updater' } });
    pod.metadata!.namespace = TAILOR_NAMESPACE;
    await sim.core.createNamespacedPod({ namespace: TAILOR_NAMESPACE, body: pod });
  }
});
after(() => sim.close());

/** Marks the pods Running (kube-sim's API server alone runs no kubelet). */
async function running(): Promise<void> {
  for (const pod of (await sim.core.listNamespacedPod({ namespace: TAILOR_NAMESPACE })).items) {
    pod.status = { ...pod.status, phase: 'Running' };
    await sim.core.replaceNamespacedPodStatus({ namespace: TAILOR_NAMESPACE, name: pod.metadata!.name!, body: pod });
  }
}

test("the Lease's holder is the leader, the other running replica a standby (a pending one left out); a holder that is gone leaves no leader", async () => {
  await running();
  const pending = podManifest('tailor-updater-c', { labels: { 'app.kubernetes.io/component': 'updater' } });
  pending.metadata!.namespace = TAILOR_NAMESPACE;
  await sim.core.createNamespacedPod({ namespace: TAILOR_NAMESPACE, body: pending });
  const coordination = sim.kc.makeApiClient(k8s.CoordinationV1Api);
  await coordination.createNamespacedLease({
    namespace: TAILOR_NAMESPACE,
    body: { metadata: { name: COMPONENTS.updater.lease }, spec: { holderIdentity: 'tailor-updater-b_3f9a', leaseDurationSeconds: 15 } },
  });
  const replicas = await replicasOf(sim.kc, 'updater');
  assert.equal(replicas.leader?.metadata?.name, 'tailor-updater-b');
  assert.deepEqual(
    replicas.others.map((p) => p.metadata?.name),
    ['tailor-updater-a'],
  );
  await coordination.patchNamespacedLease(
    { namespace: TAILOR_NAMESPACE, name: COMPONENTS.updater.lease, body: { spec: { holderIdentity: 'tailor-updater-z_1' } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  const orphaned = await replicasOf(sim.kc, 'updater');
  assert.equal(orphaned.leader, undefined);
  assert.equal(orphaned.others.length, 2);
  assert.equal((await replicasOf(sim.kc, 'admission')).leader, undefined, 'no Lease, no leader');
});

test("a rollout stamps every Deployment's pod template with kubectl's restartedAt annotation", async () => {
  for (const c of Object.values(COMPONENTS)) {
    await sim.apps.createNamespacedDeployment({
      namespace: TAILOR_NAMESPACE,
      body: {
        metadata: { name: c.deployment },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app: c.deployment } },
          template: { metadata: { labels: { app: c.deployment } }, spec: { containers: [{ name: c.container, image: 'tailor' }] } },
        },
      },
    });
  }
  await rollout(sim.kc, new Date('2026-12-07T20:00:00Z'));
  for (const c of Object.values(COMPONENTS)) {
    const d = await sim.apps.readNamespacedDeployment({ namespace: TAILOR_NAMESPACE, name: c.deployment });
    assert.equal(d.spec?.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'], '2026-12-07T20:00:00.000Z');
  }
});
