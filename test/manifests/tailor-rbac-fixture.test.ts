import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { KubeSimApiServer } from 'kube-sim/apiserver';
import { componentKubeConfig, installTailorRbac } from '../support/tailor-rbac.ts';
import { VPA_CRD_MANIFESTS } from '../../src/api/vpa-crd-manifests.ts';

test('the RBAC fixture for end-to-end suites installs the roles and authenticates as each component', async (t) => {
  const server = new KubeSimApiServer({ crdManifests: VPA_CRD_MANIFESTS, authentication: true, authorization: true });
  await server.start();
  t.after(() => server.close());
  const created = await installTailorRbac(server);
  assert.equal(created.length, 1 + 3 + 4 + 5 + 4 + 5, created.join(', '));
  const recommender = componentKubeConfig(server, 'recommender').makeApiClient(k8s.CustomObjectsApi);
  const listed = await recommender.listClusterCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' });
  assert.deepEqual((listed as { items: unknown[] }).items, []);
  const updater = componentKubeConfig(server, 'updater').makeApiClient(k8s.CoreV1Api);
  await assert.rejects(updater.listSecretForAllNamespaces(), (err: { code?: number }) => err.code === 403);
  assert.equal(server.requests.count({ username: 'system:serviceaccount:tailor-system:tailor-updater', code: 403 }), 1);
});
