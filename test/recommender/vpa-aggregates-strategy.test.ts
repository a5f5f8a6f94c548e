/**
 * VpaAggregates with a strategy (`--recommender-strategy tailor`): each VPA x container gets the
 * strategy's model besides the upstream state; a time-ordered model sees the samples of all pods
 * merged in time order per chunk; OOM kills (from Prometheus and from pod status) reach it; a
 * restored state skips samples already checkpointed while the model, rebuilt, takes them all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VpaAggregates } from '../../src/recommender/vpa-aggregates.ts';
import { AggregateContainerState } from '../../src/model/aggregate-container-state.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';
import type { OomBump, ResourceEstimate, Strategy, UsageModel } from '../../src/model/types.ts';
import { tailorStrategy } from '../../src/model/tailor/tailor-strategy.ts';
import { tailorLowChurnStrategy } from '../../src/model/tailor/low-churn.ts';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;
const MiB = 1024 * 1024;
const key = (pod: string, container = 'app') => ({ namespace: 'shop', pod, container });
const series = (pod: string, values: number[], from = T0) => ({ key: key(pod), times: values.map((_, i) => from + i * MIN), values });

type Event = [kind: 'cpu' | 'memory' | 'oom', at: number, value: number, instance: string | undefined, bump?: OomBump];

/** A strategy whose models record every call in order. */
function recordingStrategy(timeOrdered: boolean): Strategy & { models: Array<{ events: Event[] }> } {
  const models: Array<{ events: Event[] }> = [];
  return {
    name: 'recording',
    description: 'records calls',
    timeOrdered,
    models,
    newModel(): UsageModel {
      const events: Event[] = [];
      models.push({ events });
      return {
        addCpuSample: (v, at, i) => void events.push(['cpu', at, v, i]),
        addMemorySample: (v, at, i) => void events.push(['memory', at, v, i]),
        recordOom: (v, at, i, bump) => void events.push(bump ? ['oom', at, v, i, bump] : ['oom', at, v, i]),
        estimate: (): ResourceEstimate | undefined => undefined,
      };
    },
  };
}

const routeWeb = (a: VpaAggregates) =>
  a.routePods([
    { namespace: 'shop', pod: 'web-1', vpaId: 'shop/web', memoryRequests: new Map([['app', 128 * MiB]]) },
    { namespace: 'shop', pod: 'web-2', vpaId: 'shop/web', memoryRequests: new Map([['app', 128 * MiB]]) },
  ]);

test('without a strategy there is no model; with one, each VPA x container has its own', () => {
  const upstream = new VpaAggregates(defaultModelConfig());
  routeWeb(upstream);
  upstream.cpu(series('web-1', [0.5]));
  assert.equal(upstream.byVpa.get('shop/web')!.get('app')!.model, undefined);

  const s = recordingStrategy(false);
  const a = new VpaAggregates(defaultModelConfig(), s);
  routeWeb(a);
  a.cpu(series('web-1', [0.5]));
  a.cpu(series('web-2', [0.7]));
  a.cpu({ key: key('web-1', 'sidecar'), times: [T0], values: [0.1] });
  assert.equal(s.models.length, 2, 'one model for app (both pods), one for sidecar');
  assert.deepEqual(s.models[0]!.events, [
    ['cpu', T0, 0.5, 'web-1'],
    ['cpu', T0, 0.7, 'web-2'],
  ]);
  assert.equal(a.byVpa.get('shop/web')!.get('app')!.state.totalSamplesCount, 2, 'the upstream state is fed too');
});

test('a time-ordered model gets one chunk of two pods merged in time order at endChunk, CPU before memory at a time', () => {
  const s = recordingStrategy(true);
  const a = new VpaAggregates(defaultModelConfig(), s);
  routeWeb(a);
  // The feed's order: web-1's whole series, then web-2's, CPU first, then memory.
  a.cpu(series('web-1', [0.1, 0.2, 0.3]));
  a.cpu(series('web-2', [1.1, 1.2, 1.3]));
  a.memory(series('web-1', [10 * MiB, 11 * MiB, 12 * MiB]));
  a.memory(series('web-2', [20 * MiB, 21 * MiB, 22 * MiB]));
  const events = s.models[0]!.events;
  assert.equal(events.length, 0, 'held until the chunk ends');
  a.endChunk();
  assert.deepEqual(
    events.map(([kind, at, v, i]) => `${(at - T0) / MIN}:${kind}:${i}:${kind === 'cpu' ? v : v / MiB}`),
    [
      '0:cpu:web-1:0.1',
      '0:cpu:web-2:1.1',
      '0:memory:web-1:10',
      '0:memory:web-2:20',
      '1:cpu:web-1:0.2',
      '1:cpu:web-2:1.2',
      '1:memory:web-1:11',
      '1:memory:web-2:21',
      '2:cpu:web-1:0.3',
      '2:cpu:web-2:1.3',
      '2:memory:web-1:12',
      '2:memory:web-2:22',
    ],
  );
  // The next chunk starts empty: nothing is delivered twice.
  a.cpu(series('web-2', [1.4], T0 + 3 * MIN));
  a.endChunk();
  assert.equal(events.length, 13);
  assert.deepEqual(events[12], ['cpu', T0 + 3 * MIN, 1.4, 'web-2']);
});

test('OOM kills reach the model: from Prometheus in the chunk merge, from pod status at once; used = max(request, last sample)', () => {
  const s = recordingStrategy(true);
  const a = new VpaAggregates(defaultModelConfig(), s);
  routeWeb(a);
  a.memory(series('web-1', [100 * MiB, 150 * MiB]));
  a.oom({ key: key('web-1'), at: T0 + MIN, count: 1 });
  a.cpu(series('web-1', [0.1, 0.2]));
  a.endChunk();
  const events = s.models[0]!.events;
  // At minute 1: CPU, then memory, then the kill (150 MiB seen > 128 MiB request).
  assert.deepEqual(
    events.slice(2).map(([k, at, v]) => [k, (at - T0) / MIN, k === 'cpu' ? v : v / MiB]),
    [
      ['cpu', 1, 0.2],
      ['memory', 1, 150],
      ['oom', 1, 150],
    ],
  );
  // From pod status (between syncs): straight to the model, sized by the pod's request when larger.
  assert.ok(a.recordOom(key('web-2'), T0 + 5 * MIN, 256 * MiB));
  assert.deepEqual(events.at(-1), ['oom', T0 + 5 * MIN, 256 * MiB, 'web-2']);
});

test('after a restore the model takes the re-read history in full while the checkpointed state skips what it has', () => {
  const s = recordingStrategy(false);
  const a = new VpaAggregates(defaultModelConfig(), s);
  const restored = new AggregateContainerState(defaultModelConfig());
  for (let i = 0; i < 5; i++) restored.addCpuSample(0.5, T0 + i * MIN, 'web-1');
  a.restore('shop/web', 'app', restored);
  routeWeb(a);
  a.cpu(series('web-1', Array(10).fill(0.5) as number[]));
  assert.equal(restored.totalSamplesCount, 10, 'minutes 0..4 were in the checkpoint: 5 + 5, not 15');
  assert.equal(s.models[0]!.events.length, 10, 'the model has no checkpoint: it takes all 10 minutes');
  // A kill read again from Prometheus at minute 2 is in the checkpoint already; the model takes it.
  assert.equal(a.recordOom(key('web-1'), T0 + 2 * MIN, undefined, true), false);
  assert.equal(s.models[0]!.events.at(-1)![0], 'oom');
});

test('with the tailor strategy the two pods of one workload give one tailor estimate', () => {
  const a = new VpaAggregates(defaultModelConfig(), tailorStrategy());
  routeWeb(a);
  // 2 h: web-1 at 0.4 core, web-2 at 0.6 core, 200 MiB each.
  const n = 120;
  a.cpu(series('web-1', Array(n).fill(0.4) as number[]));
  a.cpu(series('web-2', Array(n).fill(0.6) as number[]));
  a.memory(series('web-1', Array(n).fill(200 * MiB) as number[]));
  a.memory(series('web-2', Array(n).fill(200 * MiB) as number[]));
  a.endChunk();
  const e = a.byVpa
    .get('shop/web')!
    .get('app')!
    .model!.estimate(T0 + n * MIN)!;
  // Half the samples at 0.6 core: the p90.2 is 0.6 core (within its histogram bucket); memory 200 MiB + 12%.
  assert.ok(Math.abs(e.target.cpu - 600) / 600 < 0.05, `cpu ${e.target.cpu}`);
  assert.ok(Math.abs(e.target.memory - 224 * MiB) / (224 * MiB) < 0.01, `memory ${e.target.memory / MiB} MiB`);
  assert.equal(e.upperBound.memory, Infinity, 'memory never decreases in the first 6 hours');
});

test("a VPA's own memory settings (upstream 1.8): the upstream state takes all four, the model gets the OOM bump with each kill", () => {
  const s = recordingStrategy(true);
  const a = new VpaAggregates(defaultModelConfig(), s);
  routeWeb(a);
  a.cpu(series('web-1', [0.1]));
  const state = () => a.byVpa.get('shop/web')!.get('app')!.state;
  assert.equal(state().config, defaultModelConfig(), 'no settings yet: the shared config');
  a.configure('shop/web', {
    containerPolicies: [{ containerName: '*', oomBumpUpRatio: '3', memoryAggregationIntervalSeconds: 3600, memoryAggregationIntervalCount: 24 }],
  });
  const o = state().config.options;
  assert.deepEqual(
    [o.oomBumpUpRatio, o.oomMinBumpUpBytes, o.memoryAggregationIntervalMs, o.memoryAggregationIntervalCount],
    [3, 100 * MiB, 3_600_000, 24],
    'applied to the history already held',
  );
  a.oom({ key: key('web-1'), at: T0 + MIN, count: 1 });
  a.endChunk();
  assert.ok(a.recordOom(key('web-2'), T0 + 10 * MIN, 256 * MiB));
  const kills = s.models[0]!.events.filter((e) => e[0] === 'oom');
  assert.deepEqual(
    kills.map((e) => e[4]),
    [{ oomBumpUpRatio: 3 }, { oomBumpUpRatio: 3 }],
    'from Prometheus (through the merge) and from pod status',
  );
  // A new container of the VPA starts with them; a changed policy replaces them.
  a.cpu({ key: key('web-1', 'sidecar'), times: [T0], values: [0.1] });
  assert.equal(a.byVpa.get('shop/web')!.get('sidecar')!.state.config.options.oomBumpUpRatio, 3);
  a.configure('shop/web', { containerPolicies: [{ containerName: 'app', oomMinBumpUp: '1Gi' }] });
  assert.equal(state().config.options.oomBumpUpRatio, defaultModelConfig().options.oomBumpUpRatio);
  assert.equal(state().config.options.oomMinBumpUpBytes, 1024 * MiB);
  assert.equal(a.byVpa.get('shop/web')!.get('sidecar')!.state.config, defaultModelConfig(), 'the sidecar has no policy any more');
});

test('upstream e2e "memory requests growing with OOMs more than the default": oomBumpUpRatio 3 on a 1 GiB container that OOMs gives at least 3 GiB', () => {
  const targetAfterOom = (policy?: Parameters<VpaAggregates['configure']>[1]) => {
    const a = new VpaAggregates(defaultModelConfig(), tailorLowChurnStrategy());
    if (policy) a.configure('shop/web', policy);
    a.routePods([{ namespace: 'shop', pod: 'web-1', vpaId: 'shop/web', memoryRequests: new Map([['app', 1024 * MiB]]) }]);
    const n = 30;
    a.cpu(series('web-1', Array(n).fill(0.1) as number[]));
    a.memory(series('web-1', Array(n).fill(900 * MiB) as number[]));
    a.endChunk();
    assert.ok(a.recordOom(key('web-1'), T0 + n * MIN));
    return (
      a.byVpa
        .get('shop/web')!
        .get('app')!
        .model!.estimate(T0 + (n + 1) * MIN)!.target.memory / MiB
    );
  };
  const byDefault = targetAfterOom();
  const tripled = targetAfterOom({ containerPolicies: [{ containerName: '*', oomBumpUpRatio: '3' }] });
  assert.ok(tripled >= 3072, `ratio 3: ${tripled} MiB`);
  assert.ok(byDefault < 3072, `the default: ${byDefault} MiB`);
});
