import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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
