/**
 * Checkpoint cadence with an injected clock: the recommender runs cycles at simulated times one
 * minute apart against kube-sim's API (real HTTP), with a synthetic usage source, and the request
 * log counts the checkpoint writes and orphan sweeps per cycle.
 *
 * Worked numbers (interval 10 min, sweep 15 min, 2 VPAs x 1 container): cycles at minutes 0..21
 * write checkpoints at minutes 0, 10, 20 (2 each, 6 in all, instead of 44 when written every
 * cycle); the sweep lists checkpoints at minutes 0 and 15, so an orphan made at minute 1 is deleted
 * at minute 15. A graceful shutdown writes once more every checkpoint with samples since its last
 * write; losing leadership writes none. A new leader writes a restored checkpoint at its first
 * cycle with new samples, then on the interval (decision 0287).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCheckpoint } from '../../src/api/vpa-checkpoint.ts';
import { resolveRunConfig } from '../../src/controller/run-config.ts';
import { createRecommenderComponent, type RecommenderComponent } from '../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../src/controller/controller-metrics.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import type { KubeObject } from 'kube-sim/apiserver';
import type { RequestRecord } from 'kube-sim/apiserver/request-metrics';
import { SyntheticSource } from '../support/synthetic-source.ts';
import { offVpa, startRecommenderSim, VPA_API } from '../support/recommender-sim.ts';

const MIN = 60_000;
const VPA = VPA_API;
const CHECKPOINTS = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalercheckpoints' };

test('checkpoints on their own interval, the orphan sweep on a slower one, a flush at shutdown only', { timeout: 60_000 }, async (t) => {
  const { sim, kc, custom } = await startRecommenderSim(
    t,
    ['web', 'api'].map((name) => ({ name, replicas: 1, cpu: '100m', memory: '64Mi' })),
  );
  for (const name of ['web', 'api']) await custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: offVpa(name) });
  const log: RequestRecord[] = [];
  sim.server.requests.onRecord((r) => log.push(r));
  const applies = () => log.filter((r) => r.resource === 'verticalpodautoscalercheckpoints' && r.verb === 'APPLY' && r.code < 300).length;
  const sweeps = () => log.filter((r) => r.resource === 'verticalpodautoscalercheckpoints' && r.verb === 'LIST').length;

  const { config } = resolveRunConfig(
    {
      components: 'recommender',
      prometheusUrl: 'http://127.0.0.1:9',
      history: '30m',
      historyStep: '1m',
      checkpointInterval: '10m',
      checkpointGcInterval: '15m',
      logLevel: 'silent',
    },
    {},
  );
  const t0 = Math.floor(Date.now() / MIN) * MIN;
  let now = t0;
  const source = new SyntheticSource(sim.server);
  const start = (): RecommenderComponent =>
    createRecommenderComponent(
      { config, logger: silentLogger(), kubeConfig: kc, metrics: new ControllerMetrics(createRegistry({ defaultMetrics: false })), clock: () => now },
      { source },
    );
  let loop = start();
  t.after(() => loop.deactivate());
  await loop.activate();
  const signal = new AbortController().signal;
  const perMinute: Array<{ minute: number; applies: number; sweeps: number }> = [];
  for (let minute = 0; minute <= 21; minute++) {
    now = t0 + minute * MIN;
    const [a, s] = [applies(), sweeps()];
    await loop.runCycle({ now, cycle: minute + 1, signal });
    perMinute.push({ minute, applies: applies() - a, sweeps: sweeps() - s });
    if (minute === 1)
      sim.server.store.create(
        'verticalpodautoscalercheckpoints.autoscaling.k8s.io',
        buildCheckpoint('default', 'deleted-vpa', 'app', {}) as unknown as KubeObject,
      );
  }
  const writesAt = perMinute.filter((p) => p.applies > 0).map((p) => `${p.minute}:${p.applies}`);
  const sweepsAt = perMinute.filter((p) => p.sweeps > 0).map((p) => p.minute);
  t.diagnostic(`checkpoint writes (minute:count) ${writesAt.join(' ')}; sweeps at minutes ${sweepsAt.join(', ')}`);
  assert.deepEqual(writesAt, ['0:2', '10:2', '20:2']);
  assert.deepEqual(sweepsAt, [0, 15]);
  const names = async () =>
    ((await custom.listNamespacedCustomObject({ ...CHECKPOINTS, namespace: 'default' })) as { items: Array<{ metadata: { name: string } }> }).items
      .map((c) => c.metadata.name)
      .sort();
  assert.deepEqual(await names(), ['api-app', 'web-app'], 'the orphan made at minute 1 was deleted by the sweep at minute 15');

  // Losing leadership writes nothing; a graceful shutdown writes every checkpoint once more.
  now = t0 + 21 * MIN + 30_000;
  let before = applies();
  await loop.deactivate('leadershipLost');
  assert.equal(applies(), before, 'no write after leadership is lost');
  loop = start();
  await loop.activate();
  // The new leader restored lastUpdateTime = minute 20; its first cycle reads the samples since and
  // writes them at once (upstream's e2e "is loaded correctly on recommender restart"), then the
  // interval runs from that write.
  const restartWrites: string[] = [];
  for (const minute of [22, 25, 29, 32]) {
    before = applies();
    now = t0 + minute * MIN;
    await loop.runCycle({ now, cycle: minute, signal });
    restartWrites.push(`${minute}:${applies() - before}`);
  }
  assert.deepEqual(restartWrites, ['22:2', '25:0', '29:0', '32:2'], 'written at the first cycle with new samples, then every 10 min');
  before = applies();
  now = t0 + 33 * MIN;
  await loop.runCycle({ now, cycle: 33, signal });
  await loop.deactivate('shutdown');
  assert.equal(applies() - before, 2, 'the shutdown flushed both checkpoints (samples since minute 32)');
  const web = (await custom.getNamespacedCustomObject({ ...CHECKPOINTS, namespace: 'default', name: 'web-app' })) as { status: { lastUpdateTime: string } };
  assert.equal(Date.parse(web.status.lastUpdateTime), now, 'stamped with the injected clock at shutdown');

  // A leader restarted in the same minute reads nothing new: nothing to write, even at shutdown.
  loop = start();
  await loop.activate();
  before = applies();
  await loop.runCycle({ now, cycle: 34, signal });
  assert.equal(applies(), before, 'no new samples, not an interval old: not written');
  await loop.deactivate('shutdown');
  assert.equal(applies(), before, 'no checkpoint without new samples is written at shutdown');
});
