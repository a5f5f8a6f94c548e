/**
 * API faults on the recommender's writes, injected by kube-sim: 500s and 409s on VPA status
 * patches are retried and succeed; a 410 on a write is retried; 429 + Retry-After on checkpoint
 * writes backs off (no checkpoint request at all while paused) and the checkpoint is written in a
 * later cycle; a status write that keeps failing leaves the API's recommendation as it was and the
 * pending change is written once the API recovers; dropped watches and a compacted watch history
 * (410 on resume) are recovered from, and a VPA created meanwhile is served. Nothing already had
 * is lost: recommendations stay, checkpoints are only ever replaced by newer ones, and a restart
 * restores the same recommendation. Every retry and final outcome is counted in metrics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent, type RecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import type { RequestRecord } from 'kube-sim/apiserver/request-metrics';
import { SyntheticSource } from '../../support/synthetic-source.ts';
import { offVpa, startRecommenderSim, VPA_API } from '../../support/recommender-sim.ts';

const VPA = VPA_API;
const CHECKPOINTS = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalercheckpoints' };
/** A VPA in mode Off for the Deployment web. */
const vpa = (name: string) => offVpa(name, 'web');

interface Checkpoint {
  metadata: { name: string };
  status: { lastUpdateTime: string; totalSamplesCount: number };
}

test('faults on status and checkpoint writes and on watches: retried by class, backed off, counted, nothing lost', { timeout: 90_000 }, async (t) => {
  const { sim, kc, custom } = await startRecommenderSim(t, [{ name: 'web', replicas: 2, cpu: '250m', memory: '128Mi' }]);
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: vpa('web') });
  const log: RequestRecord[] = [];
  sim.server.requests.onRecord((r) => log.push(r));

  const { config } = resolveRunConfig(
    { components: 'recommender', prometheusUrl: 'http://127.0.0.1:9', history: '20s', historyStep: '1s', checkpointInterval: '1s', logLevel: 'silent' },
    {},
  );
  const source = new SyntheticSource(sim.server);
  let metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const start = () => {
    metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
    return createRecommenderComponent({ config, logger: silentLogger(), kubeConfig: kc, metrics, clock: Date.now }, { source });
  };
  let loop: RecommenderComponent = start();
  t.after(() => loop.deactivate());
  await loop.activate();
  const signal = new AbortController().signal;
  let cycle = 0;
  const runCycle = async () => {
    await delay(1050); // checkpoints are due again (1 s interval)
    await loop.runCycle({ now: Date.now(), cycle: ++cycle, signal });
  };
  const targetOf = async (name: string) =>
    ((await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name })) as VerticalPodAutoscaler).status?.recommendation
      ?.containerRecommendations?.[0]?.target;
  const checkpoint = async () => (await custom.getNamespacedCustomObject({ ...CHECKPOINTS, namespace: 'default', name: 'web-app' })) as Checkpoint;
  const metric = async (name: string, labels: string) => {
    const line = (await metrics.registry.getSingleMetricAsString(name)).split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };

  await runCycle();
  const target = await targetOf('web');
  assert.ok(target?.cpu, 'a first recommendation');
  let last = await checkpoint();

  // Two 500s on the status patch and a 410 on the checkpoint apply: retried within the cycle.
  // (One rule per request kind: every matching rule counts a firing, so rules are not stacked.)
  source.usage.memoryBytes = 300 * 1024 * 1024; // a change, so the status is written this cycle
  sim.server.addFault({ verbs: ['patch'], resources: ['verticalpodautoscalers'], subresources: ['status'], error: 500, times: 2 });
  sim.server.addFault({ verbs: ['patch'], resources: ['verticalpodautoscalercheckpoints'], error: 410, times: 1 });
  await runCycle();
  sim.server.faults.clear();
  const afterRetries = await targetOf('web');
  assert.notDeepEqual(afterRetries, target, 'the changed recommendation was written despite two failures');
  assert.equal(await metric('tailor_recommender_write_retries_total', 'object="status",reason="unavailable"'), 2);
  // A 409 on the status patch: retried (a merge patch without resourceVersion is sent again as is).
  source.usage.memoryBytes = 500 * 1024 * 1024;
  sim.server.addFault({ verbs: ['patch'], resources: ['verticalpodautoscalers'], subresources: ['status'], error: 409, times: 1 });
  await runCycle();
  sim.server.faults.clear();
  assert.notDeepEqual(await targetOf('web'), afterRetries, 'written after the conflict');
  assert.equal(await metric('tailor_recommender_write_retries_total', 'object="status",reason="conflict"'), 1);
  assert.equal(await metric('tailor_recommender_write_retries_total', 'object="checkpoint",reason="gone"'), 1);
  assert.equal(await metric('tailor_recommender_writes_total', 'object="status",outcome="ok"'), 3);
  let now = await checkpoint();
  assert.ok(Date.parse(now.status.lastUpdateTime) > Date.parse(last.status.lastUpdateTime), 'the checkpoint was written after its 410');
  last = now;

  // 429 with Retry-After 1 s, four times: the checkpoint write gives up after 4 attempts (3 s of
  // waits), then writes pause 1 s; the checkpoint is written in the next cycle.
  sim.server.addFault({ verbs: ['patch'], resources: ['verticalpodautoscalercheckpoints'], error: 429, retryAfterSeconds: 1, times: 4 });
  const throttledFrom = Date.now();
  await runCycle();
  const throttled = log.filter((r) => r.resource === 'verticalpodautoscalercheckpoints' && r.verb === 'APPLY' && r.startedAt! >= throttledFrom);
  assert.deepEqual(
    throttled.map((r) => r.code),
    [429, 429, 429, 429],
  );
  for (let i = 1; i < throttled.length; i++) assert.ok(throttled[i]!.startedAt! - throttled[i - 1]!.endedAt! >= 990, `retry ${i} waited Retry-After`);
  assert.equal(await metric('tailor_recommender_writes_total', 'object="checkpoint",outcome="throttled"'), 1);
  assert.ok(
    (await metrics.registry.getSingleMetricAsString('tailor_recommender_backoff_until_seconds'))
      .split('\n')
      .some((l) => /^tailor_recommender_backoff_until_seconds \d/.test(l) && Number(l.split(' ')[1]) * 1000 > throttledFrom),
    'the pause is exported',
  );
  now = await checkpoint();
  assert.deepEqual(now, last, 'the checkpoint already had is still there, unchanged');
  await runCycle();
  now = await checkpoint();
  assert.ok(
    now.status.totalSamplesCount >= last.status.totalSamplesCount && Date.parse(now.status.lastUpdateTime) > Date.parse(last.status.lastUpdateTime),
    'written in the next cycle',
  );
  last = now;

  // The status write keeps failing: the API keeps the recommendation it had; the change is written once the API recovers.
  const before = await targetOf('web');
  sim.server.addFault({ verbs: ['patch'], resources: ['verticalpodautoscalers'], subresources: ['status'], error: 500 });
  source.usage.memoryBytes = 900 * 1024 * 1024;
  // The only VPA's status cannot be written: the cycle is counted as failed (the loop runs on).
  await assert.rejects(runCycle(), /no VPA status could be written/);
  assert.deepEqual(await targetOf('web'), before, 'the recommendation already had stays');
  assert.equal(await metric('tailor_recommender_writes_total', 'object="status",outcome="unavailable"'), 1);
  sim.server.faults.clear();
  await runCycle();
  assert.notDeepEqual(await targetOf('web'), before, 'the pending change is written');

  // Dropped VPA watches and a compacted history (the resume gets 410 Gone): a VPA created meanwhile is served.
  // (kube-sim's clock stands still here, so both VPAs have the same creationTimestamp: the name decides, web wins.)
  const watchFaultsFrom = Date.now();
  sim.server.addFault({ verbs: ['watch'], resources: ['verticalpodautoscalers'], dropWatchAfterMs: 100, times: 3 });
  sim.server.store.compact();
  sim.server.endWatches(); // the open watches end; their resumes meet the dropped history
  await custom.createNamespacedCustomObject({
    ...VPA,
    namespace: 'default',
    body: { ...vpa('zz-late'), spec: { ...vpa('zz-late').spec, targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } } },
  });
  const readLate = async () => (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name: 'zz-late' })) as VerticalPodAutoscaler;
  const recoveredFrom = Date.now();
  // The watch cache restarts with backoff (500 ms base, doubling per failure) and re-lists after the 410.
  while (!(await readLate()).status && Date.now() - recoveredFrom < 20_000) await runCycle();
  t.diagnostic(`the VPA created while watches were dropped was served ${Date.now() - recoveredFrom} ms later`);
  sim.server.faults.clear();
  const relists = log.filter((r) => r.resource === 'verticalpodautoscalers' && r.verb === 'LIST' && r.startedAt! >= watchFaultsFrom);
  assert.ok(relists.length >= 1, 'the VPA cache re-listed after its resume was answered 410 Gone');
  const late = await readLate();
  assert.equal(
    late.status?.conditions?.find((c) => c.type === 'ConfigUnsupported')?.reason,
    'MultipleVPAs',
    'the VPA created while watches were dropped was seen',
  );
  assert.ok(await targetOf('web'), 'web keeps its recommendation');

  // A restart restores what the checkpoints hold: the same recommendation.
  const kept = await targetOf('web');
  await loop.deactivate('shutdown');
  loop = start();
  await loop.activate();
  await runCycle();
  assert.deepEqual(await targetOf('web'), kept);
});
