/**
 * `--admission-webhook-layout upstream` on kube-sim: the webhook registers upstream VPA's one
 * MutatingWebhookConfiguration `vpa-webhook-config` (first webhook `vpa.k8s.io`, as upstream's e2e
 * suite waits for), which both mutates pods and validates VPAs, so a bad VPA is refused by
 * `vpa.k8s.io`; no ValidatingWebhookConfiguration is written.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { apiFailure } from 'kube-sim/test/e2e/cluster-fixture';
import { T0 } from 'kube-sim/test/e2e/cluster-fixture';
import { createDeployment, createVpa, podsOf, recommend, startWebhookCluster, until, VPA_GROUP, type WebhookFixture } from './webhook-fixture.ts';
import { resolveRunConfig } from '../../src/controller/run-config.ts';
import { admissionOptions } from '../../src/controller/admission-component.ts';

let f: WebhookFixture;
before(async () => {
  const config = resolveRunConfig(
    {},
    {
      TAILOR_COMPONENTS: 'admission',
      TAILOR_ADMISSION_WEBHOOK_LAYOUT: 'upstream',
      TAILOR_ADMISSION_NAMESPACE: 'tailor',
      TAILOR_LEADER_IDENTITY: 'tailor-admission-0',
    },
  ).config;
  const fromRun = admissionOptions(config, () => T0);
  f = await startWebhookCluster(
    { mode: 'self-signed', caSecretName: 'tailor-webhook-ca' },
    { layout: fromRun.layout!, configurationName: fromRun.configurationName, status: fromRun.status! },
  );
  await f.core.createNamespace({ body: { metadata: { name: 'shop' } } });
});
after(() => f?.close());

test("upstream's names: vpa-webhook-config, first webhook vpa.k8s.io taking pods and VPAs at /admit; no validating configuration", async () => {
  const admission = f.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
  const mutating = await admission.readMutatingWebhookConfiguration({ name: 'vpa-webhook-config' });
  assert.equal(mutating.webhooks?.length, 1);
  const hook = mutating.webhooks![0]!;
  assert.equal(hook.name, 'vpa.k8s.io');
  assert.match(hook.clientConfig.url!, /^https:\/\/127\.0\.0\.1:\d+\/admit$/);
  assert.deepEqual(
    hook.rules!.map((r) => `${r.resources!.join()} ${r.operations!.join()}`),
    ['pods CREATE', 'verticalpodautoscalers CREATE,UPDATE'],
  );
  assert.equal(hook.failurePolicy, 'Ignore');
  const validating = await admission.listValidatingWebhookConfiguration();
  assert.deepEqual(
    validating.items.map((v) => v.metadata?.name),
    [],
  );
  assert.deepEqual(
    (await admission.listMutatingWebhookConfiguration()).items.map((v) => v.metadata?.name),
    ['vpa-webhook-config'],
  );
});

test('pods are mutated through vpa.k8s.io', async () => {
  await createVpa(f, 'shop', 'web-vpa', 'web');
  await recommend(f, 'shop', 'web-vpa', { app: { cpu: '250m', memory: '300Mi' } });
  await createDeployment(f, 'shop', 'web', 1, { requests: { cpu: '100m', memory: '128Mi' } });
  await f.tick(1000);
  const [pod] = await podsOf(f, 'shop', 'web');
  assert.deepEqual(pod?.spec?.containers[0]?.resources?.requests, { cpu: '250m', memory: '300Mi' });
  assert.equal(pod?.metadata?.annotations?.vpaObservedContainers, 'app');
});

test('an invalid VPA is refused by "vpa.k8s.io", on create and on update', async () => {
  const bad = { containerPolicies: [{ containerName: 'app', minAllowed: { cpu: '2' }, maxAllowed: { cpu: '500m' } }] };
  const body = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'bad', namespace: 'shop' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, resourcePolicy: bad },
  };
  const created = await f.custom.createNamespacedCustomObject({ ...VPA_GROUP, namespace: 'shop', body }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(created, 'the create must fail');
  assert.match(
    apiFailure(created).status.message ?? '',
    /^admission webhook "vpa\.k8s\.io" denied the request: VerticalPodAutoscaler\.autoscaling\.k8s\.io "bad" is invalid: spec\.resourcePolicy\.containerPolicies\[0\]\.maxAllowed\.cpu/,
  );
  const patch = { spec: { resourcePolicy: bad } };
  const updated = await f.custom
    .patchNamespacedCustomObject(
      { ...VPA_GROUP, namespace: 'shop', name: 'web-vpa', body: patch },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    )
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  assert.ok(updated, 'the update must fail');
  assert.match(apiFailure(updated).status.message ?? '', /^admission webhook "vpa\.k8s\.io" denied the request: /);
  const metric = await f.registry.getSingleMetric('tailor_admission_reviews_total')!.get();
  assert.equal(metric.values.find((v) => v.labels.webhook === 'validate-vpa' && v.labels.outcome === 'denied')?.value, 2, 'counted as VPA reviews');
});

test("the webhook keeps upstream's status Lease in its namespace while it is ready, held by its pod's name", async () => {
  const coordination = f.kubeConfig.makeApiClient(k8s.CoordinationV1Api);
  const read = () => coordination.readNamespacedLease({ namespace: 'tailor', name: 'vpa-admission-controller' });
  await until(
    async () =>
      await read().then(
        () => true,
        () => false,
      ),
    5000,
    'the status Lease',
  );
  const lease = await read();
  assert.equal(lease.spec?.holderIdentity, 'tailor-admission-0');
  assert.equal(lease.spec?.leaseDurationSeconds, 10);
  assert.equal(new Date(lease.spec!.renewTime!).getTime(), T0);
});
