/**
 * The feed's bookkeeping with an in-memory MetricsSource: cursors per namespace, retries of a
 * failed batch on the next cycle without double-feeding, sparse series, progress.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger, silentLogger } from '../../src/observability/logger.ts';
import type { Answer, ContainerSeries, MetricsSource, OomEvent, StepRange } from '../../src/metrics/metrics-source.ts';
import { cleanQuality } from '../../src/metrics/metrics-source.ts';
import { UsageFeed, type UsageSink } from '../../src/metrics/usage-feed.ts';
import { PrometheusUnreachableError } from '../../src/metrics/metrics-errors.ts';

const MIN = 60_000;

/** Every namespace has one container using 1 core at every step; `down` namespaces fail. */
class FakeSource implements MetricsSource {
  down = new Set<string>();
  unreachable = false;
  calls: Array<{ namespaces: readonly string[]; range: StepRange }> = [];
  constructor(public namespaces: string[]) {}
  windows: number[] = [];
  async namespaceSizes(_at: number, windowMs: number): Promise<Map<string, number>> {
    this.windows.push(windowMs);
    if (this.unreachable) throw new PrometheusUnreachableError('connection refused', 'q');
    return new Map(this.namespaces.map((n) => [n, 1]));
  }
  async cpuUsage(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
    this.calls.push({ namespaces, range });
    if (namespaces.some((n) => this.down.has(n))) throw new PrometheusUnreachableError('down', 'q');
    const times: number[] = [];
    for (let t = range.start; t <= range.end; t += range.step) times.push(t);
    return {
      data: namespaces.map((namespace) => ({ key: { namespace, pod: 'p', container: 'c' }, times, values: times.map(() => 1) })),
      quality: cleanQuality(),
    };
  }
  async memoryPeaks(_namespaces: readonly string[], _range: StepRange): Promise<Answer<ContainerSeries[]>> {
    return { data: [], quality: cleanQuality() };
  }
  async oomKills(): Promise<Answer<OomEvent[]>> {
    return { data: [], quality: cleanQuality() };
  }
  async owners() {
    return [];
  }
  async resources() {
    return [];
  }
}

function recorder(): UsageSink & { times: Map<string, number[]> } {
  const times = new Map<string, number[]>();
  return {
    times,
    cpu: (s) => times.set(s.key.namespace, [...(times.get(s.key.namespace) ?? []), ...s.times]),
    memory: () => {},
    oom: () => {},
  };
}

test('bootstrap fetches the history, then each cycle only the steps after the cursor', async () => {
  const source = new FakeSource(['a', 'b']);
  const feed = new UsageFeed(source, { historyMs: 60 * MIN, stepMs: MIN, lagMs: MIN }, silentLogger());
  const sink = recorder();
  const boot = await feed.sync(1000 * MIN + 30_000, sink); // end = floor((now - lag)/step)*step = 999 min
  assert.equal(boot.end, 999 * MIN);
  assert.deepEqual(
    sink.times.get('a'),
    Array.from({ length: 60 }, (_, i) => (940 + i) * MIN),
  );
  assert.deepEqual(boot.sparse, []);
  const next = await feed.sync(1005 * MIN, sink);
  assert.equal(next.cpuSamples, 2 * 5);
  assert.deepEqual(
    sink.times.get('a')!.slice(60),
    [1000, 1001, 1002, 1003, 1004].map((m) => m * MIN),
  );
  assert.equal(source.calls.at(-1)!.namespaces.length, 2, 'both namespaces in one batch');
  const idle = await feed.sync(1005 * MIN + 10_000, sink);
  assert.equal(idle.batches, 0, 'nothing new, no query');
});

test('a failed batch keeps its cursor and is fetched again next cycle, without double feeding', async () => {
  const source = new FakeSource(['a', 'b']);
  const feed = new UsageFeed(source, { historyMs: 10 * MIN, stepMs: MIN, lagMs: 0, maxPointsPerQuery: 10 }, silentLogger());
  const sink = recorder();
  source.down.add('b');
  const first = await feed.sync(100 * MIN, sink);
  assert.deepEqual(first.failed, ['b']);
  assert.equal(feed.cursor('a'), 100 * MIN);
  assert.equal(feed.cursor('b'), undefined);
  source.down.clear();
  const second = await feed.sync(101 * MIN, sink);
  assert.deepEqual(second.failed, []);
  // b bootstraps now: the 10 steps after 101 - 10 minutes; a continues after its cursor.
  assert.deepEqual(
    sink.times.get('b'),
    Array.from({ length: 10 }, (_, i) => (92 + i) * MIN),
  );
  assert.deepEqual(
    sink.times.get('a'),
    Array.from({ length: 11 }, (_, i) => (91 + i) * MIN),
  );
});

test('bootstrap series with too few samples are reported as sparse; progress counts chunks', async () => {
  const source = new FakeSource(['a']);
  const feed = new UsageFeed(source, { historyMs: 5 * MIN, stepMs: MIN, lagMs: 0, minSamples: 30, maxPointsPerQuery: 2 }, silentLogger());
  const progress: Array<[number, number]> = [];
  const report = await feed.sync(100 * MIN, recorder(), (done, total) => progress.push([done, total]));
  assert.deepEqual(report.sparse, [{ namespace: 'a', pod: 'p', container: 'c' }]);
  assert.equal(report.chunks, 3); // 5 points, 2 per chunk
  assert.deepEqual(progress, [
    [0, 3],
    [1, 3],
    [2, 3],
    [3, 3],
  ]);
});

test('a source that is down gives a report with the error, not an exception; the next cycle catches up', async () => {
  const source = new FakeSource(['a']);
  const feed = new UsageFeed(source, { historyMs: 10 * MIN, stepMs: MIN, lagMs: 0 }, silentLogger());
  const sink = recorder();
  await feed.sync(100 * MIN, sink);
  source.unreachable = true;
  const down = await feed.sync(103 * MIN, sink);
  assert.ok(down.error instanceof PrometheusUnreachableError);
  assert.deepEqual(down.failed, ['a']);
  assert.equal(feed.cursor('a'), 100 * MIN);
  source.unreachable = false;
  const back = await feed.sync(104 * MIN, sink);
  assert.equal(back.cpuSamples, 4);
  assert.deepEqual(
    sink.times.get('a')!.slice(-4),
    [101, 102, 103, 104].map((m) => m * MIN),
  );
});

test('a namespace gone quiet has its cursor advanced, so discovery keeps looking back one step only', async () => {
  const source = new FakeSource(['a', 'b']);
  const feed = new UsageFeed(source, { historyMs: 10 * MIN, stepMs: MIN, lagMs: 0 }, silentLogger());
  await feed.sync(100 * MIN, recorder());
  source.namespaces = ['a'];
  await feed.sync(101 * MIN, recorder());
  await feed.sync(102 * MIN, recorder());
  assert.deepEqual(source.windows, [10 * MIN, MIN, MIN]);
  assert.equal(feed.cursor('b'), 102 * MIN);
});

test('a memory budget sizes the answers: no query asks for more points than the budget allows', async () => {
  // 200 namespaces of one container, 8 days at 1 min: 2.3 M points to read.
  const namespaces = Array.from({ length: 200 }, (_, i) => `ns-${String(i).padStart(3, '0')}`);
  const budget = 128 * 2 ** 20; // 77,672 points per answer (memory-budget.ts)
  const counts: number[] = [];
  for (const memoryBudgetBytes of [undefined, budget]) {
    const source = new FakeSource(namespaces);
    const feed = new UsageFeed(
      source,
      { historyMs: 8 * 24 * 60 * MIN, stepMs: MIN, lagMs: 0, ...(memoryBudgetBytes ? { memoryBudgetBytes } : {}) },
      silentLogger(),
    );
    await feed.sync(8 * 24 * 60 * MIN, recorder());
    const largest = Math.max(...source.calls.map((c) => c.namespaces.length * ((c.range.end - c.range.start) / c.range.step + 1)));
    assert.ok(largest <= feed.pointsPerQuery, `${largest} points in one answer, ${feed.pointsPerQuery} allowed`);
    counts.push(source.calls.length);
  }
  assert.equal(counts[0]! < counts[1]!, true, `the budget asks more, smaller queries: ${counts.join(' vs ')}`);
});

test('no CPU while memory comes: the scrape interval is read again, and the wider window brings CPU', async () => {
  // Data 15 s apart (cAdvisor's own timestamps), first read as 5 s from the few samples there were.
  const SEC = 1000;
  class SparseCpu extends FakeSource {
    detections: number[] = [5 * SEC, 15 * SEC];
    detected = 0;
    async scrapeInterval(): Promise<number | undefined> {
      return this.detections[Math.min(this.detected++, this.detections.length - 1)];
    }
    override async cpuUsage(namespaces: readonly string[], range: StepRange, rateWindowMs = range.step): Promise<Answer<ContainerSeries[]>> {
      // rate() needs two samples 15 s apart inside its window: sure only from 30 s.
      return rateWindowMs >= 30 * SEC ? super.cpuUsage(namespaces, range) : { data: [], quality: cleanQuality() };
    }
    override async memoryPeaks(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
      return {
        data: namespaces.map((namespace) => ({ key: { namespace, pod: 'p', container: 'c' }, times: [range.end], values: [1e6] })),
        quality: cleanQuality(),
      };
    }
  }
  const source = new SparseCpu(['a']);
  const feed = new UsageFeed(source, { historyMs: 10 * MIN, stepMs: 10 * SEC }, silentLogger());
  const sink = recorder();
  const first = await feed.sync(100 * MIN, sink);
  assert.equal(first.rateWindowMs, 20 * SEC);
  assert.equal(first.cpuSamples, 0);
  const second = await feed.sync(100 * MIN + 10 * SEC, sink);
  assert.equal(source.detected, 2, 'read again after a cycle with memory and no CPU');
  assert.equal(second.rateWindowMs, 60 * SEC);
  assert.equal(second.cpuSamples, 1);
  await feed.sync(100 * MIN + 20 * SEC, sink);
  assert.equal(source.detected, 2, 'not read again while CPU comes');
});

test('a given scrape interval is never read from the data, even when CPU comes out empty', async () => {
  class NoCpu extends FakeSource {
    detected = 0;
    async scrapeInterval(): Promise<number | undefined> {
      this.detected++;
      return 60_000;
    }
    override async cpuUsage(): Promise<Answer<ContainerSeries[]>> {
      return { data: [], quality: cleanQuality() };
    }
    override async memoryPeaks(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>> {
      return {
        data: namespaces.map((namespace) => ({ key: { namespace, pod: 'p', container: 'c' }, times: [range.end], values: [1e6] })),
        quality: cleanQuality(),
      };
    }
  }
  const source = new NoCpu(['a']);
  const feed = new UsageFeed(source, { historyMs: 10 * MIN, stepMs: MIN, scrapeIntervalMs: 15_000 }, silentLogger());
  await feed.sync(100 * MIN, recorder());
  await feed.sync(101 * MIN, recorder());
  assert.equal(source.detected, 0);
  assert.equal(feed.scrapeIntervalMs, 15_000);
});

test('under a budget each sync sizes its answers from the resident set then, and the model the new series will add', async () => {
  const namespaces = Array.from({ length: 200 }, (_, i) => `ns-${String(i).padStart(3, '0')}`);
  const MiB = 2 ** 20;
  let resident = 100 * MiB;
  const source = new FakeSource(namespaces);
  const feed = new UsageFeed(
    source,
    { historyMs: 8 * 24 * 60 * MIN, stepMs: MIN, lagMs: 0, memoryBudgetBytes: 256 * MiB, modelBytesPerSeries: 100 * 1024, residentBytes: () => resident },
    silentLogger(),
  );
  await feed.sync(8 * 24 * 60 * MIN, recorder());
  // Headroom (256 - 100 - 200 x 100 KiB) MiB x 0.4 / (2 x 3 x 72 B) = 132,498 points, under the
  // fixed quarter of 256 MiB (155,344 points).
  const first = feed.pointsPerQuery;
  assert.equal(first, Math.floor((((256 - 100) * MiB - 200 * 100 * 1024) * 0.4) / (2 * 3 * 72)));
  const largest = Math.max(...source.calls.map((c) => c.namespaces.length * ((c.range.end - c.range.start) / c.range.step + 1)));
  assert.ok(largest <= first, `${largest} points in one answer, ${first} allowed`);
  resident = 220 * MiB; // the process grew: the next read gets smaller answers
  await feed.sync(8 * 24 * 60 * MIN + 10 * MIN, recorder());
  assert.equal(feed.pointsPerQuery, Math.floor((36 * MiB * 0.4) / (2 * 3 * 72)));
  assert.ok(feed.pointsPerQuery < first, `${feed.pointsPerQuery} after growing, ${first} before`);
});

test('a budget below what the read needs is said with the minimum to raise it to', async () => {
  const MiB = 2 ** 20;
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const feed = new UsageFeed(
    new FakeSource(['a', 'b']),
    { historyMs: 60 * MIN, stepMs: MIN, lagMs: 0, memoryBudgetBytes: 160 * MiB, modelBytesPerSeries: MiB, residentBytes: () => 150 * MiB },
    createLogger({ level: 'warn', destination }),
  );
  await feed.sync(60 * MIN, recorder());
  const warnings = text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; minimumBudgetBytes?: number });
  // 150 MiB resident + 2 series x 1 MiB of model + 11,000 points x 2 x 3 queries x 72 B / 0.4 (11.3 MiB) = 163.3 MiB.
  const minimum = Math.ceil(152 * MiB + (11_000 * 6 * 72) / 0.4);
  assert.equal(warnings.length, 1, text);
  assert.equal(warnings[0]!.minimumBudgetBytes, minimum);
  assert.match(
    warnings[0]!.msg,
    /^the memory budget 160Mi is below what this read needs: at least 164Mi \(the process holds 150Mi, the model will grow by 2Mi, and the smallest answers need 12Mi\).*raise --memory-budget \(or the container's memory limit\) to at least 164Mi$/,
  );
});

/** JSON lines of a logger at debug, for tests that read what the feed says. */
function lines(): { logger: ReturnType<typeof createLogger>; read: () => { level: number; msg: string; repeats?: number }[] } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    logger: createLogger({ level: 'debug', destination }),
    read: () =>
      text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { level: number; msg: string; repeats?: number }),
  };
}

test('a scrape interval the data cannot tell: warned once with the option that sets it, then debug lines; the routine sync is a debug line', async () => {
  const { logger, read } = lines();
  const source = Object.assign(new FakeSource(['a']), { scrapeInterval: async () => undefined });
  const feed = new UsageFeed(source, { historyMs: 10 * MIN, stepMs: MIN, lagMs: 0 }, logger);
  for (let m = 100; m < 106; m++) await feed.sync(m * MIN, recorder());
  const all = read();
  const scrape = all.filter((l) => l.msg.startsWith('could not tell the scrape interval'));
  assert.equal(scrape.length, 6);
  assert.deepEqual(
    scrape.map((l) => l.level),
    [40, 20, 20, 20, 20, 20],
  );
  // The advice names a real option of `tailor run` and `tailor recommend`.
  assert.match(scrape[0]!.msg, /\(--scrape-interval, or TAILOR_SCRAPE_INTERVAL for tailor run, sets it, e\.g\. --scrape-interval 30s\)$/);
  const syncs = all.filter((l) => l.msg === 'usage history read' || l.msg === 'usage sync done');
  assert.deepEqual(
    syncs.map((l) => [l.level, l.msg]),
    [[30, 'usage history read'], ...Array.from({ length: 5 }, () => [20, 'usage sync done'])],
  );
});

test('a Prometheus that stays down is one error line, not one a cycle', async () => {
  const { logger, read } = lines();
  const source = new FakeSource(['a']);
  source.unreachable = true;
  const feed = new UsageFeed(source, { historyMs: 10 * MIN, stepMs: MIN, lagMs: 0 }, logger);
  for (let m = 100; m < 105; m++) await feed.sync(m * MIN, recorder());
  const errors = read().filter((l) => l.level === 50);
  assert.deepEqual(
    errors.map((l) => l.msg),
    ['usage discovery failed; nothing fetched this cycle, retried next cycle'],
  );
});
