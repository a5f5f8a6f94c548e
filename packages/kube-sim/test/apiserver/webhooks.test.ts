import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { createCertificateAuthority } from '../../src/apiserver/certificates.ts';
import { podManifest, rawRequest, startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';
import { SLOW_ANSWER_MS, startWebhookServer, type TestWebhookServer } from './webhook-server.ts';

let sim: SimFixture;
let hooks: TestWebhookServer;
let admission: k8s.AdmissionregistrationV1Api;
let counter = 0;

before(async () => {
  sim = await startSim();
  hooks = await startWebhookServer();
  admission = sim.kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  sim.server.setServiceResolver((ns, name, port) => (ns === 'test' && name === 'hooks' && port === 443 ? { host: '127.0.0.1', port: hooks.port } : undefined));
});
after(async () => {
  await sim?.close();
  await hooks?.close();
});
beforeEach(async () => {
  for (const c of (await admission.listMutatingWebhookConfiguration()).items)
    await admission.deleteMutatingWebhookConfiguration({ name: c.metadata?.name ?? '' });
  for (const c of (await admission.listValidatingWebhookConfiguration()).items)
    await admission.deleteValidatingWebhookConfiguration({ name: c.metadata?.name ?? '' });
  hooks.received.length = 0;
});

type Hook = k8s.V1MutatingWebhook & k8s.V1ValidatingWebhook;

function hook(path: string, overrides: Partial<Hook> = {}): Hook {
  return {
    name: `${path.slice(1) || 'root'}.hooks.test`,
    clientConfig: { url: hooks.url(path), caBundle: hooks.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...overrides,
  };
}

async function mutating(...webhooks: Hook[]): Promise<void> {
  await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: `m-${(counter += 1)}` }, webhooks } });
}
async function validating(...webhooks: Hook[]): Promise<void> {
  await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: `v-${(counter += 1)}` }, webhooks } });
}
async function createPod(labels: Record<string, string> = { app: 'web' }, namespace = 'default'): Promise<k8s.V1Pod> {
  return sim.core.createNamespacedPod({ namespace, body: podManifest(`pod-${(counter += 1)}`, { labels }) });
}

test('a mutating webhook JSON patch is applied to the stored object', async () => {
  await mutating(hook('/label'));
  const pod = await createPod();
  assert.equal(pod.metadata?.labels?.['mutated'], 'yes');
  assert.equal(hooks.received.length, 1);
  const review = hooks.received[0]?.request;
  assert.equal(review?.operation, 'CREATE');
  assert.equal(review?.kind.kind, 'Pod');
  assert.equal(review?.namespace, 'default');
  assert.equal(review?.userInfo.username, 'kube-sim-admin');
});

test('a validating webhook denial is the real message with the webhook code', async () => {
  await validating(hook('/deny', { objectSelector: { matchLabels: { deny: 'true' } } }));
  await createPod({ deny: 'false' });
  await assert.rejects(createPod({ deny: 'true' }), (err) => {
    assert.equal(statusCode(err), 403);
    assert.equal(statusBody(err).message, 'admission webhook "deny.hooks.test" denied the request: pods labelled deny are not welcome');
    return true;
  });
  assert.equal(hooks.received.length, 1, 'objectSelector skipped the non-matching pod');
});

// prettier-ignore: one row per line, read as a table
const ruleCases: { name: string; rule: k8s.V1RuleWithOperations; calls: number }[] = [
  { name: 'CREATE on pods matches', rule: { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }, calls: 1 },
  { name: 'UPDATE only does not match a create', rule: { operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }, calls: 0 },
  { name: 'another group does not match', rule: { operations: ['*'], apiGroups: ['apps'], apiVersions: ['*'], resources: ['*'] }, calls: 0 },
  {
    name: 'a subresource rule does not match the main resource',
    rule: { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'] },
    calls: 0,
  },
  { name: 'wildcards match', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }, calls: 1 },
  {
    name: 'Cluster scope does not match pods',
    rule: { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Cluster' },
    calls: 0,
  },
];
for (const c of ruleCases) {
  test(`webhook rules: ${c.name}`, async () => {
    await validating(hook('/allow', { rules: [c.rule] }));
    await createPod();
    assert.equal(hooks.received.length, c.calls);
  });
}

test('namespaceSelector uses the labels of the request namespace', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'hooked', labels: { webhooks: 'on' } } } });
  await sim.core.createNamespace({ body: { metadata: { name: 'plain' } } });
  await mutating(hook('/label', { namespaceSelector: { matchLabels: { webhooks: 'on' } } }));
  const hooked = await createPod({ app: 'x' }, 'hooked');
  const plain = await createPod({ app: 'x' }, 'plain');
  assert.equal(hooked.metadata?.labels?.['mutated'], 'yes');
  assert.equal(plain.metadata?.labels?.['mutated'], undefined);
});

test('subresource rules: pods/status updates and pods/eviction creates reach the webhook', async () => {
  await validating(
    hook('/allow', { rules: [{ operations: ['UPDATE', 'CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status', 'pods/eviction'] }] }),
  );
  const pod = await createPod();
  const name = pod.metadata?.name ?? '';
  await sim.core.patchNamespacedPodStatus(
    { namespace: 'default', name, body: { status: { phase: 'Running' } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  await sim.core.createNamespacedPodEviction({ namespace: 'default', name, body: { metadata: { name } } });
  assert.deepEqual(
    hooks.received.map((r) => `${r.request.operation} ${r.request.subResource ?? ''} ${r.request.kind.kind}`),
    ['UPDATE status Pod', 'CREATE eviction Eviction'],
  );
});

const failureCases: { name: string; webhook: () => Hook; status: number; message?: RegExp }[] = [
  {
    name: 'unreachable with failurePolicy Ignore is admitted',
    webhook: () => hook('/allow', { clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: hooks.caBundle }, failurePolicy: 'Ignore' }),
    status: 201,
  },
  {
    name: 'unreachable with failurePolicy Fail is 500',
    webhook: () => hook('/allow', { clientConfig: { url: 'https://127.0.0.1:1/x', caBundle: hooks.caBundle }, failurePolicy: 'Fail' }),
    status: 500,
    message: /^Internal error occurred: failed calling webhook "allow.hooks.test": failed to call webhook: Post "https:\/\/127.0.0.1:1\/x\?timeout=10s"/,
  },
  {
    name: 'a timeout with failurePolicy Fail is 500 after timeoutSeconds',
    webhook: () => hook('/slow', { timeoutSeconds: 1, failurePolicy: 'Fail' }),
    status: 500,
    message: /context deadline exceeded/,
  },
  { name: 'a timeout with failurePolicy Ignore is admitted', webhook: () => hook('/slow', { timeoutSeconds: 1, failurePolicy: 'Ignore' }), status: 201 },
  {
    name: 'a caBundle from another CA fails TLS verification',
    webhook: () => hook('/allow', { clientConfig: { url: hooks.url('/allow'), caBundle: createCertificateAuthority('other').caBundle } }),
    status: 500,
    message: /failed calling webhook/,
  },
  {
    name: 'a service reference is resolved and verified as hooks.test.svc',
    webhook: () => hook('/allow', { clientConfig: { service: { namespace: 'test', name: 'hooks', path: '/allow' }, caBundle: hooks.caBundle } }),
    status: 201,
  },
  {
    name: 'an unresolvable service fails',
    webhook: () => hook('/allow', { clientConfig: { service: { namespace: 'test', name: 'nobody', path: '/allow' }, caBundle: hooks.caBundle } }),
    status: 500,
    message: /cannot be resolved/,
  },
];
for (const c of failureCases) {
  test(`webhook failures: ${c.name}`, async () => {
    await validating(c.webhook());
    const started = Date.now();
    try {
      await createPod();
      assert.equal(201, c.status);
    } catch (err) {
      assert.equal(statusCode(err), c.status, JSON.stringify(statusBody(err)));
      if (c.message) assert.match(statusBody(err).message ?? '', c.message);
    }
    // A /slow hook answers after 10 s: back within 5 s (4 s of slack for a loaded machine) means the
    // 1 s timeoutSeconds cut the call; and the API server waited that 1 s first.
    const took = Date.now() - started;
    assert.ok(took < SLOW_ANSWER_MS / 2, `timeouts are honoured: took ${took} ms`);
    if (c.name.includes('timeout')) assert.ok(took >= 990, `waited for timeoutSeconds: took ${took} ms`);
  });
}

test('webhook warnings reach the client as Warning headers', async () => {
  await validating(hook('/warn'));
  const res = await rawRequest(sim.server, 'POST', '/api/v1/namespaces/default/pods', podManifest(`pod-${(counter += 1)}`));
  assert.equal(res.status, 201);
  assert.equal(res.headers['warning'], '299 - "this pod has no \\"owner\\" label"');
});

test('a dry-run request reaching a webhook with side effects is 400', async () => {
  await validating(hook('/allow', { sideEffects: 'Some' }));
  const res = await rawRequest(sim.server, 'POST', '/api/v1/namespaces/default/pods?dryRun=All', podManifest(`pod-${(counter += 1)}`));
  assert.equal(res.status, 400);
  assert.equal((res.json() as { message: string }).message, 'admission webhook "allow.hooks.test" does not support dry run');
  assert.equal(hooks.received.length, 0);
});

test('reinvocationPolicy IfNeeded runs a webhook again after a later webhook changed the object', async () => {
  // Configurations run in name order: the /team webhook (first) sees no `mutated` label on its
  // first call; /label (second) adds it; IfNeeded makes /team run again and add team=a.
  await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'a-team' }, webhooks: [hook('/team', { reinvocationPolicy: 'IfNeeded' })] } });
  await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'b-label' }, webhooks: [hook('/label')] } });
  const pod = await createPod();
  assert.equal(pod.metadata?.labels?.['team'], 'a');
  assert.deepEqual(
    hooks.received.map((r) => r.path),
    ['/team', '/label', '/team'],
  );
});
