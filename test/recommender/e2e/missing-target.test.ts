/**
 * A VPA whose target does not exist, on kube-sim with the cycles' time injected: the target is
 * read with a back-off (not every cycle), the VPA keeps saying TargetNotFound, the warning is
 * logged once, and editing the VPA to an existing target reads it at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { createLogger } from '../../../src/observability/logger.ts';
import { startKubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';
import { SyntheticSource } from '../../support/synthetic-source.ts';

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };

test('a missing target is read with a back-off, not every cycle; a changed VPA is read at once', { timeout: 120_000 }, async (t) => {
  const sim = await startKubeSim({
    crdManifests: VPA_CRD_MANIFESTS,
    scenario: parseScenario(`
nodes: [{name: n, cpu: "8", memory: 32Gi}]
workloads:
  - {kind: Deployment, name: web, replicas: 1, containers: [{name: app, requests: {cpu: 250m, memory: 128Mi}}]}
`),
  });
  t.after(() => sim.close());
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.server.kubeconfig());
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  await custom.createNamespacedCustomObject({
    ...VPA,
    namespace: 'default',
    body: {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: 'ghost' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nothing-here' }, updatePolicy: { updateMode: 'Off' } },
    },
  });
  const targetReads: string[] = [];
  sim.server.requests.onRecord((r) => {
    if (r.verb === 'GET' && r.resource === 'deployments') targetReads.push(`${r.name}:${r.code}`);
  });
  const warnings: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) {
          const line = JSON.parse(l) as { level: number; msg: string; vpa?: string };
          if (line.level === 40 && line.vpa === 'default/ghost') warnings.push(line.msg);
        }
        done();
      },
    }),
  });
  const { config } = resolveRunConfig(
    { components: 'recommender', prometheusUrl: 'http://127.0.0.1:9', history: '10m', historyStep: '1s', logLevel: 'silent' },
    {},
  );
  const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const loop = createRecommenderComponent({ config, logger, kubeConfig: kc, metrics, clock: Date.now }, { source: new SyntheticSource(sim.server) });
  t.after(() => loop.deactivate());
  await loop.activate();
  const signal = new AbortController().signal;
  const T0 = Date.now();
  let cycle = 0;
  // 31 cycles 10 s apart (5 minutes of the component's time): without a back-off, 31 reads.
  for (let s = 0; s <= 300; s += 10) await loop.runCycle({ now: T0 + s * 1000, cycle: ++cycle, signal });
  const ghostReads = targetReads.filter((r) => r.startsWith('nothing-here:'));
  assert.ok(ghostReads.every((r) => r === 'nothing-here:404'));
  // Reads at 0, 30, 90 and 210 s (then 450 s).
  assert.equal(ghostReads.length, 4, targetReads.join(' '));
  assert.equal(warnings.length, 1, warnings.join('\n'));
  const ghost = (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name: 'ghost' })) as VerticalPodAutoscaler;
  assert.equal(ghost.status?.conditions?.find((c) => c.type === 'ConfigUnsupported')?.reason, 'TargetNotFound');

  // The user points the VPA at the Deployment that exists: read in the next cycle, not after the back-off.
  await custom.patchNamespacedCustomObject({
    ...VPA,
    namespace: 'default',
    name: 'ghost',
    body: [{ op: 'replace', path: '/spec/targetRef/name', value: 'web' }],
  });
  const readsBefore = targetReads.length;
  for (let i = 0; i < 50 && !targetReads.slice(readsBefore).includes('web:200'); i++) {
    await loop.runCycle({ now: T0 + 310_000, cycle: ++cycle, signal });
    if (!targetReads.slice(readsBefore).includes('web:200')) await new Promise((r) => setTimeout(r, 100)); // the VPA watch delivers the edit
  }
  assert.ok(targetReads.slice(readsBefore).includes('web:200'), targetReads.slice(readsBefore).join(' '));
});
