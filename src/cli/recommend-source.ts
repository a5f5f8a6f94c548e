/**
 * What `tailor recommend` and `tailor audit` share: the options that say where the history is and
 * how to read it (Prometheus connection, window, strategy, metric names, the cluster), and the run
 * that reads it into report rows, with a progress bar on a terminal and the data warnings on stderr.
 */
import cliProgress from 'cli-progress';
import { Registry } from 'prom-client';
import { createLogger, type Logger } from '../observability/logger.ts';
import type { RecommendSourceOptions } from './recommend-source-options.ts';
import { queryConfig, type LabelNames, type MetricNames } from '../metrics/metric-names.ts';
import { validateExtraSelector } from '../metrics/promql-selector.ts';
import { parseHeader, type ConnectionOptions } from '../metrics/connection-options.ts';
import { PrometheusQueryClient } from '../metrics/query-client.ts';
import { PrometheusMetricsSource } from '../metrics/prometheus-source.ts';
import { SourceMetrics } from '../metrics/source-metrics.ts';
import { memoryBudgetType } from '../metrics/memory-budget.ts';
import { limitHeapGrowth } from '../observability/heap-growth.ts';
import { cgroupMemoryLimit } from '../observability/cgroup-memory.ts';
import { createStrategyRegistry } from '../recommender/builtin-strategies.ts';
import { runRecommend, type RecommendResult } from '../report/recommend-run.ts';
import { parseDuration } from '../config/duration-option.ts';
import { connectKube } from '../kube/kube-connection.ts';
import { kubeClusterLister, readClusterResources } from '../report/cluster-resources.ts';

/** `--memory-budget`: a quantity of at least 128Mi, refused with the flag named. */
function parseMemoryBudget(text: string): number {
  try {
    return memoryBudgetType.parse(text);
  } catch (err) {
    throw new Error(`invalid --memory-budget ${JSON.stringify(text)}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

function keyValues<T extends object>(pairs: readonly string[], allowed: T, what: string): Partial<Record<keyof T, string>> {
  const out: Partial<Record<keyof T, string>> = {};
  for (const pair of pairs) {
    const i = pair.indexOf('=');
    const key = pair.slice(0, i) as keyof T;
    if (i <= 0 || !(key in allowed)) throw new Error(`invalid --${what} ${JSON.stringify(pair)}: expected one of ${Object.keys(allowed).join(', ')} as name=value`);
    out[key] = pair.slice(i + 1);
  }
  return out;
}

/** `--at`: an ISO time or ms since the epoch; now when not given. */
export function parseTime(text: string | undefined): number {
  if (text === undefined) return Date.now();
  const t = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(t)) throw new Error(`invalid --at ${JSON.stringify(text)}: use an ISO time or ms since the epoch`);
  return t;
}

function connection(o: RecommendSourceOptions): ConnectionOptions {
  let basicAuth: ConnectionOptions['basicAuth'];
  if (o.basicAuth) {
    const i = o.basicAuth.indexOf(':');
    if (i <= 0) throw new Error('invalid --basic-auth: expected USER:PASSWORD');
    basicAuth = { username: o.basicAuth.slice(0, i), password: o.basicAuth.slice(i + 1) };
  }
  return {
    url: o.prometheusUrl,
    timeoutMs: parseDuration(o.timeout),
    retries: Number(o.retries),
    bearerToken: o.bearerToken,
    bearerTokenFile: o.bearerTokenFile,
    basicAuth,
    headers: Object.fromEntries(o.header.map(parseHeader)),
    caFile: o.caFile,
    insecureSkipVerify: o.insecureSkipVerify,
  };
}

/** What a run read, with the evaluation time and window it used. */
export interface RecommendRun extends RecommendResult {
  now: number;
  historyMs: number;
  strategy: string;
  logger: Logger;
}

/** Reads the history and builds the rows; data warnings go to stderr. */
export async function readRecommendations(o: RecommendSourceOptions, extra: { outlinePoints?: number } = {}): Promise<RecommendRun> {
  const logger = createLogger({ level: o.logLevel });
  const strategy = createStrategyRegistry().get(o.strategy);
  const cfg = queryConfig({
    metrics: keyValues<MetricNames>(o.metric, queryConfig().metrics, 'metric'),
    labels: keyValues<LabelNames>(o.label, queryConfig().labels, 'label'),
    extraSelector: validateExtraSelector(o.selector),
  });
  const metrics = new SourceMetrics(new Registry());
  const client = new PrometheusQueryClient(connection(o), logger, metrics.observer());
  const source = new PrometheusMetricsSource(client, cfg, logger);
  // The cluster is read only when asked for: a flag, or KUBECONFIG in the environment.
  const useCluster = o.kubeconfig !== undefined || (process.env['KUBECONFIG'] ?? '') !== '';
  const kube = useCluster ? connectKube({ kubeconfig: o.kubeconfig, context: o.kubeContext, env: process.env }) : undefined;
  if (kube) logger.info({ cluster: kube.description }, 'current requests and limits from the cluster');
  const bar = o.progress && process.stderr.isTTY ? new cliProgress.SingleBar({ stream: process.stderr, format: 'reading history [{bar}] {value}/{total} chunks' }, cliProgress.Presets.shades_classic) : undefined;
  try {
    const scrapeIntervalMs = o.scrapeInterval === undefined ? undefined : parseDuration(o.scrapeInterval);
    const memoryBudgetBytes = o.memoryBudget === undefined ? cgroupMemoryLimit() : parseMemoryBudget(o.memoryBudget);
    const now = parseTime(o.at);
    limitHeapGrowth(); // the history read's garbage in proportion to the model (decision 0265)
    const historyMs = parseDuration(o.history);
    const result = await runRecommend({
      source,
      strategy,
      now,
      namespaces: o.namespace.length > 0 ? o.namespace : undefined,
      feed: { historyMs, stepMs: parseDuration(o.step), maxPointsPerQuery: Number(o.maxPointsPerQuery), scrapeIntervalMs, ...(memoryBudgetBytes === undefined ? {} : { memoryBudgetBytes }) },
      logger,
      metrics,
      metricNames: cfg.metrics,
      readCluster: kube ? (namespaces) => readClusterResources(kubeClusterLister(kube.kubeConfig), namespaces) : undefined,
      onProgress: bar ? (done, total) => (done === 0 ? bar.start(total, 0) : bar.update(done)) : undefined,
      ...extra,
    });
    bar?.stop();
    for (const line of result.warnings) process.stderr.write(`tailor: warning: ${line}\n`);
    return { ...result, now, historyMs, strategy: o.strategy, logger };
  } finally {
    bar?.stop();
  }
}
