import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { chaosOverlay } from './tailor-install.ts';

test('the chaos overlay: manifests/install with the image, Prometheus, short loops and two updaters and recommenders', () => {
  const dir = resolve('/tmp/somewhere/tailor-overlay');
  const overlay = k8s.loadYaml<{
    resources: string[];
    configMapGenerator: { name: string; behavior: string; literals: string[] }[];
    replicas: { name: string; count: number }[];
    images: { name: string; newName: string; newTag: string }[];
  }>(chaosOverlay(dir, { image: 'localhost/tailor:abc123', prometheusUrl: 'http://10.213.1.1:41234', loopSeconds: 20, settings: ['TAILOR_LOG_LEVEL=debug'] }));
  assert.equal(resolve(dir, overlay.resources[0]!), resolve('manifests/install'));
  assert.ok(existsSync(join(resolve(dir, overlay.resources[0]!), 'kustomization.yaml')));
  assert.deepEqual(overlay.configMapGenerator, [
    {
      name: 'tailor-config',
      namespace: 'tailor-system',
      behavior: 'merge',
      literals: ['TAILOR_PROMETHEUS_URL=http://10.213.1.1:41234', 'TAILOR_INTERVAL=20s', 'TAILOR_CHECKPOINT_INTERVAL=20s', 'TAILOR_LOG_LEVEL=debug'],
    },
  ]);
  assert.deepEqual(overlay.replicas, [
    { name: 'tailor-updater', count: 2 },
    { name: 'tailor-recommender', count: 2 },
  ]);
  assert.deepEqual(overlay.images, [{ name: 'tailor', newName: 'localhost/tailor', newTag: 'abc123' }]);
});

test('with the chaos proxy, every container is pointed at it by the in-cluster variables', () => {
  const overlay = k8s.loadYaml<{ patches: { target: { kind: string; name: string }; patch: string }[] }>(
    chaosOverlay('/tmp/o', { image: 'localhost/tailor:abc', prometheusUrl: 'http://p', loopSeconds: 20, apiServer: { host: '10.213.1.1', port: 40123 } }),
  );
  assert.deepEqual(
    overlay.patches.map((p) => {
      const d = k8s.loadYaml<k8s.V1Deployment>(p.patch);
      const c = d.spec!.template.spec!.containers[0]!;
      return [p.target.name, d.metadata!.name, c.name, c.env!.map((e) => `${e.name}=${e.value}`).join(' ')];
    }),
    [
      ['tailor-updater', 'tailor-updater', 'updater', 'KUBERNETES_SERVICE_HOST=10.213.1.1 KUBERNETES_SERVICE_PORT=40123'],
      ['tailor-recommender', 'tailor-recommender', 'recommender', 'KUBERNETES_SERVICE_HOST=10.213.1.1 KUBERNETES_SERVICE_PORT=40123'],
      ['tailor-admission', 'tailor-admission', 'admission', 'KUBERNETES_SERVICE_HOST=10.213.1.1 KUBERNETES_SERVICE_PORT=40123'],
    ],
  );
  assert.equal(k8s.loadYaml<{ patches?: unknown }>(chaosOverlay('/tmp/o', { image: 'a:b', prometheusUrl: 'http://p', loopSeconds: 20 })).patches, undefined);
});

test("a variant's updater rules are appended to the updater's ClusterRole by a JSON patch", () => {
  const rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }];
  const overlay = k8s.loadYaml<{ patches: { target: Record<string, string>; patch: string }[] }>(
    chaosOverlay('/tmp/o', { image: 'a:b', prometheusUrl: 'http://p', loopSeconds: 20, updaterRules: rules }),
  );
  assert.deepEqual(overlay.patches, [
    {
      target: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', name: 'tailor-updater' },
      patch: JSON.stringify([{ op: 'add', path: '/rules/-', value: rules[0] }]),
    },
  ]);
  const role = k8s.loadYaml<k8s.V1ClusterRole>(readFileSync('manifests/base/rbac-updater.yaml', 'utf8').split(/^---$/m)[0]!);
  assert.equal(role.kind, 'ClusterRole');
  assert.equal(role.metadata!.name, 'tailor-updater', 'the patch names the ClusterRole the manifests give the updater');
});
