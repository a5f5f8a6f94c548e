import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VpaAggregates } from '../../src/recommender/vpa-aggregates.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';
import { AggregateContainerState } from '../../src/model/aggregate-container-state.ts';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;
const key = (pod: string, container = 'app') => ({ namespace: 'shop', pod, container });
const series = (pod: string, n: number, value: number, from = T0) => ({
  key: key(pod),
  times: Array.from({ length: n }, (_, i) => from + i * MIN),
  values: Array(n).fill(value) as number[],
});

test('samples of two pods of one workload land in one VPA x container; unrouted pods are counted and dropped', () => {
  const a = new VpaAggregates(defaultModelConfig());
  a.routePods([
    { namespace: 'shop', pod: 'web-1', vpaId: 'shop/web', memoryRequests: new Map() },
    { namespace: 'shop', pod: 'web-2', vpaId: 'shop/web', memoryRequests: new Map() },
  ]);
  a.cpu(series('web-1', 10, 0.5));
  a.cpu(series('web-2', 10, 0.5));
  a.cpu(series('other-1', 4, 1));
  assert.equal(a.byVpa.get('shop/web')!.get('app')!.state.totalSamplesCount, 20);
  assert.equal(a.unrouted, 4);
  assert.equal(a.size(), 1);
});

test('a restored state skips samples already in its checkpoint', () => {
  const a = new VpaAggregates(defaultModelConfig());
  const restored = new AggregateContainerState(defaultModelConfig());
  for (let i = 0; i < 5; i++) restored.addCpuSample(0.5, T0 + i * MIN, 'web-1');
  a.restore('shop/web', 'app', restored);
  a.routePods([{ namespace: 'shop', pod: 'web-1', vpaId: 'shop/web', memoryRequests: new Map() }]);
  // The feed re-reads minutes 0..9: minutes 0..4 are in the checkpoint, 5..9 are new.
  a.cpu(series('web-1', 10, 0.5));
  assert.equal(restored.totalSamplesCount, 10);
  assert.equal(restored.lastSampleStart, T0 + 9 * MIN);
});

test('an OOM kill bumps the memory peak: max(request, last sample) x 1.2, at least +100 MiB', () => {
  const a = new VpaAggregates(defaultModelConfig());
  const MiB = 1024 * 1024;
  a.routePods([{ namespace: 'shop', pod: 'web-1', vpaId: 'shop/web', memoryRequests: new Map([['app', 128 * MiB]]) }]);
  a.memory({ key: key('web-1'), times: [T0], values: [100 * MiB] });
  const state = a.byVpa.get('shop/web')!.get('app')!.state;
  const before = state.memoryPeaks.percentile(1);
  assert.ok(a.recordOom(key('web-1'), T0 + MIN));
  // used = max(128 MiB request, 100 MiB sample) = 128 MiB; bump = max(128 x 1.2, 128 + 100) = 228 MiB.
  const after = state.memoryPeaks.percentile(1);
  assert.ok(before < 128 * MiB && after >= 228 * MiB, `peak ${before} -> ${after}`);
  assert.equal(a.recordOom(key('gone-1'), T0), false);
});

test('one OOM kill reported twice (pod status, then Prometheus a step later with a raised request) bumps once', () => {
  const a = new VpaAggregates(defaultModelConfig());
  const MiB = 1024 * 1024;
  a.routePods([{ namespace: 'shop', pod: 'leaky-1', vpaId: 'shop/leaky', memoryRequests: new Map([['app', 256 * MiB]]) }]);
  a.memory({ key: key('leaky-1'), times: [T0], values: [250 * MiB] });
  const state = a.byVpa.get('shop/leaky')!.get('app')!.state;
  // Pod status: used = 256 MiB; bump = max(256 x 1.2, 256 + 100) = 356 MiB.
  assert.ok(a.recordOom(key('leaky-1'), T0 + 30_000, 256 * MiB));
  const once = state.memoryPeaks.percentile(1);
  assert.ok(once >= 356 * MiB && once < 400 * MiB, `peak ${once / MiB} MiB`);
  // Prometheus reports the same kill 90 s later, after the updater raised the request to 384 MiB:
  // recorded again it would bump to max(384 x 1.2, 484) = 484 MiB.
  assert.equal(a.recordOom(key('leaky-1'), T0 + 120_000, 384 * MiB), false);
  assert.equal(state.memoryPeaks.percentile(1), once);
  // A kill 10 minutes later is a new kill, bumped from the raised request.
  assert.ok(a.recordOom(key('leaky-1'), T0 + 11 * MIN, 384 * MiB));
  assert.ok(state.memoryPeaks.percentile(1) >= 484 * MiB);
});

test('a kill is valued at the request the container had then, not one the updater raised after it', () => {
  const a = new VpaAggregates(defaultModelConfig());
  const MiB = 1024 * 1024;
  const route = (bytes: number, at: number) =>
    a.routePods([{ namespace: 'shop', pod: 'leaky-1', vpaId: 'shop/leaky', memoryRequests: new Map([['app', bytes * MiB]]) }], at);
  route(256, T0);
  a.memory({ key: key('leaky-1'), times: [T0], values: [200 * MiB] });
  // Killed at minute 1.5; the cycle at minute 2 already sees the request raised to 384 MiB.
  route(384, T0 + 2 * MIN);
  assert.ok(a.recordOom(key('leaky-1'), T0 + 1.5 * MIN));
  const peak = a.byVpa.get('shop/leaky')!.get('app')!.state.memoryPeaks.percentile(1);
  // used = 256 MiB -> bump max(256 x 1.2, 256 + 100) = 356 MiB (not 484 MiB from 384 MiB).
  assert.ok(peak >= 356 * MiB && peak < 400 * MiB, `peak ${peak / MiB} MiB`);
});

test('a kill already in a restored checkpoint is not recorded again after a restart', () => {
  const a = new VpaAggregates(defaultModelConfig());
  const restored = new AggregateContainerState(defaultModelConfig());
  for (let i = 0; i < 5; i++) restored.addCpuSample(0.5, T0 + i * MIN, 'web-1');
  a.restore('shop/web', 'app', restored);
  a.routePods([{ namespace: 'shop', pod: 'web-1', vpaId: 'shop/web', memoryRequests: new Map([['app', 128 * 1024 * 1024]]) }]);
  assert.equal(a.recordOom(key('web-1'), T0 + 2 * MIN), false, "at minute 2, before the checkpoint's last sample");
  assert.ok(a.recordOom(key('web-1'), T0 + 8 * MIN), 'after it, and more than SAME_OOM_KILL_MS later: a new kill');
});

test('prune drops VPAs no longer handled and containers without samples for the memory window', () => {
  const a = new VpaAggregates(defaultModelConfig());
  a.routePods([{ namespace: 'shop', pod: 'web-1', vpaId: 'shop/web', memoryRequests: new Map() }]);
  a.cpu(series('web-1', 1, 0.5));
  a.container('shop/old', 'app', T0);
  a.prune(T0 + MIN, new Set(['shop/web']));
  assert.deepEqual([...a.byVpa.keys()], ['shop/web']);
  a.prune(T0 + 8 * 24 * 3600_000, new Set(['shop/web']));
  assert.equal(a.size(), 0, 'a container without a sample for 8 days ages out');
});

test('a pod with a start-up cpu boost: its cpu samples before the boost ended are not learnt from', () => {
  const a = new VpaAggregates(defaultModelConfig());
  a.routePods([
    { namespace: 'shop', pod: 'web-1', vpaId: 'shop/web', memoryRequests: new Map(), cpuSteadySince: T0 + 4 * MIN },
    { namespace: 'shop', pod: 'web-2', vpaId: 'shop/web', memoryRequests: new Map(), cpuSteadySince: Number.POSITIVE_INFINITY },
  ]);
  a.cpu(series('web-1', 10, 2)); // minutes 0-9: 0-3 under the boost
  a.cpu(series('web-2', 5, 2)); // still boosted (not Ready): none counts
  const state = a.byVpa.get('shop/web')!.get('app')!.state;
  assert.equal(state.totalSamplesCount, 6, 'the six steady cpu samples of web-1 only');
  assert.equal(a.boostedStartupSamples, 4 + 5);
});

test('cpuSteadySince: none for a pod without a boost record; the end once Ready is known; +Infinity before', async () => {
  const { cpuSteadySince } = await import('../../src/policy/startup-boost.ts');
  const record = '{"until":"ready+30s","containers":{"app":{"request":500,"limit":500}}}';
  assert.equal(cpuSteadySince({ metadata: { annotations: {} } }), undefined);
  assert.equal(
    cpuSteadySince({
      metadata: { annotations: { 'tailor.dev/startup-cpu-boost-record': record } },
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
    }),
    Number.POSITIVE_INFINITY,
  );
  const ready = { type: 'Ready', status: 'True', lastTransitionTime: new Date(T0).toISOString() };
  assert.equal(cpuSteadySince({ metadata: { annotations: { 'tailor.dev/startup-cpu-boost-record': record } }, status: { conditions: [ready] } }), T0 + 30_000);
  const fixed = '{"until":"90s","containers":{"app":{"request":500}}}';
  assert.equal(
    cpuSteadySince({ metadata: { annotations: { 'tailor.dev/startup-cpu-boost-record': fixed } }, status: { startTime: new Date(T0).toISOString() } }),
    T0 + 90_000,
  );
});

test('a gone pod of a boosted VPA (cpuBoostWindow): its samples are dropped from its first one for the window, unless the read began there', () => {
  const a = new VpaAggregates(defaultModelConfig());
  const window = { windowMs: 3 * MIN, startedBefore: T0 + MIN };
  a.routePods([
    { namespace: 'shop', pod: 'old-1', vpaId: 'shop/web', memoryRequests: new Map(), cpuBoostWindow: window },
    { namespace: 'shop', pod: 'old-2', vpaId: 'shop/web', memoryRequests: new Map(), cpuBoostWindow: window },
  ]);
  const later = series('old-1', 10, 2);
  a.cpu({ ...later, times: later.times.map((at) => at + 5 * MIN) }); // first sample at minute 5: started in the read
  a.cpu(series('old-2', 10, 2)); // first sample at the read's start: started before, all kept
  const state = a.byVpa.get('shop/web')!.get('app')!.state;
  assert.equal(a.boostedStartupSamples, 3, "old-1's first three minutes");
  assert.equal(state.totalSamplesCount, 7 + 10);
  a.cpu({ ...later, times: later.times.map((at) => at + 15 * MIN) }); // a later chunk of old-1: steady
  assert.equal(a.boostedStartupSamples, 3, 'the window is placed once, at the first sample');
});

test('goneBoostWindowMs: a fixed end as it is; an end at Ready gets the allowance for the unknown time to Ready', async () => {
  const { goneBoostWindowMs, GONE_POD_READY_ALLOWANCE_MS } = await import('../../src/policy/startup-boost.ts');
  assert.equal(goneBoostWindowMs({ kind: 'fixed', afterStartMs: 90_000 }), 90_000);
  assert.equal(goneBoostWindowMs({ kind: 'ready', afterMs: 30_000 }), GONE_POD_READY_ALLOWANCE_MS + 30_000);
});
