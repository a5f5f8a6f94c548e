/**
 * `--recommender-strategy tailor` resumes from its saved model state (decision 0261), on kube-sim
 * with an in-process usage source and an injected clock: a recommender restarted mid-run (graceful
 * shutdown, new leader at the next cycle) publishes, cycle after cycle, exactly the statuses of one
 * that never stopped, and its first read after the restart covers only the time since the state,
 * not `--history`. A checkpoint whose model state is corrupt makes the next leader say so and read
 * the full history instead (no crash).
 *
 * Why the held CPU target matters: pod usage steps up from 500m to 550m at 09:00. The published
 * CPU target (decision 0246) stays at 522m while the need stays within the updater's drift
 * threshold of it; the restart comes at 10:00. A model rebuilt from the history (the behaviour
 * before decision 0261) publishes its fresh 572m at once: a change the running recommender does
 * not make (checked: this test fails with the state restore taken out).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent, type RecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { MODEL_STATE_ANNOTATION } from '../../../src/recommender/model-state-annotation.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { SyntheticSource } from '../../support/synthetic-source.ts';
import { offVpa, startRecommenderSim, VPA_API } from '../../support/recommender-sim.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const MiB = 1024 * 1024;
const CHECKPOINTS = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalercheckpoints' };

/** One simulated cluster with the `web` VPA, a usage source and a way to start recommenders on it. */
async function cluster(t: TestContext, t0: number) {
  const { sim, kc, custom } = await startRecommenderSim(t, [{ name: 'web', replicas: 2, cpu: '500m', memory: '256Mi' }]);
  await custom.createNamespacedCustomObject({ ...VPA_API, namespace: 'default', body: offVpa('web') });
  const dataStart = t0 - 6 * HOUR;
  const usageAt = (at: number, pod: string) => {
    if (at < dataStart) return undefined;
    const minute = (at - dataStart) / MIN;
    const level = at < t0 ? 0.5 : 0.55;
    return {
      cpuCores: level + 0.02 * Math.sin((2 * Math.PI * minute) / 37 + pod.length),
      memoryBytes: (220 + 10 * Math.sin((2 * Math.PI * minute) / 120)) * MiB,
    };
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
  const loops: RecommenderComponent[] = [];
  t.after(() => Promise.all(loops.map((l) => l.deactivate())));
  const clock = { now: 0 };
  const start = () => {
    const loop = createRecommenderComponent(
      { config, logger: silentLogger(), kubeConfig: kc, metrics: new ControllerMetrics(createRegistry({ defaultMetrics: false })), clock: () => clock.now },
      { source },
    );
    loops.push(loop);
    return loop;
  };
  const status = async () =>
    ((await custom.getNamespacedCustomObject({ ...VPA_API, namespace: 'default', name: 'web' })) as VerticalPodAutoscaler).status?.recommendation
      ?.containerRecommendations?.[0];
  return { custom, source, start, status, clock };
}

test(
  'tailor resumes from its saved model state: the same statuses as a recommender that never stopped, and only the recent history read',
  { timeout: 180_000 },
  async (t) => {
    const t0 = Math.floor(Date.UTC(2026, 10, 2, 9) / MIN) * MIN;
    const signal = new AbortController().signal;
    const cycles = Array.from({ length: 8 }, (_, i) => t0 - 2 * HOUR + i * 30 * MIN); // 07:00 .. 10:30, the step at 09:00
    const restartBefore = 6; // the restart comes before the cycle at 10:00, 30 min after the last one

    // A recommender that never stops.
    const a = await cluster(t, t0);
    const steady = a.start();
    a.clock.now = cycles[0]!;
    await steady.activate();
    const expected: string[] = [];
    for (const [i, now] of cycles.entries()) {
      a.clock.now = now;
      await steady.runCycle({ now, cycle: i + 1, signal });
      expected.push(JSON.stringify(await a.status()));
    }

    // The same cluster and usage, restarted between two cycles.
    const b = await cluster(t, t0);
    let loop = b.start();
    b.clock.now = cycles[0]!;
    await loop.activate();
    const got: string[] = [];
    let rangesAtRestart = 0;
    for (const [i, now] of cycles.entries()) {
      if (i === restartBefore) {
        await loop.deactivate('shutdown');
        const checkpoint = (await b.custom.getNamespacedCustomObject({ ...CHECKPOINTS, namespace: 'default', name: 'web-app' })) as {
          metadata: { annotations?: Record<string, string> };
        };
        const annotation = checkpoint.metadata.annotations?.[MODEL_STATE_ANNOTATION] ?? '';
        t.diagnostic(`model state annotation: ${annotation.length} characters`);
        assert.ok(annotation.length > 100 && annotation.length < 8192, 'the checkpoint carries the model state, a few KiB');
        b.clock.now = now;
        loop = b.start();
        await loop.activate();
        rangesAtRestart = b.source.cpuRanges.length;
      }
      b.clock.now = now;
      await loop.runCycle({ now, cycle: i + 1, signal });
      got.push(JSON.stringify(await b.status()));
    }
    t.diagnostic(
      `CPU targets of the steady recommender: ${expected.map((s) => JSON.parse(s)?.target?.cpu).join(', ')}; restarted: ${got.map((s) => JSON.parse(s)?.target?.cpu).join(', ')}`,
    );
    assert.deepEqual(got, expected, 'every cycle publishes what the recommender that never stopped published');
    const firstRead = b.source.cpuRanges[rangesAtRestart]!;
    t.diagnostic(
      `first read after the restart: from ${new Date(firstRead.start).toISOString()} to ${new Date(firstRead.end).toISOString()}; reads after the restart: ${b.source.cpuRanges.length - rangesAtRestart}`,
    );
    assert.ok(firstRead.start >= cycles[restartBefore - 1]! - 5 * MIN, 'the new leader reads from its saved state on, not the 24 h of --history');
  },
);

test('a corrupt model state: the new leader warns and reads the full history (no crash)', { timeout: 120_000 }, async (t) => {
  const t0 = Math.floor(Date.UTC(2026, 10, 2, 9) / MIN) * MIN;
  const signal = new AbortController().signal;
  const c = await cluster(t, t0);
  let loop = c.start();
  c.clock.now = t0;
  await loop.activate();
  await loop.runCycle({ now: t0, cycle: 1, signal });
  await loop.deactivate('shutdown');
  const name = 'web-app';
  const checkpoint = (await c.custom.getNamespacedCustomObject({ ...CHECKPOINTS, namespace: 'default', name })) as {
    metadata: { annotations: Record<string, string> };
  };
  const value = checkpoint.metadata.annotations[MODEL_STATE_ANNOTATION]!;
  // One character of the state changed: the checksum no longer matches.
  const corrupt = value.slice(0, -10) + (value.at(-10) === 'A' ? 'B' : 'A') + value.slice(-9);
  await c.custom.patchNamespacedCustomObject({
    ...CHECKPOINTS,
    namespace: 'default',
    name,
    body: [{ op: 'replace', path: `/metadata/annotations/${MODEL_STATE_ANNOTATION.replace('/', '~1')}`, value: corrupt }],
  });
  loop = c.start();
  const now = t0 + 30 * MIN;
  c.clock.now = now;
  const before = c.source.cpuRanges.length;
  await loop.activate();
  await loop.runCycle({ now, cycle: 1, signal });
  assert.ok(c.source.cpuRanges[before]!.start <= now - 24 * HOUR + MIN, 'the full --history is read to rebuild the model');
  assert.ok((await c.status())?.target?.['cpu'] !== undefined, 'and a recommendation is published');
});
