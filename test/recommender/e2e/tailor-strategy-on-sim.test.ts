/**
 * `--recommender-strategy tailor` end to end on kube-sim (real HTTP), with an in-process usage
 * source whose history does not change when it is read again, and an injected clock:
 *
 * 1. The VPA status comes from the tailor strategy: it equals a tailor model fed the same samples
 *    of both pods directly in time order (within one 5% histogram bucket), and is not upstream's
 *    figure (vpa's p90 + 15% margin is about 13% higher for this CPU).
 * 2. A restart (graceful shutdown, new leader at the same time) gives the same recommendation:
 *    the new leader restores the upstream-format checkpoints and the tailor models from their
 *    state annotation, and reads only the history since (decision 0261). No history is lost or
 *    counted twice: the upstream checkpoint holds the same sample count after the restart as
 *    before it.
 * 3. Going back to `--recommender-strategy vpa` resumes from those checkpoints and gives upstream's
 *    figure for the whole history.
 *
 * Worked numbers: pod A at 0.2 core, pod B at 0.3 + 0.1 x sin(2 pi t / 90 min) core, 10 h of
 * history. Half the samples are at 0.2; pod B's p80 is about 0.38, so the pooled p90.2 is about
 * 0.38 core (tailor's target, no margin); vpa: about 0.38 x 1.15 = 0.44 core.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent, type RecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { vpaStrategy } from '../../../src/model/vpa-strategy.ts';
import type { Strategy } from '../../../src/model/types.ts';
import { TAILOR_DEFAULTS } from '../../../src/model/tailor/options.ts';
import { tailorStrategy } from '../../../src/model/tailor/tailor-strategy.ts';
import { SyntheticSource } from '../../support/synthetic-source.ts';
import { offVpa, startRecommenderSim, VPA_API } from '../../support/recommender-sim.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const MiB = 1024 * 1024;
const VPA = VPA_API;
const CHECKPOINTS = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalercheckpoints' };

type Gauges = Map<string, number>;

/** The tailor_vpa_recommendation gauge by `bound/resource`. */
async function recommendationGauges(metrics: ControllerMetrics): Promise<Gauges> {
  const metric = metrics.registry.getSingleMetric('tailor_vpa_recommendation');
  const out: Gauges = new Map();
  for (const v of (await metric!.get()).values) out.set(`${v.labels['bound']}/${v.labels['resource']}`, v.value);
  return out;
}

const within = (actual: number, expected: number, tolerance: number) => Math.abs(actual - expected) <= tolerance * expected;

test("tailor strategy in the cluster: the VPA status is tailor's, and a restart gives the same one without losing history", { timeout: 120_000 }, async (t) => {
  const { sim, kc, custom } = await startRecommenderSim(t, [{ name: 'web', replicas: 2, cpu: '250m', memory: '128Mi' }]);
  await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: offVpa('web') });
  const pods = sim.server.store
    .list('pods', 'default')
    .map((p) => p.metadata.name ?? '')
    .sort();
  assert.equal(pods.length, 2);

  const t0 = Math.floor(Date.UTC(2026, 10, 2, 9) / MIN) * MIN;
  const dataStart = t0 - 10 * HOUR;
  const usageAt = (at: number, pod: string) => {
    if (at < dataStart) return undefined;
    const minute = (at - dataStart) / MIN;
    return pod === pods[0]
      ? { cpuCores: 0.2, memoryBytes: 200 * MiB }
      : { cpuCores: 0.3 + 0.1 * Math.sin((2 * Math.PI * minute) / 90), memoryBytes: (250 + 20 * Math.sin((2 * Math.PI * minute) / 240)) * MiB };
  };
  const source = new SyntheticSource(sim.server, undefined, usageAt);
  const { config } = resolveRunConfig(
    {
      components: 'recommender',
      prometheusUrl: 'http://127.0.0.1:9',
      recommenderStrategy: 'tailor',
      history: '24h',
      historyStep: '1m',
      checkpointInterval: '1h',
      logLevel: 'silent',
    },
    {},
  );
  let now = t0;
  const loops: RecommenderComponent[] = [];
  t.after(() => Promise.all(loops.map((l) => l.deactivate())));
  const start = () => {
    const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
    const loop = createRecommenderComponent({ config, logger: silentLogger(), kubeConfig: kc, metrics, clock: () => now }, { source });
    loops.push(loop);
    return { loop, metrics };
  };
  const signal = new AbortController().signal;
  const samplesInCheckpoint = async () =>
    ((await custom.getNamespacedCustomObject({ ...CHECKPOINTS, namespace: 'default', name: 'web-app' })) as { status: { totalSamplesCount: number } }).status
      .totalSamplesCount;

  const statusWrites: string[] = [];
  sim.server.requests.onRecord((r) => {
    if (r.resource === 'verticalpodautoscalers' && r.subresource === 'status' && r.code < 300) statusWrites.push(r.verb);
  });

  // First leader: cycles every 30 min for 3 h, then a graceful shutdown (checkpoints written).
  const first = start();
  await first.loop.activate();
  for (let i = 0; i <= 6; i++) {
    now = t0 + i * 30 * MIN;
    await first.loop.runCycle({ now, cycle: i + 1, signal });
  }
  const end = first.loop.lastSync!.end;
  t.diagnostic(`status writes in 7 cycles: ${statusWrites.length}`);
  const before = await recommendationGauges(first.metrics);
  const vpa = (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name: 'web' })) as VerticalPodAutoscaler;
  const status = vpa.status!.recommendation!.containerRecommendations![0]!;
  t.diagnostic(`status after 3 h: target ${JSON.stringify(status.target)}, upperBound ${JSON.stringify(status.upperBound)}`);
  await first.loop.deactivate('shutdown');
  const samplesBefore = await samplesInCheckpoint();

  // The same samples fed directly, both pods in time order, to each strategy's model.
  const direct = (strategy: Strategy) => {
    const model = strategy.newModel();
    for (let at = dataStart; at <= end; at += MIN) {
      for (const pod of pods) model.addCpuSample(usageAt(at, pod)!.cpuCores, at, pod);
      for (const pod of pods) model.addMemorySample(usageAt(at, pod)!.memoryBytes, at, pod);
    }
    const e = model.estimate(now)!;
    return { cpu: e.target.cpu / 1000, memory: e.target.memory };
  };
  const tailor = direct(tailorStrategy());
  const upstream = direct(vpaStrategy());
  t.diagnostic(
    `direct tailor target ${tailor.cpu.toFixed(3)} cores ${(tailor.memory / MiB).toFixed(1)} MiB; direct vpa ${upstream.cpu.toFixed(3)} cores ${(upstream.memory / MiB).toFixed(1)} MiB; controller ${before.get('target/cpu')} cores ${(before.get('target/memory')! / MiB).toFixed(1)} MiB`,
  );
  assert.ok(within(before.get('target/cpu')!, tailor.cpu, 0.05), `CPU target ${before.get('target/cpu')} is tailor's ${tailor.cpu}`);
  assert.ok(within(before.get('target/memory')!, tailor.memory, 0.05), `memory target ${before.get('target/memory')} is tailor's ${tailor.memory}`);
  assert.ok(before.get('target/cpu')! < upstream.cpu * 0.93, `and not upstream's ${upstream.cpu}`);
  assert.ok(
    within(before.get('upperBound/memory')!, tailor.memory * TAILOR_DEFAULTS.memoryUpperFactor, 0.05),
    `tailor's memory bounds [1, 1.3] x target after 6 h: ${before.get('upperBound/memory')}`,
  );

  // Restart: a new leader at the same time restores the checkpoint and the model's state.
  const second = start();
  const rangesBefore = source.cpuRanges.length;
  const writesBefore = statusWrites.length;
  await second.loop.activate();
  await second.loop.runCycle({ now, cycle: 1, signal });
  assert.equal(statusWrites.length, writesBefore, 'the new leader computes the same status, so it writes none');
  const firstRead = source.cpuRanges[rangesBefore]!;
  assert.ok(
    firstRead.start >= now - 5 * MIN,
    `the new leader reads only the history since the saved state, not --history (from ${new Date(firstRead.start).toISOString()})`,
  );
  const after = await recommendationGauges(second.metrics);
  t.diagnostic(`after the restart: target ${after.get('target/cpu')} cores ${(after.get('target/memory')! / MiB).toFixed(1)} MiB`);
  for (const key of ['target/cpu', 'target/memory', 'lowerBound/cpu', 'upperBound/cpu', 'lowerBound/memory', 'upperBound/memory']) {
    assert.ok(within(after.get(key)!, before.get(key)!, 0.05), `${key}: ${after.get(key)} after the restart, ${before.get(key)} before`);
  }
  await second.loop.deactivate('shutdown');
  assert.equal(await samplesInCheckpoint(), samplesBefore, `the upstream checkpoint holds the same ${samplesBefore} samples: none lost, none counted twice`);

  // Back to upstream's algorithm: the checkpoints written under tailor carry the whole history.
  const vpaConfig = { ...config, recommenderStrategy: 'vpa' as const };
  const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
  const third = createRecommenderComponent({ config: vpaConfig, logger: silentLogger(), kubeConfig: kc, metrics, clock: () => now }, { source });
  loops.push(third);
  const rangesBeforeVpa = source.cpuRanges.length;
  await third.activate();
  await third.runCycle({ now, cycle: 1, signal });
  const resumedFrom = source.cpuRanges[rangesBeforeVpa]!.start;
  assert.ok(resumedFrom >= now - 10 * MIN, `vpa resumes at the checkpoint, not at --history (from ${new Date(resumedFrom).toISOString()})`);
  const back = await recommendationGauges(metrics);
  t.diagnostic(`back on vpa: target ${back.get('target/cpu')} cores ${(back.get('target/memory')! / MiB).toFixed(1)} MiB`);
  assert.ok(
    within(back.get('target/cpu')!, upstream.cpu, 0.05),
    `vpa's CPU target from the checkpoint ${back.get('target/cpu')} equals upstream's on the whole history ${upstream.cpu}`,
  );
  assert.ok(
    within(back.get('target/memory')!, upstream.memory, 0.05),
    `vpa's memory target from the checkpoint ${back.get('target/memory')} equals upstream's on the whole history ${upstream.memory}`,
  );
});
