/**
 * The Tailor side of `npm run bench:prometheus`, run in its own process so its memory is measured
 * alone: bootstraps the history of every container from the Prometheus at argv[2] into one `vpa`
 * model per container, then runs one incremental cycle, and prints the figures as one JSON line.
 * Usage: node --expose-gc --import tsx bench/prometheus-tailor.ts URL END_MS STEP_MS [STRATEGY] [BUDGET_BYTES]
 * (STRATEGY vpa or tailor, default vpa; BUDGET_BYTES the memory budget the answers are sized by).
 */
import inspector from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { limitHeapGrowth } from '../src/observability/heap-growth.ts';
import { silentLogger } from '../src/observability/logger.ts';
import { queryConfig } from '../src/metrics/metric-names.ts';
import { PrometheusQueryClient } from '../src/metrics/query-client.ts';
import { PrometheusMetricsSource } from '../src/metrics/prometheus-source.ts';
import { UsageFeed, type UsageSink } from '../src/metrics/usage-feed.ts';
import { modelBytes } from '../src/recommender/model-bytes.ts';
import { OwnerIndex } from '../src/metrics/owner-resolution.ts';
import { createStrategyRegistry } from '../src/model/builtin-strategies.ts';
import { WorkloadUsage } from '../src/report/workload-usage.ts';

const [url, endText, stepText, strategyName = 'vpa', budgetText] = process.argv.slice(2);
const memoryBudgetBytes = budgetText ? Number(budgetText) : undefined;
const end = Number(endText);
const stepMs = Number(stepText);
const gc = (globalThis as { gc?: () => void }).gc;
if (!url || !gc) throw new Error('usage: node --expose-gc --import tsx bench/prometheus-tailor.ts URL END_MS STEP_MS');

/** Memory after pending callbacks have run and two full collections. */
async function settle(): Promise<{ rss: number; heap: number }> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc!();
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.arrayBuffers };
}

// As the recommender and `tailor recommend` do before reading history (decision 0265).
limitHeapGrowth();
const client = new PrometheusQueryClient({ url, timeoutMs: 120_000 }, silentLogger());
const source = new PrometheusMetricsSource(client, queryConfig(), silentLogger());
const feed = new UsageFeed(
  source,
  { historyMs: 8 * 24 * 3600_000, stepMs, lagMs: 0, ...(memoryBudgetBytes ? { memoryBudgetBytes, modelBytesPerSeries: modelBytes(strategyName, 1) } : {}) },
  silentLogger(),
);
const usage = new WorkloadUsage(createStrategyRegistry().get(strategyName), new OwnerIndex([]));
/** The largest CPU sample (cores): the benches' curves stay within 2.25; far more means counter resets. */
let cpuMax = 0;
const sink: UsageSink = {
  cpu: (s) => {
    for (const v of s.values) if (v > cpuMax) cpuMax = v;
    usage.cpu(s);
  },
  memory: (s) => usage.memory(s),
  oom: (e) => usage.oom(e),
  endChunk: () => usage.endChunk(),
};
// Warm up the code paths (HTTP client, parser) so the baseline is not charged to the containers.
await source.namespaceSizes(end, stepMs);
const base = await settle();

let t0 = performance.now();
const cpu0 = process.cpuUsage();
const boot = await feed.sync(end - stepMs, sink);
const bootstrapMs = performance.now() - t0;
// CPU time (user + system) of this process: unlike wall time, it barely depends on the machine's load.
const bootCpu = process.cpuUsage(cpu0);
const bootQueries = client.stats.queries;
const bootBytes = client.stats.bytes;
const peakRssKiB = process.resourceUsage().maxRSS;
const held = await settle();
const tracked = usage.containers().length;

// BENCH_CYCLE_PROFILE=FILE.cpuprofile: a CPU profile of the incremental cycle alone (open it in Chrome's DevTools).
const profileFile = process.env['BENCH_CYCLE_PROFILE'];
const profiler = profileFile ? new inspector.Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
t0 = performance.now();
const cycleCpu0 = process.cpuUsage();
const cycle = await feed.sync(end, sink);
const cycleMs = performance.now() - t0;
const cycleCpu = process.cpuUsage(cycleCpu0);
if (profiler && profileFile) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(profileFile, JSON.stringify(profile));
  profiler.disconnect();
}
// What a recommender does after each sync: an estimate for every container.
t0 = performance.now();
const estimateCpu0 = process.cpuUsage();
const estimated = usage.containers().filter((c) => c.model.estimate(end) !== undefined).length;
const estimateMs = performance.now() - t0;
const estimateCpu = process.cpuUsage(estimateCpu0);
const peakAfterCycleKiB = process.resourceUsage().maxRSS;
const steady = await settle();

console.log(
  JSON.stringify({
    tracked,
    estimated,
    namespaces: boot.namespaces,
    bootstrapMs: Math.round(bootstrapMs),
    bootstrapCpuMs: Math.round((bootCpu.user + bootCpu.system) / 1000),
    bootstrapQueries: bootQueries,
    bootstrapBytes: bootBytes,
    cpuSamples: boot.cpuSamples,
    cpuMaxCores: cpuMax,
    failed: boot.failed.length + cycle.failed.length,
    peakRssBytes: peakRssKiB * 1024,
    baseRssBytes: base.rss,
    // What Tailor holds per tracked container: heap (and typed arrays) after the bootstrap and a full
    // GC, minus the warmed-up baseline, divided by the containers. An upper bound: it includes any
    // fixed cost first paid during the bootstrap.
    heldPerContainer: Math.round((held.heap - base.heap) / tracked),
    rssGrowthPerContainer: Math.round((held.rss - base.rss) / tracked),
    cycleMs: Math.round(cycleMs),
    cycleCpuMs: Math.round((cycleCpu.user + cycleCpu.system) / 1000),
    estimateMs: Math.round(estimateMs),
    estimateCpuMs: Math.round((estimateCpu.user + estimateCpu.system) / 1000),
    cycleQueries: client.stats.queries - bootQueries,
    cycleBytes: client.stats.bytes - bootBytes,
    cycleCpuSamples: cycle.cpuSamples,
    // After the incremental cycle and a full GC: what the process holds from then on.
    steadyRssBytes: steady.rss,
    peakRssAfterCycleBytes: peakAfterCycleKiB * 1024,
    pointsPerQuery: feed.pointsPerQuery,
    strategy: strategyName,
    memoryBudgetBytes: memoryBudgetBytes ?? 0,
  }),
);
