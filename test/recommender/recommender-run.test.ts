/**
 * `tailor run --components recommender` as the CLI composes it (startRun with the registered
 * factory) against kube-sim's API server, with Prometheus unreachable: the loop keeps running and
 * the VPAs say what is wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import { startRun } from '../../src/controller/start-run.ts';
import { resolveRunConfig } from '../../src/controller/run-config.ts';
import { freePort } from '../support/free-port.ts';
import { startSim } from 'kube-sim/test/apiserver/sim-fixture';

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };

test('the registered recommender runs under tailor run and marks VPAs while Prometheus is down', { timeout: 60_000 }, async (t) => {
  const sim = await startSim();
  const dir = mkdtempSync(join(tmpdir(), 'tailor-recrun-'));
  t.after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
  const apps = sim.kc.makeApiClient(k8s.AppsV1Api);
  const custom = sim.kc.makeApiClient(k8s.CustomObjectsApi);
  await apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
      },
    },
  });
  const vpa = (name: string, target: string) => ({
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target } },
  });
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpa('web', 'web') });
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpa('gone', 'missing') });
  // Upstream 1.8's memory aggregation settings: the default strategy (tailor-low-churn) does not apply them and says so.
  await apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      metadata: { name: 'db' },
      spec: {
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'pg', image: 'postgres' }] } },
      },
    },
  });
  const tuned = vpa('tuned', 'db');
  await custom.createNamespacedCustomObject({
    ...VPA,
    namespace: 'default',
    body: {
      ...tuned,
      spec: { ...tuned.spec, resourcePolicy: { containerPolicies: [{ containerName: '*', oomBumpUpRatio: 2, memoryAggregationIntervalSeconds: 3600 }] } },
    },
  });
  const closedPort = await freePort();
  const { config } = resolveRunConfig(
    {
      components: 'recommender',
      prometheusUrl: `http://127.0.0.1:${closedPort}`,
      prometheusRetries: '0',
      metricsAddress: '127.0.0.1',
      metricsPort: '0',
      leaderIdentity: 'r1',
      logLevel: 'silent',
      kubeconfig,
    },
    {},
  );
  const controller = await startRun(config, { env: {} });
  t.after(() => controller.stop());
  const read = async (name: string) => (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name })) as VerticalPodAutoscaler;
  const start = Date.now();
  while ((await read('web')).status?.conditions === undefined && Date.now() - start < 20_000) await delay(100);
  const web = await read('web');
  const byType = Object.fromEntries((web.status?.conditions ?? []).map((c) => [c.type, c]));
  assert.equal(byType['RecommendationProvided']?.status, 'False');
  assert.match(byType['RecommendationProvided']!.message!, /usage not updated this cycle: Prometheus unavailable/);
  assert.equal(byType['NoPodsMatched']?.status, 'True');
  assert.equal(byType['FetchingHistory']?.status, 'True');
  assert.equal(byType['ConfigIgnored'], undefined);
  while ((await read('tuned')).status?.conditions === undefined && Date.now() - start < 20_000) await delay(100);
  const ignored = (await read('tuned')).status?.conditions?.find((c) => c.type === 'ConfigIgnored');
  assert.equal(ignored?.status, 'True');
  assert.equal(
    ignored?.message,
    'memoryAggregationIntervalSeconds of container policy "*" not applied: the tailor-low-churn strategy keeps its own memory history (hourly peaks over 7 days), not upstream\'s aggregation intervals; --recommender-strategy vpa applies them',
  );
  const gone = await read('gone');
  assert.equal(gone.status?.conditions?.find((c) => c.type === 'ConfigUnsupported')?.reason, 'TargetNotFound');
  const metrics = await (await fetch(`${controller.http.url}/metrics`)).text();
  assert.match(metrics, /tailor_tracked_vpas\{component="recommender"\} 3/);
});
