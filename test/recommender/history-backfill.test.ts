/**
 * The history read of VPAs created while the recommender runs, on a fake MetricsSource: every pod
 * of the fixture used a fixed CPU at every minute since T0, also pods already gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backfillHistory, BackfillError, type BackfillTarget } from '../../src/recommender/history-backfill.ts';
import { VpaAggregates } from '../../src/recommender/vpa-aggregates.ts';
import {
  cleanQuality,
  type Answer,
  type ContainerResources,
  type ContainerSeries,
  type MetricsSource,
  type OomEvent,
  type OwnerLink,
  type StepRange,
} from '../../src/metrics/metrics-source.ts';
import { UsageFeed } from '../../src/metrics/usage-feed.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';
import type { Strategy, UsageModel } from '../../src/model/types.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 1);
const HOUR = 60 * MIN;

interface FakePod {
  namespace: string;
  pod: string;
  cores: number;
  /** Owner chain: ReplicaSet and its Deployment. */
  rs: string;
  deployment: string;
}

/** Every pod used `cores` at every step since T0; records each call. */
class FakeSource implements MetricsSource {
  readonly calls: string[] = [];
  failCpu = false;
  constructor(readonly pods: FakePod[]) {}
  private series(namespaces: readonly string[], range: StepRange, value: (p: FakePod) => number): Answer<ContainerSeries[]> {
    const times: number[] = [];
    for (let t = Math.max(range.start, T0); t <= range.end; t += range.step) times.push(t);
    const data = this.pods
      .filter((p) => namespaces.includes(p.namespace) && times.length > 0)
      .map((p) => ({ key: { namespace: p.namespace, pod: p.pod, container: 'app' }, times, values: times.map(() => value(p)) }));
    return { data, quality: cleanQuality() };
  }
  async namespaceSizes(_at: number, _w: number, namespaces?: readonly string[]): Promise<Map<string, number>> {
    this.calls.push(`sizes ${namespaces?.join(',') ?? '*'}`);
    const sizes = new Map<string, number>();
    for (const p of this.pods) if (!namespaces || namespaces.includes(p.namespace)) sizes.set(p.namespace, (sizes.get(p.namespace) ?? 0) + 1);
    return sizes;
  }
  async cpuUsage(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
    this.calls.push(`cpu ${namespaces.join(',')} ${(range.start - T0) / MIN}..${(range.end - T0) / MIN}`);
    if (this.failCpu) throw new Error('connection refused');
    return this.series(namespaces, range, (p) => p.cores);
  }
  async memoryPeaks(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
    this.calls.push(`memory ${namespaces.join(',')}`);
    return this.series(namespaces, range, () => 100e6);
  }
  async oomKills(namespaces: readonly string[]): Promise<Answer<OomEvent[]>> {
    this.calls.push(`oom ${namespaces.join(',')}`);
    return { data: [], quality: cleanQuality() };
  }
  async owners(namespaces: readonly string[]): Promise<OwnerLink[]> {
    this.calls.push(`owners ${namespaces.join(',')}`);
    return this.pods
      .filter((p) => namespaces.includes(p.namespace))
      .flatMap((p) => [
        { namespace: p.namespace, kind: 'Pod' as const, name: p.pod, ownerKind: 'ReplicaSet', ownerName: p.rs },
        { namespace: p.namespace, kind: 'ReplicaSet' as const, name: p.rs, ownerKind: 'Deployment', ownerName: p.deployment },
      ]);
  }
  async resources(): Promise<ContainerResources[]> {
    return [];
  }
}

const pod = (namespace: string, name: string, deployment: string, cores: number): FakePod => ({
  namespace,
  pod: name,
  cores,
  rs: `${deployment}-rs`,
  deployment,
});
const target = (namespace: string, deployment: string, pods: string[]): BackfillTarget => ({
  vpaId: `${namespace}/${deployment}`,
  namespace,
  kind: 'Deployment',
  name: deployment,
  pods: pods.map((p) => ({ pod: p, memoryRequests: new Map() })),
});
const options = { historyMs: 8 * 24 * HOUR, stepMs: MIN, maxPointsPerQuery: 250_000 };
const samples = (a: VpaAggregates, id: string) => a.byVpa.get(id)?.get('app')?.state.totalSamplesCount ?? 0;

test('two new VPAs in two namespaces: one owners query and one CPU/memory/OOM set for both, only their pods (current and gone) delivered', async () => {
  const source = new FakeSource([
    pod('shop', 'web-1', 'web', 1),
    pod('shop', 'web-old', 'web', 1),
    pod('shop', 'db-1', 'db', 3),
    pod('lab', 'api-1', 'api', 0.5),
  ]);
  const a = new VpaAggregates(defaultModelConfig());
  const until = T0 + 2 * HOUR;
  const current = new Set(['shop/web-1', 'shop/db-1', 'lab/api-1']);
  const result = await backfillHistory(
    source,
    { until, namespaces: ['shop', 'lab'], vpaIds: ['shop/web', 'lab/api'] },
    [target('shop', 'web', ['web-1']), target('lab', 'api', ['api-1'])],
    current,
    a,
    options,
    silentLogger(),
  );
  // 2 h at 1 min from T0: minutes 0..120 = 121 samples per pod.
  assert.equal(samples(a, 'shop/web'), 2 * 121, 'web-1 and web-old (gone, attributed through its owner chain)');
  assert.equal(samples(a, 'lab/api'), 121);
  assert.equal(a.byVpa.has('shop/db'), false, 'db has its own VPA (or none): its samples are not delivered');
  assert.equal(a.unrouted, 0);
  assert.deepEqual({ pods: result.pods, gonePods: result.gonePods }, { pods: 3, gonePods: 1 });
  // 8 d back from minute 120: minutes -11399..120 (11,520 points), two chunks under Prometheus'
  // 11,000 points per series; each chunk one query per kind for both namespaces.
  assert.deepEqual(
    source.calls.filter((c) => !c.startsWith('sizes')),
    ['owners shop,lab', 'cpu lab,shop -11399..-400', 'memory lab,shop', 'oom lab,shop', 'cpu lab,shop -399..120', 'memory lab,shop', 'oom lab,shop'],
  );
});

test('a failed query throws BackfillError (the caller forgets what arrived and retries)', async () => {
  const source = new FakeSource([pod('shop', 'web-1', 'web', 1)]);
  source.failCpu = true;
  const a = new VpaAggregates(defaultModelConfig());
  await assert.rejects(
    backfillHistory(
      source,
      { until: T0 + HOUR, namespaces: ['shop'], vpaIds: ['shop/web'] },
      [target('shop', 'web', ['web-1'])],
      new Set(['shop/web-1']),
      a,
      options,
      silentLogger(),
    ),
    BackfillError,
  );
  a.forget('shop/web');
  a.cpu({ key: { namespace: 'shop', pod: 'web-1', container: 'app' }, times: [T0], values: [1] });
  assert.equal(a.byVpa.has('shop/web'), false, 'forgotten: its pods are not routed any more');
});

/** A model that records the times it was given, to check they are ascending. */
class TimesModel implements UsageModel {
  readonly times: number[] = [];
  addCpuSample(_c: number, at: number): void {
    this.times.push(at);
  }
  addMemorySample(): void {}
  recordOom(): void {}
  estimate() {
    return undefined;
  }
}

for (const timeOrdered of [false, true]) {
  test(`no double count${timeOrdered ? ', time order kept (time-ordered strategy)' : ''}: a VPA read at the cursor then fed incrementally has the samples of one there from the start`, async () => {
    const models: TimesModel[] = [];
    const strategy: Strategy | undefined = timeOrdered
      ? {
          name: 'times',
          description: 'records times',
          timeOrdered: true,
          newModel: () => {
            const m = new TimesModel();
            models.push(m);
            return m;
          },
        }
      : undefined;
    const source = new FakeSource([pod('shop', 'web-1', 'web', 1), pod('shop', 'web-2', 'web', 1), pod('shop', 'db-1', 'db', 3)]);
    const a = new VpaAggregates(defaultModelConfig(), strategy);
    const feed = new UsageFeed(source, { historyMs: options.historyMs, stepMs: MIN, namespaces: ['shop'] }, silentLogger());
    // Cycle 1 at T0 + 2 h: only db has a VPA; web's samples are read and dropped.
    a.routePods([{ namespace: 'shop', pod: 'db-1', vpaId: 'shop/db', memoryRequests: new Map() }]);
    await feed.sync(T0 + 2 * HOUR + MIN, a);
    const cursor = feed.cursor('shop')!;
    assert.equal(cursor, T0 + 2 * HOUR);
    // Cycle 2 at T0 + 3 h: web's VPA is new; its history up to the cursor, then the feed goes on.
    await backfillHistory(
      source,
      { until: cursor, namespaces: ['shop'], vpaIds: ['shop/web'] },
      [target('shop', 'web', ['web-1', 'web-2'])],
      new Set(['shop/web-1', 'shop/web-2', 'shop/db-1']),
      a,
      options,
      silentLogger(),
    );
    await feed.sync(T0 + 3 * HOUR + MIN, a);
    // Minutes 0..180 = 181 samples per pod: 362 for web's two pods, 181 for db's one; none twice.
    assert.equal(samples(a, 'shop/web'), 2 * 181);
    assert.equal(samples(a, 'shop/db'), 181);
    if (timeOrdered) {
      const web = a.byVpa.get('shop/web')!.get('app')!.model as TimesModel;
      assert.equal(web.times.length, 2 * 181);
      assert.ok(
        web.times.every((t, i) => i === 0 || t >= web.times[i - 1]!),
        'ascending across the read and the feed',
      );
    }
  });
}
