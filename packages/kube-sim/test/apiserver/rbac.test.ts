import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { kubeConfigFor, podManifest, rawRequest, startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
let updater: { core: k8s.CoreV1Api; custom: k8s.CustomObjectsApi; auth: k8s.AuthorizationV1Api; token: string };
const USER = 'system:serviceaccount:tailor:updater';

before(async () => {
  sim = await startSim({ authentication: true, authorization: true });
  const rbac = sim.kc.makeApiClient(k8s.RbacAuthorizationV1Api);
  sim.server.registerSubresource('pods', 'resize', { update: ({ current }) => current });
  await sim.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
  await sim.core.createNamespace({ body: { metadata: { name: 'team-a' } } });
  await sim.core.createNamespacedServiceAccount({ namespace: 'tailor', body: { metadata: { name: 'updater' } } });
  await rbac.createClusterRole({
    body: {
      metadata: { name: 'tailor-updater' },
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['pods/resize'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
        { apiGroups: ['autoscaling.k8s.io'], resources: ['verticalpodautoscalers'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['autoscaling.k8s.io'], resources: ['verticalpodautoscalers/status'], verbs: ['patch'] },
      ],
    },
  });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: 'tailor-updater' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'tailor-updater' },
      subjects: [{ kind: 'ServiceAccount', name: 'updater', namespace: 'tailor' }],
    },
  });
  await rbac.createNamespacedRole({
    namespace: 'team-a',
    body: { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['allowed'] }] },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: 'team-a',
    body: {
      metadata: { name: 'cm-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'updater', namespace: 'tailor' }],
    },
  });
  for (const name of ['allowed', 'secret']) await sim.core.createNamespacedConfigMap({ namespace: 'team-a', body: { metadata: { name } } });
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('p1') });
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('p2') });
  const tokenRequest = await sim.core.createNamespacedServiceAccountToken({ namespace: 'tailor', name: 'updater', body: { spec: { audiences: [] } } });
  const token = tokenRequest.status?.token ?? '';
  const kc = kubeConfigFor(sim.server, token);
  updater = { core: kc.makeApiClient(k8s.CoreV1Api), custom: kc.makeApiClient(k8s.CustomObjectsApi), auth: kc.makeApiClient(k8s.AuthorizationV1Api), token };
});
after(async () => {
  await sim?.close();
});

const json = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch);

const cases: { name: string; run: () => Promise<unknown>; status: number; message?: string }[] = [
  { name: 'list pods is granted', run: () => updater.core.listNamespacedPod({ namespace: 'default' }), status: 200 },
  {
    name: 'patch on pods is denied',
    run: () => updater.core.patchNamespacedPod({ namespace: 'default', name: 'p1', body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] }, json),
    status: 403,
    message: `pods "p1" is forbidden: User "${USER}" cannot patch resource "pods" in API group "" in the namespace "default"`,
  },
  {
    name: 'patch on pods/resize is granted',
    run: () => updater.core.patchNamespacedPodResize({ namespace: 'default', name: 'p1', body: [{ op: 'test', path: '/metadata/name', value: 'p1' }] }, json),
    status: 200,
  },
  {
    name: 'create on pods/eviction is granted',
    run: () => updater.core.createNamespacedPodEviction({ namespace: 'default', name: 'p2', body: { metadata: { name: 'p2' } } }),
    status: 201,
  },
  {
    name: 'delete on pods is denied',
    run: () => updater.core.deleteNamespacedPod({ namespace: 'default', name: 'p1' }),
    status: 403,
    message: `pods "p1" is forbidden: User "${USER}" cannot delete resource "pods" in API group "" in the namespace "default"`,
  },
  {
    name: 'cluster-scoped list is denied at the cluster scope',
    run: () => updater.core.listNode(),
    status: 403,
    message: `nodes is forbidden: User "${USER}" cannot list resource "nodes" in API group "" at the cluster scope`,
  },
  {
    name: 'a RoleBinding grants a named configmap in its namespace',
    run: () => updater.core.readNamespacedConfigMap({ namespace: 'team-a', name: 'allowed' }),
    status: 200,
  },
  { name: 'resourceNames exclude other objects', run: () => updater.core.readNamespacedConfigMap({ namespace: 'team-a', name: 'secret' }), status: 403 },
  {
    name: 'a RoleBinding grants nothing in another namespace',
    run: () => updater.core.readNamespacedConfigMap({ namespace: 'default', name: 'allowed' }),
    status: 403,
  },
  {
    name: 'VPA list is granted',
    run: () =>
      updater.custom.listNamespacedCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', namespace: 'default', plural: 'verticalpodautoscalers' }),
    status: 200,
  },
  {
    name: 'VPA create is denied with the group in the message',
    run: () =>
      updater.custom.createNamespacedCustomObject({
        group: 'autoscaling.k8s.io',
        version: 'v1',
        namespace: 'default',
        plural: 'verticalpodautoscalers',
        body: {
          apiVersion: 'autoscaling.k8s.io/v1',
          kind: 'VerticalPodAutoscaler',
          metadata: { name: 'v' },
          spec: { targetRef: { kind: 'Deployment', name: 'x' } },
        },
      }),
    status: 403,
    message: `verticalpodautoscalers.autoscaling.k8s.io is forbidden: User "${USER}" cannot create resource "verticalpodautoscalers" in API group "autoscaling.k8s.io" in the namespace "default"`,
  },
];

for (const c of cases) {
  test(`rbac: ${c.name}`, async () => {
    let status = 200;
    try {
      const result = await c.run();
      if (c.status === 201) status = 201;
      void result;
    } catch (err) {
      status = statusCode(err) ?? -1;
      if (c.message) assert.equal(statusBody(err).message, c.message);
      if (status === 403) assert.equal(statusBody(err).reason, 'Forbidden');
    }
    assert.equal(status, c.status);
  });
}

test('requests without a token are 401 Unauthorized; discovery is open to any authenticated user', async () => {
  const anonymous = await rawRequest(sim.server, 'GET', '/api/v1/namespaces/default/pods', undefined, { token: 'not-a-token' });
  assert.equal(anonymous.status, 401);
  assert.equal((anonymous.json() as { reason: string }).reason, 'Unauthorized');
  const discovery = await rawRequest(sim.server, 'GET', '/apis', undefined, { token: updater.token });
  assert.equal(discovery.status, 200);
});

test('SelfSubjectAccessReview answers from the same RBAC rules', async () => {
  const ask = async (verb: string, resource: string, subresource = ''): Promise<boolean | undefined> =>
    (await updater.auth.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { namespace: 'default', verb, resource, subresource } } } })).status
      ?.allowed;
  assert.equal(await ask('patch', 'pods', 'resize'), true);
  assert.equal(await ask('patch', 'pods'), false);
  assert.equal(await ask('create', 'pods', 'eviction'), true);
});
