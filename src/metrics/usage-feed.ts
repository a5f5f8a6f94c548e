/**
 * Feeds usage from a {@link MetricsSource} into a sink, batch by batch: the history bootstrap
 * (default 8 days) the first time a namespace is seen, then, each cycle, only the steps after the
 * last one ingested (a cursor per namespace). A failed batch is logged and counted, its cursor
 * stays where it was, and the next cycle fetches it again; other batches go on.
 *
 * CPU is a `rate` over 4 scrape intervals (at least the step): the interval is given
 * (`scrapeIntervalMs`) or read once from the data's timestamps, in the smallest namespace
 * (decision 0175); while it is unknown the window is the step.
 *
 * Memory: nothing per container is kept here (the cursor is per namespace); each chunk's series
 * go to the sink and are dropped.
 */
import pLimit from 'p-limit';
import { moduleLogger, type Logger } from '../observability/logger.ts';
import { RepeatedWarnings } from '../observability/repeated-warnings.ts';
import type { ContainerKey, ContainerSeries, DataQuality, MetricsSource, OomEvent, StepRange } from './metrics-source.ts';
import { addQuality, cleanQuality } from './metrics-source.ts';
import { budgetExhausted, effectivePointsPerQuery, minimumBudgetBytes, pointsForHeadroom, type MemoryState } from './memory-budget.ts';
import { batchNamespaces } from './namespace-batches.ts';
import { alignedRange, pointsIn, pointsPerChunk, splitRange } from './range-plan.ts';
import type { SourceMetrics } from './source-metrics.ts';
import { DETECTION_WINDOW_MS, rateWindowMs } from './scrape-interval.ts';

/** Receives usage; called once per container series per chunk. */
export interface UsageSink {
  cpu(series: ContainerSeries): void;
  memory(series: ContainerSeries): void;
  oom(event: OomEvent): void;
  /** Optional: called after each chunk's series and events were delivered (one time range). */
  endChunk?(): void;
}

export interface FeedOptions {
  /** History fetched the first time a namespace is seen (default 8 days). */
  historyMs?: number;
  /** Evaluation step (default 60 s). */
  stepMs?: number;
  /** The newest step fetched ends this long before now, so late scrapes are in (default one step). */
  lagMs?: number;
  /** Points (series x steps) per answer at most (default 250,000, about 8 MB of JSON). */
  maxPointsPerQuery?: number;
  /** Batches fetched at the same time (default 2). */
  concurrency?: number;
  /** A bootstrap series with fewer samples is reported as sparse (default 30). */
  minSamples?: number;
  /** Only these namespaces (default: every namespace with data). */
  namespaces?: readonly string[];
  /** How often the CPU counter is scraped (ms); default: read from the data. */
  scrapeIntervalMs?: number;
  /** Memory the process may use (bytes): lowers the points per answer to fit (memory-budget.ts). */
  memoryBudgetBytes?: number;
  /** What one new series adds to the model (bytes), for the budget's headroom (default 0). */
  modelBytesPerSeries?: number;
  /** The process's resident set (bytes), read at each sync under a budget (default: this process's). */
  residentBytes?: () => number;
}

/** What to do when the scrape interval cannot be read: the option of `tailor recommend`, `tailor audit` and `tailor run`. */
export const SCRAPE_INTERVAL_ADVICE = '--scrape-interval, or TAILOR_SCRAPE_INTERVAL for tailor run, sets it, e.g. --scrape-interval 30s';

export const FEED_DEFAULTS = {
  historyMs: 8 * 24 * 3600_000,
  stepMs: 60_000,
  maxPointsPerQuery: 250_000,
  concurrency: 2,
  minSamples: 30,
} as const;

/** What one sync did. */
export interface SyncReport {
  /** The last evaluation time fetched. */
  end: number;
  namespaces: number;
  batches: number;
  chunks: number;
  cpuSamples: number;
  memorySamples: number;
  oomEvents: number;
  /** Namespaces whose fetch failed this cycle (to be retried). */
  failed: string[];
  /** Bootstrap series with too few samples to trust. */
  sparse: ContainerKey[];
  /** Set when the cycle could not even discover the namespaces (the source is down). */
  error?: unknown;
  /** The scrape interval used (ms): given, or read from the data; undefined while unknown. */
  scrapeIntervalMs?: number;
  /** The CPU rate window used (ms). */
  rateWindowMs: number;
  quality: DataQuality;
}

export class UsageFeed {
  private readonly cursors = new Map<string, number>();
  private readonly opts: Required<
    Omit<FeedOptions, 'namespaces' | 'lagMs' | 'scrapeIntervalMs' | 'memoryBudgetBytes' | 'modelBytesPerSeries' | 'residentBytes'>
  > & { lagMs: number; namespaces?: readonly string[] };
  /** Given, or read from the data once. */
  private scrapeMs: number | undefined;
  private readonly scrapeGiven: boolean;
  private sizedPoints: number | undefined;
  private readonly log: Logger;
  /** Warnings that would come every cycle while their cause lasts: once per cause, then rate-limited. */
  private readonly repeated: RepeatedWarnings;
  /** The batch failures of the current sync (causes of the others are forgotten at its end). */
  private failedCauses = new Set<string>();

  constructor(
    private readonly source: MetricsSource,
    private readonly options: FeedOptions,
    logger: Logger,
    private readonly metrics?: SourceMetrics,
  ) {
    const stepMs = options.stepMs ?? FEED_DEFAULTS.stepMs;
    const concurrency = options.concurrency ?? FEED_DEFAULTS.concurrency;
    const maxPointsPerQuery = effectivePointsPerQuery(options.maxPointsPerQuery ?? FEED_DEFAULTS.maxPointsPerQuery, concurrency, options.memoryBudgetBytes);
    this.opts = { ...FEED_DEFAULTS, ...options, stepMs, lagMs: options.lagMs ?? stepMs, maxPointsPerQuery };
    this.scrapeMs = options.scrapeIntervalMs;
    this.scrapeGiven = options.scrapeIntervalMs !== undefined;
    this.log = moduleLogger(logger, 'usage-feed');
    this.repeated = new RepeatedWarnings(this.log);
  }

  /** The scrape interval in use (ms): given, or read from the data; undefined while unknown. */
  get scrapeIntervalMs(): number | undefined {
    return this.scrapeMs;
  }

  /**
   * Points per answer at most: `maxPointsPerQuery`, lowered to what the memory budget allows; under
   * a budget, sized again at each sync from what the process holds then (the last sizing).
   */
  get pointsPerQuery(): number {
    return this.sizedPoints ?? this.opts.maxPointsPerQuery;
  }

  /**
   * Under a budget: points per answer from the headroom left now (resident set, plus what the new
   * series will add to the model), logged when it changes and warned when the budget is used up.
   */
  private sizeAnswers(sizes: ReadonlyMap<string, number>): number {
    const budgetBytes = this.options.memoryBudgetBytes;
    if (budgetBytes === undefined) return this.opts.maxPointsPerQuery;
    let newSeries = 0;
    for (const [ns, series] of sizes) if (!this.cursors.has(ns)) newSeries += series;
    const state: MemoryState = {
      budgetBytes,
      residentBytes: (this.options.residentBytes ?? (() => process.memoryUsage.rss()))(),
      growthBytes: newSeries * (this.options.modelBytesPerSeries ?? 0),
      concurrency: this.opts.concurrency,
    };
    const points = Math.min(this.opts.maxPointsPerQuery, pointsForHeadroom(state));
    if (budgetExhausted(state)) {
      const minimum = minimumBudgetBytes(state);
      const mib = (bytes: number) => `${Math.ceil(bytes / 2 ** 20)}Mi`;
      this.log.warn(
        { ...state, minimumBudgetBytes: minimum, pointsPerQuery: points },
        `the memory budget ${mib(budgetBytes)} is below what this read needs: at least ${mib(minimum)} (the process holds ${mib(state.residentBytes)}, the model will grow by ${mib(state.growthBytes)}, and the smallest answers need ${mib(minimum - state.residentBytes - state.growthBytes)}); the process may exceed the budget: raise --memory-budget (or the container's memory limit) to at least ${mib(minimum)}`,
      );
    } else if (points !== this.sizedPoints) {
      this.log.info({ ...state, pointsPerQuery: points }, 'history answers sized from the memory left in the budget');
    }
    this.sizedPoints = points;
    return points;
  }

  /** The last evaluation time ingested for a namespace, if any. */
  cursor(namespace: string): number | undefined {
    return this.cursors.get(namespace);
  }

  /**
   * Fetches everything new up to `now` (ms) into the sink. Never throws for a failed batch.
   * `onProgress(done, total)` is called after each chunk (for a progress bar).
   */
  async sync(now: number, sink: UsageSink, onProgress?: (done: number, total: number) => void): Promise<SyncReport> {
    const { stepMs, historyMs } = this.opts;
    const end = Math.floor((now - this.opts.lagMs) / stepMs) * stepMs;
    const report: SyncReport = {
      end,
      namespaces: 0,
      batches: 0,
      chunks: 0,
      cpuSamples: 0,
      memorySamples: 0,
      oomEvents: 0,
      failed: [],
      sparse: [],
      quality: cleanQuality(),
      rateWindowMs: stepMs,
    };
    // Discovery looks back to the oldest cursor (one step in the steady state), or the whole
    // history on the first cycle; a new namespace with current data shows up either way.
    const oldest = this.cursors.size > 0 ? Math.min(...this.cursors.values()) : end - historyMs;
    const windowMs = Math.max(stepMs, end - Math.max(oldest, end - historyMs));
    let sizes: Map<string, number>;
    try {
      sizes = await this.source.namespaceSizes(end, windowMs, this.opts.namespaces);
    } catch (err) {
      // Prometheus down or slow: nothing is fetched, every cursor stays, the next cycle retries.
      this.metrics?.failedBatches.inc();
      report.failed.push(...(this.opts.namespaces ?? [...this.cursors.keys()]));
      report.error = err;
      this.repeated.say(
        `discovery ${err instanceof Error ? err.message : String(err)}`,
        now,
        { err },
        'usage discovery failed; nothing fetched this cycle, retried next cycle',
        'error',
      );
      return report;
    }
    this.repeated.retain((cause) => !cause.startsWith('discovery '));
    report.namespaces = sizes.size;
    const maxPointsPerQuery = this.sizeAnswers(sizes);
    if (this.scrapeMs === undefined) this.scrapeMs = await this.detectScrapeInterval(sizes, end);
    report.scrapeIntervalMs = this.scrapeMs;
    report.rateWindowMs = rateWindowMs(stepMs, this.scrapeMs);
    // A known namespace without data since its cursor has nothing to fetch up to `end`.
    for (const ns of this.cursors.keys()) if (!sizes.has(ns)) this.cursors.set(ns, end);

    // Namespaces sharing a start (all of them, in the steady state) are batched together.
    const byStart = new Map<number, Map<string, number>>();
    for (const [ns, size] of sizes) {
      const from = this.cursors.get(ns) ?? end - historyMs;
      if (!alignedRange(from, end, stepMs)) continue;
      if (!byStart.has(from)) byStart.set(from, new Map());
      byStart.get(from)!.set(ns, size);
    }
    this.failedCauses = new Set();
    const limit = pLimit(this.opts.concurrency);
    const plans: Array<{ namespaces: string[]; chunks: StepRange[]; bootstrap: boolean }> = [];
    for (const [from, group] of byStart) {
      const range = alignedRange(from, end, stepMs)!;
      const bootstrap = !this.cursors.has([...group.keys()][0]!);
      for (const batch of batchNamespaces(group, pointsIn(range), maxPointsPerQuery)) {
        plans.push({ namespaces: batch.namespaces, chunks: splitRange(range, pointsPerChunk(batch.series, maxPointsPerQuery)), bootstrap });
      }
    }
    report.batches = plans.length;
    const total = plans.reduce((n, p) => n + p.chunks.length, 0);
    let done = 0;
    const progress = () => onProgress?.(++done, total);
    onProgress?.(0, total);
    await Promise.all(plans.map((p) => limit(() => this.fetchBatch(p.namespaces, p.chunks, p.bootstrap, sink, report, progress, report.rateWindowMs))));
    this.repeated.retain((cause) => !cause.startsWith('batch ') || this.failedCauses.has(cause));
    this.metrics?.recordQuality(report.quality);
    this.redetectIfCpuEmpty(report);
    if (report.sparse.length > 0) this.metrics?.sparseSeries.inc(report.sparse.length);
    // A sync that read a history (the bootstrap, a new namespace) is worth a line; the routine
    // incremental one each cycle is a debug line.
    const history = plans.some((p) => p.bootstrap);
    this.log[history ? 'info' : 'debug'](
      {
        end: new Date(end).toISOString(),
        namespaces: report.namespaces,
        batches: report.batches,
        chunks: report.chunks,
        cpuSamples: report.cpuSamples,
        memorySamples: report.memorySamples,
        oomEvents: report.oomEvents,
        failed: report.failed.length,
        sparse: report.sparse.length,
        nonFinite: report.quality.nonFinite,
        gapSteps: report.quality.gapSteps,
      },
      history ? 'usage history read' : 'usage sync done',
    );
    return report;
  }

  /**
   * Memory came but no CPU at all: the detected interval is likely too short for the data (read
   * early from a few samples, or the exporter's own timestamps spread out since, as cAdvisor's do
   * on a busy node), so the rate window holds one sample per series. The interval is read again
   * next cycle (one small query). A given interval is never second-guessed.
   */
  private redetectIfCpuEmpty(report: SyncReport): void {
    if (this.scrapeGiven || this.scrapeMs === undefined || report.cpuSamples > 0 || report.memorySamples === 0) return;
    this.log.warn(
      { scrapeIntervalMs: this.scrapeMs, rateWindowMs: report.rateWindowMs, memorySamples: report.memorySamples },
      `no CPU sample in a ${report.rateWindowMs / 1000}s rate window while memory came: the scrape interval is read again next cycle`,
    );
    this.scrapeMs = undefined;
  }

  /**
   * The scrape interval read from the raw samples of the namespace with the fewest series (a
   * small answer); undefined (asked again next cycle) when no series there has two samples yet.
   */
  private async detectScrapeInterval(sizes: ReadonlyMap<string, number>, at: number): Promise<number | undefined> {
    if (!this.source.scrapeInterval || sizes.size === 0) return undefined;
    const [namespace] = [...sizes].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))[0]!;
    const stepMs = this.opts.stepMs;
    try {
      const interval = await this.source.scrapeInterval([namespace], at, DETECTION_WINDOW_MS);
      if (interval === undefined) {
        this.repeated.say(
          'scrape interval unknown',
          at,
          { namespace, stepMs },
          `could not tell the scrape interval: no CPU series of namespace ${namespace} has two samples in the last hour; CPU is read over one step (${stepMs / 1000}s) until it can, and comes out empty if the data is sparser than that (${SCRAPE_INTERVAL_ADVICE})`,
        );
        return undefined;
      }
      this.repeated.retain((cause) => !cause.startsWith('scrape interval'));
      if (rateWindowMs(stepMs, interval) > stepMs) {
        this.log.info(
          { scrapeIntervalMs: interval, rateWindowMs: rateWindowMs(stepMs, interval) },
          'the data is scraped less often than the step: CPU is read over 4 scrape intervals',
        );
      }
      return interval;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      this.repeated.say(`scrape interval error ${error}`, at, { error }, `could not read the scrape interval; retried next cycle (${SCRAPE_INTERVAL_ADVICE})`);
      return undefined;
    }
  }

  private async fetchBatch(
    namespaces: string[],
    chunks: StepRange[],
    bootstrap: boolean,
    sink: UsageSink,
    report: SyncReport,
    progress: () => void,
    rateWindow: number,
  ): Promise<void> {
    const counts = bootstrap ? new Map<string, { key: ContainerKey; n: number }>() : undefined;
    for (const chunk of chunks) {
      try {
        const [cpu, memory, oom] = await Promise.all([
          this.source.cpuUsage(namespaces, chunk, rateWindow),
          this.source.memoryPeaks(namespaces, chunk),
          this.source.oomKills(namespaces, chunk),
        ]);
        report.chunks++;
        for (const s of cpu.data) {
          sink.cpu(s);
          report.cpuSamples += s.times.length;
          if (counts) {
            const id = `${s.key.namespace}/${s.key.pod}/${s.key.container}`;
            const c = counts.get(id);
            if (c) c.n += s.times.length;
            else counts.set(id, { key: s.key, n: s.times.length });
          }
        }
        for (const s of memory.data) {
          sink.memory(s);
          report.memorySamples += s.times.length;
        }
        for (const e of oom.data) sink.oom(e);
        sink.endChunk?.();
        report.oomEvents += oom.data.length;
        for (const q of [cpu.quality, memory.quality, oom.quality]) addQuality(report.quality, q);
        this.metrics?.samples.inc(
          { resource: 'cpu' },
          cpu.data.reduce((n, s) => n + s.times.length, 0),
        );
        this.metrics?.samples.inc(
          { resource: 'memory' },
          memory.data.reduce((n, s) => n + s.times.length, 0),
        );
        for (const ns of namespaces) this.cursors.set(ns, chunk.end);
        progress();
      } catch (err) {
        this.metrics?.failedBatches.inc();
        report.failed.push(...namespaces);
        const cause = `batch ${namespaces.join(',')}: ${err instanceof Error ? err.message : String(err)}`;
        this.failedCauses.add(cause);
        this.repeated.say(
          cause,
          chunk.end,
          { err, namespaces, from: new Date(chunk.start).toISOString(), to: new Date(chunk.end).toISOString() },
          'usage fetch failed for a namespace batch; it is retried next cycle',
          'error',
        );
        return;
      }
    }
    if (counts) for (const { key, n } of counts.values()) if (n < this.opts.minSamples) report.sparse.push(key);
  }
}
