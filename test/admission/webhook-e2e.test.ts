import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { apiFailure } from 'kube-sim/test/e2e/cluster-fixture';
import { createDeployment, createVpa, podsOf, recommend, startWebhookCluster, until, VPA_GROUP, type WebhookFixture } from './webhook-fixture.ts';

// One cluster and webhook (self-signed CA in a Secret) for the whole file; tests run in order.
let f: WebhookFixture;
before(async () => {
  f = await startWebhookCluster({ mode: 'self-signed', caSecretName: 'tailor-webhook-ca' });
  await f.core.createNamespace({ body: { metadata: { name: 'shop' } } });
});
after(() => f?.close());

/** client-node returns class instances; compare their JSON. */
const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x)) as unknown;

const template = { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '200m', memory: '256Mi' } };

async function counter(outcome: string, webhook = 'mutate-pods'): Promise<number> {
  const metric = await f.registry.getSingleMetric('tailor_admission_reviews_total')!.get();
  return metric.values.find((v) => v.labels.webhook === webhook && v.labels.outcome === outcome)?.value ?? 0;
}

test('the configurations are registered with the CA from the shared Secret, safe defaults and namespace exclusions', async () => {
  const admission = f.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
  const mutating = await admission.readMutatingWebhookConfiguration({ name: 'tailor' });
  const hook = mutating.webhooks![0]!;
  const secret = await f.core.readNamespacedSecret({ namespace: 'tailor', name: 'tailor-webhook-ca' });
  assert.equal(hook.clientConfig.caBundle, secret.data!['ca.crt']);
  assert.equal(hook.failurePolicy, 'Ignore');
  assert.equal(hook.timeoutSeconds, 3);
  assert.deepEqual(plain(hook.namespaceSelector?.matchExpressions), [
    { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'tailor'] },
  ]);
  assert.match(hook.clientConfig.url!, /^https:\/\/127\.0\.0\.1:\d+\/mutate-pods$/);
  const validating = await admission.readValidatingWebhookConfiguration({ name: 'tailor' });
  assert.deepEqual(validating.webhooks![0]!.rules![0]!.operations, ['CREATE', 'UPDATE']);
});

test("a Deployment's pods start with the recommendation; an evicted pod comes back with the current one", async () => {
  await createVpa(f, 'shop', 'web-vpa', 'web');
  // cpu 100m/200m -> 250m, limit 200m x 250/100 = 500m; memory 128Mi/256Mi -> 300Mi, limit 600Mi.
  await recommend(f, 'shop', 'web-vpa', { app: { cpu: '250m', memory: '300Mi' } });
  await createDeployment(f, 'shop', 'web', 2, template);
  await f.tick(1000);
  let pods = await podsOf(f, 'shop', 'web');
  assert.equal(pods.length, 2);
  for (const pod of pods) {
    assert.deepEqual(plain(pod.spec?.containers[0]?.resources), { requests: { cpu: '250m', memory: '300Mi' }, limits: { cpu: '500m', memory: '600Mi' } });
    assert.equal(pod.metadata?.annotations?.['tailor.dev/vpa'], 'web-vpa');
    assert.equal(
      pod.metadata?.annotations?.['tailor.dev/resources-changed'],
      'app: cpu request 100m -> 250m, memory request 128Mi -> 300Mi, cpu limit 200m -> 500m, memory limit 256Mi -> 600Mi',
    );
    assert.equal(pod.status?.qosClass, 'Burstable');
  }

  // The recommendation moves on; an evicted pod is recreated from the (unchanged) template.
  await recommend(f, 'shop', 'web-vpa', { app: { cpu: '400m', memory: '300Mi' } });
  const originals = pods.map((p) => p.metadata!.name!);
  const victim = originals[0]!;
  await f.core.createNamespacedPodEviction({
    namespace: 'shop',
    name: victim,
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: victim, namespace: 'shop' } },
  });
  await f.tick(1000);
  pods = await podsOf(f, 'shop', 'web');
  assert.equal(pods.length, 2);
  const replacement = pods.find((p) => !originals.includes(p.metadata!.name!));
  assert.ok(replacement, 'a replacement pod exists');
  assert.deepEqual(plain(replacement.spec?.containers[0]?.resources), { requests: { cpu: '400m', memory: '300Mi' }, limits: { cpu: '800m', memory: '600Mi' } });
  assert.equal(replacement.status?.phase, 'Running');
  assert.ok((await counter('patched')) >= 3);
});

test('Initial applies only at creation: later updates of the pod are not touched, new pods get the new value', async () => {
  await createVpa(f, 'shop', 'worker-vpa', 'worker', { updatePolicy: { updateMode: 'Initial' } });
  await recommend(f, 'shop', 'worker-vpa', { app: { cpu: '300m', memory: '200Mi' } });
  await createDeployment(f, 'shop', 'worker', 1, { requests: { cpu: '100m', memory: '100Mi' } });
  await f.tick(1000);
  const [first] = await podsOf(f, 'shop', 'worker');
  assert.deepEqual(plain(first!.spec?.containers[0]?.resources), { requests: { cpu: '300m', memory: '200Mi' } });

  await recommend(f, 'shop', 'worker-vpa', { app: { cpu: '500m', memory: '200Mi' } });
  const name = first!.metadata!.name!;
  await f.core.patchNamespacedPod(
    { namespace: 'shop', name, body: { metadata: { labels: { touched: 'yes' } } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  const touched = await f.core.readNamespacedPod({ namespace: 'shop', name });
  assert.equal(touched.metadata?.labels?.touched, 'yes');
  assert.equal(touched.spec?.containers[0]?.resources?.requests?.cpu, '300m');

  await f.apps.patchNamespacedDeploymentScale(
    { namespace: 'shop', name: 'worker', body: { spec: { replicas: 2 } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  await f.tick(1000);
  const cpus = (await podsOf(f, 'shop', 'worker')).map((p) => p.spec?.containers[0]?.resources?.requests?.cpu).sort();
  assert.deepEqual(cpus, ['300m', '500m']);
});

test('pods in kube-system are never sent to the webhook', async () => {
  await createVpa(f, 'kube-system', 'dns-vpa', 'dns');
  await recommend(f, 'kube-system', 'dns-vpa', { app: { cpu: '300m' } });
  const before = (await f.registry.getSingleMetric('tailor_admission_reviews_total')!.get()).values.reduce(
    (s, v) => s + (v.labels.webhook === 'mutate-pods' ? v.value : 0),
    0,
  );
  await createDeployment(f, 'kube-system', 'dns', 1, { requests: { cpu: '100m' } });
  await f.tick(1000);
  const [pod] = await podsOf(f, 'kube-system', 'dns');
  assert.equal(pod!.spec?.containers[0]?.resources?.requests?.cpu, '100m');
  const afterCount = (await f.registry.getSingleMetric('tailor_admission_reviews_total')!.get()).values.reduce(
    (s, v) => s + (v.labels.webhook === 'mutate-pods' ? v.value : 0),
    0,
  );
  assert.equal(afterCount, before);
});

test('an invalid VPA is rejected at create with a message naming the field', async () => {
  const body = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'bad', namespace: 'shop' },
    spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      updatePolicy: { updateMode: 'Recreate' },
      resourcePolicy: { containerPolicies: [{ containerName: 'app', minAllowed: { cpu: '2' }, maxAllowed: { cpu: '500m' } }] },
    },
  };
  const err = await f.custom.createNamespacedCustomObject({ ...VPA_GROUP, namespace: 'shop', body }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err, 'the create must fail');
  const failure = apiFailure(err);
  assert.equal(failure.code, 422);
  assert.equal(
    failure.status.message,
    'admission webhook "vpa.admission.tailor.dev" denied the request: VerticalPodAutoscaler.autoscaling.k8s.io "bad" is invalid: spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu: 500m is below minAllowed.cpu 2',
  );
  assert.equal(await counter('denied', 'validate-vpa'), 1);
  // An UPDATE that breaks a valid VPA is rejected too.
  const current = (await f.custom.getNamespacedCustomObject({ ...VPA_GROUP, namespace: 'shop', name: 'web-vpa' })) as {
    spec: { updatePolicy: Record<string, unknown> };
  };
  current.spec.updatePolicy = { updateMode: 'Recreate', minReplicas: 0 };
  const updateErr = await f.custom.replaceNamespacedCustomObject({ ...VPA_GROUP, namespace: 'shop', name: 'web-vpa', body: current }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.match(apiFailure(updateErr).status.message ?? '', /spec\.updatePolicy\.minReplicas/);
});

test('kubectl apply of an invalid VPA fails with the field and the problem', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tailor-kubectl-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  await f.sim.server.writeKubeconfig(kubeconfig);
  const yaml = [
    'apiVersion: autoscaling.k8s.io/v1',
    'kind: VerticalPodAutoscaler',
    'metadata: {name: typo, namespace: shop}',
    'spec:',
    '  targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}',
    '  updatePolicy: {updateMode: Recreate, minReplicas: 0}',
  ].join('\n');
  const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', '-'], { timeout: 20_000 }, (err, _stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
    child.stdin!.end(yaml);
  });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /admission webhook "vpa\.admission\.tailor\.dev" denied the request: VerticalPodAutoscaler\.autoscaling\.k8s\.io "typo" is invalid: spec\.updatePolicy\.minReplicas: /,
  );
});

test('a Pod LimitRange: the LimitRanger admits the pod the webhook scaled into it (upstream e2e: one container without a recommendation)', async () => {
  // Without the webhook 100m + 400m would be refused: "maximum cpu usage per Pod is 400m, but limit is 500m".
  await f.core.createNamespace({ body: { metadata: { name: 'limits' } } });
  await f.core.createNamespacedLimitRange({
    namespace: 'limits',
    body: { metadata: { name: 'hamster-lr' }, spec: { limits: [{ type: 'Pod', max: { cpu: '400m', memory: '1Gi' } }] } },
  });
  await until(() => f.webhook.view.namespaceView('limits').limitRanges.length === 1, 5000, "the LimitRange in the webhook's cache");
  await createVpa(f, 'limits', 'hamster-vpa', 'hamster');
  await recommend(f, 'limits', 'hamster-vpa', { hamster: { cpu: '400m', memory: '600Mi' } });
  const equal = (cpu: string, memory: string) => ({ requests: { cpu, memory }, limits: { cpu, memory } });
  const containers = [
    { name: 'hamster', image: 'busybox:1.37', resources: equal('100m', '100Mi') },
    { name: 'hamster2', image: 'busybox:1.37', resources: equal('400m', '600Mi') },
  ];
  await f.apps.createNamespacedDeployment({
    namespace: 'limits',
    body: {
      metadata: { name: 'hamster' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'hamster' } }, template: { metadata: { labels: { app: 'hamster' } }, spec: { containers } } },
    },
  });
  await f.tick(1000);
  const pods = await podsOf(f, 'limits', 'hamster');
  assert.equal(pods.length, 1);
  // 400m + 400m over the 400m max, 600Mi + 600Mi over 1Gi: both containers x 1/2 and x 1Gi/1200Mi.
  assert.deepEqual(plain(pods[0]!.spec?.containers.map((c) => c.resources)), [equal('200m', '512Mi'), equal('200m', '512Mi')]);
});

test('with the webhook down, pods are still admitted (failurePolicy Ignore), with the template resources', async () => {
  await f.webhook.stop();
  const [pod] = await podsOf(f, 'shop', 'web');
  const victim = pod!.metadata!.name!;
  await f.core.createNamespacedPodEviction({
    namespace: 'shop',
    name: victim,
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: victim, namespace: 'shop' } },
  });
  await f.tick(1000);
  await until(async () => (await podsOf(f, 'shop', 'web')).length === 2, 5000, 'replacement pod');
  const replacement = (await podsOf(f, 'shop', 'web')).find((p) => p.metadata?.annotations?.['tailor.dev/vpa'] === undefined);
  assert.ok(replacement, 'a pod created while the webhook is down');
  assert.deepEqual(plain(replacement.spec?.containers[0]?.resources), template);
  assert.equal(replacement.status?.phase, 'Running');
});
