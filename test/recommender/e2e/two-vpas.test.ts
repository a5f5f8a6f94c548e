/**
 * Two VPAs on one Deployment, on kube-sim with the cycles' time injected: the recommender serves
 * the controlling one (`controllingVpa`, decision 0277), the VPA the updater and the webhook use,
 * even while that VPA's target read waits out a back-off. It used to pick the oldest among the
 * VPAs whose target had just been read, so a second VPA created meanwhile was written instead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { startKubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';
import { SyntheticSource } from '../../support/synthetic-source.ts';

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };

test(
  'two VPAs on one Deployment: the controlling one is served while its target read waits; the other is MultipleVPAs and its target is not read',
  { timeout: 120_000 },
  async (t) => {
    const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario: parseScenario('nodes: [{name: n, cpu: "8", memory: 32Gi}]\n') });
    t.after(() => sim.close());
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.server.kubeconfig());
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const createVpa = (name: string) =>
      custom.createNamespacedCustomObject({
        ...VPA,
        namespace: 'default',
        body: {
          apiVersion: 'autoscaling.k8s.io/v1',
          kind: 'VerticalPodAutoscaler',
          metadata: { name },
          spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'Off' } },
        },
      });
    const readVpa = async (name: string) => (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name })) as VerticalPodAutoscaler;
    const targetReads: string[] = [];
    sim.server.requests.onRecord((r) => {
      if (r.verb === 'GET' && r.resource === 'deployments') targetReads.push(`${r.name}:${r.code}`);
    });

    const { config } = resolveRunConfig(
      { components: 'recommender', prometheusUrl: 'http://127.0.0.1:9', history: '10m', historyStep: '1s', logLevel: 'silent' },
      {},
    );
    const loop = createRecommenderComponent(
      { config, logger: silentLogger(), kubeConfig: kc, metrics: new ControllerMetrics(createRegistry({ defaultMetrics: false })), clock: Date.now },
      { source: new SyntheticSource(sim.server) },
    );
    t.after(() => loop.deactivate());
    await loop.activate();
    const signal = new AbortController().signal;
    const T0 = Date.now();
    let cycle = 0;

    // `a-web` comes first (by time, and by name at the same second): it controls Deployment web. The
    // Deployment does not exist yet: TargetNotFound, read again after a back-off of 30 s.
    await createVpa('a-web');
    for (let i = 0; i < 50 && !(await readVpa('a-web')).status; i++) {
      await loop.runCycle({ now: T0, cycle: ++cycle, signal });
      if (!(await readVpa('a-web')).status) await new Promise((r) => setTimeout(r, 100)); // the VPA watch delivers it
    }
    assert.equal((await readVpa('a-web')).status?.conditions?.find((c) => c.type === 'ConfigUnsupported')?.reason, 'TargetNotFound');

    // The Deployment appears, and a second VPA on it, while `a-web` waits out its back-off.
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
          },
        },
      },
    });
    await createVpa('b-web');
    const readsBefore = targetReads.length;
    for (let i = 0; i < 50 && !(await readVpa('b-web')).status; i++) {
      await loop.runCycle({ now: T0 + 10_000, cycle: ++cycle, signal });
      if (!(await readVpa('b-web')).status) await new Promise((r) => setTimeout(r, 100));
    }
    const second = await readVpa('b-web');
    const unsupported = second.status?.conditions?.find((c) => c.type === 'ConfigUnsupported');
    assert.equal(unsupported?.reason, 'MultipleVPAs', JSON.stringify(second.status));
    assert.match(unsupported!.message!, /Deployment\/web is already handled by (the older VPA a-web|VPA a-web \(created in the same second)/);
    assert.equal(second.status?.recommendation, undefined, 'the second VPA is not written');
    assert.deepEqual(targetReads.slice(readsBefore), [], 'neither target read: a-web waits, b-web is not the owner');

    // After the back-off `a-web` is read and served; `b-web` stays MultipleVPAs.
    await loop.runCycle({ now: T0 + 31_000, cycle: ++cycle, signal });
    assert.deepEqual(targetReads.slice(readsBefore), ['web:200']);
    assert.equal(
      (await readVpa('a-web')).status?.conditions?.find((c) => c.type === 'ConfigUnsupported'),
      undefined,
    );
    assert.equal((await readVpa('b-web')).status?.conditions?.find((c) => c.type === 'ConfigUnsupported')?.reason, 'MultipleVPAs');
  },
);
