import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { podManifest, rawRequest, startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim();
});
after(async () => {
  await sim?.close();
});

test('create assigns uid, resourceVersion, creationTimestamp, generation and pod defaults', async () => {
  const pod = await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('crud-a', { cpu: '250m' }) });
  assert.match(pod.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
  assert.ok(Number(pod.metadata?.resourceVersion) > 0);
  assert.ok(pod.metadata?.creationTimestamp instanceof Date);
  assert.equal(pod.metadata?.generation, 1);
  assert.equal(pod.status?.phase, 'Pending');
  assert.equal(pod.status?.qosClass, 'Burstable');
  assert.equal(pod.spec?.restartPolicy, 'Always');
  assert.equal(pod.spec?.containers[0]?.imagePullPolicy, 'IfNotPresent');
});

test('get returns the stored object, 404 NotFound with the real message otherwise', async () => {
  const pod = await sim.core.readNamespacedPod({ namespace: 'default', name: 'crud-a' });
  assert.equal(pod.metadata?.name, 'crud-a');
  await assert.rejects(sim.core.readNamespacedPod({ namespace: 'default', name: 'nope' }), (err) => {
    assert.equal(statusCode(err), 404);
    const body = statusBody(err);
    assert.equal(body.reason, 'NotFound');
    assert.equal(body.message, 'pods "nope" not found');
    return true;
  });
});

test('a second create with the same name is 409 AlreadyExists', async () => {
  await assert.rejects(sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('crud-a') }), (err) => {
    assert.equal(statusCode(err), 409);
    assert.equal(statusBody(err).reason, 'AlreadyExists');
    assert.equal(statusBody(err).message, 'pods "crud-a" already exists');
    return true;
  });
});

test('create in a missing namespace is 404 for the namespace', async () => {
  await assert.rejects(sim.core.createNamespacedPod({ namespace: 'ghost', body: podManifest('x') }), (err) => {
    assert.equal(statusCode(err), 404);
    assert.equal(statusBody(err).message, 'namespaces "ghost" not found');
    return true;
  });
});

test('update with a stale resourceVersion is 409 Conflict; a fresh one bumps the version', async () => {
  const cm = await sim.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cfg' }, data: { a: '1' } } });
  const fresh = await sim.core.replaceNamespacedConfigMap({ namespace: 'default', name: 'cfg', body: { ...cm, data: { a: '2' } } });
  assert.ok(Number(fresh.metadata?.resourceVersion) > Number(cm.metadata?.resourceVersion));
  await assert.rejects(sim.core.replaceNamespacedConfigMap({ namespace: 'default', name: 'cfg', body: { ...cm, data: { a: '3' } } }), (err) => {
    assert.equal(statusCode(err), 409);
    assert.equal(statusBody(err).reason, 'Conflict');
    assert.equal(
      statusBody(err).message,
      'Operation cannot be fulfilled on configmaps "cfg": the object has been modified; please apply your changes to the latest version and try again',
    );
    return true;
  });
});

test('invalid pods are 422 Invalid with field causes', async () => {
  const body = podManifest('bad');
  if (body.spec?.containers[0]) body.spec.containers[0].image = '';
  await assert.rejects(sim.core.createNamespacedPod({ namespace: 'default', body }), (err) => {
    assert.equal(statusCode(err), 422);
    const status = statusBody(err);
    assert.equal(status.reason, 'Invalid');
    assert.equal(status.message, 'Pod "bad" is invalid: spec.containers[0].image: Required value');
    assert.deepEqual(status.details?.causes, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }]);
    return true;
  });
});

test('list filters by label and field selectors', async () => {
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('sel-1', { labels: { app: 'db', tier: 'back' } }) });
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('sel-2', { labels: { app: 'db' } }) });
  const cases: [string | undefined, string | undefined, string[]][] = [
    ['app=db', undefined, ['sel-1', 'sel-2']],
    ['app=db,tier', undefined, ['sel-1']],
    ['app=db,!tier', undefined, ['sel-2']],
    ['app in (db,cache),tier notin (front)', undefined, ['sel-1', 'sel-2']],
    ['app!=db', 'metadata.name=crud-a', ['crud-a']],
    [undefined, 'metadata.name=sel-2', ['sel-2']],
    ['app', 'status.phase=Pending,metadata.name!=crud-a', ['sel-1', 'sel-2']],
  ];
  for (const [labelSelector, fieldSelector, expected] of cases) {
    const list = await sim.core.listNamespacedPod({ namespace: 'default', labelSelector, fieldSelector });
    assert.deepEqual(list.items.map((p) => p.metadata?.name).sort(), expected, `${labelSelector} / ${fieldSelector}`);
  }
});

test('list pages with limit and continue', async () => {
  for (let i = 0; i < 5; i += 1)
    await sim.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `page-${i}`, labels: { paged: 'yes' } } } });
  const seen: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await sim.core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'paged=yes', limit: 2, _continue: token });
    seen.push(...page.items.map((c) => c.metadata?.name ?? ''));
    token = page.metadata?._continue || undefined;
    pages += 1;
  } while (token);
  assert.equal(pages, 3);
  assert.deepEqual(seen, ['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
});

test('delete returns the object; a second delete is 404', async () => {
  const deleted = await sim.core.deleteNamespacedPod({ namespace: 'default', name: 'sel-2' });
  assert.equal(deleted.metadata?.name, 'sel-2');
  await assert.rejects(sim.core.deleteNamespacedPod({ namespace: 'default', name: 'sel-2' }), (err) => statusCode(err) === 404);
});

test('a pod naming a missing service account is 403 (ServiceAccount admission)', async () => {
  const body = podManifest('robot-pod');
  if (body.spec) body.spec.serviceAccountName = 'robot';
  await assert.rejects(sim.core.createNamespacedPod({ namespace: 'default', body }), (err) => {
    assert.equal(statusCode(err), 403);
    assert.equal(statusBody(err).message, 'pods "robot-pod" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found');
    return true;
  });
  await sim.core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'robot' } } });
  const created = await sim.core.createNamespacedPod({ namespace: 'default', body });
  assert.equal(created.spec?.serviceAccountName, 'robot');
});

test('a new namespace gets a default service account, so pods can be created in it at once', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'fresh' } } });
  const sa = await sim.core.readNamespacedServiceAccount({ namespace: 'fresh', name: 'default' });
  assert.equal(sa.metadata?.name, 'default');
  await sim.core.createNamespacedPod({ namespace: 'fresh', body: podManifest('first') });
});

test('deleting a namespace deletes what is in it', async () => {
  await sim.core.createNamespace({ body: { metadata: { name: 'doomed' } } });
  await sim.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'c' } } });
  await sim.core.deleteNamespace({ name: 'doomed' });
  assert.equal(sim.server.store.get('configmaps', 'doomed', 'c'), undefined);
  await assert.rejects(sim.core.readNamespace({ name: 'doomed' }), (err) => statusCode(err) === 404);
});

test('services get type, TCP ports with targetPort and a stable cluster IP', async () => {
  const svc = await sim.core.createNamespacedService({
    namespace: 'default',
    body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
  });
  assert.equal(svc.spec?.type, 'ClusterIP');
  assert.match(svc.spec?.clusterIP ?? '', /^10\.96\.\d{1,3}\.\d{1,3}$/);
  assert.equal(svc.spec?.ports?.[0]?.protocol, 'TCP');
  assert.equal(svc.spec?.ports?.[0]?.targetPort, 80);
});

test('namespaced kinds are only listed across namespaces: a create without a namespace is 404', async () => {
  const res = await rawRequest(sim.server, 'POST', '/api/v1/pods', podManifest('nowhere'));
  assert.equal(res.status, 404);
  assert.equal((res.json() as { message: string }).message, 'the server could not find the requested resource');
  const list = await rawRequest(sim.server, 'GET', '/api/v1/pods');
  assert.equal(list.status, 200);
});

test('YAML bodies are accepted; bodies over 3 MiB are 413', async () => {
  const yaml = await rawRequest(
    sim.server,
    'POST',
    '/api/v1/namespaces/default/configmaps',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  a: "1"\n',
    { contentType: 'application/yaml' },
  );
  assert.equal(yaml.status, 201, yaml.text);
  const big = await rawRequest(sim.server, 'POST', '/api/v1/namespaces/default/configmaps', {
    metadata: { name: 'big' },
    data: { a: 'x'.repeat(3 * 1024 * 1024) },
  });
  assert.equal(big.status, 413);
  assert.equal((big.json() as { reason: string }).reason, 'RequestEntityTooLarge');
});
