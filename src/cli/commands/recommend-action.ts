/**
 * The work of `tailor recommend` (its options are declared in recommend.ts): reads the history,
 * runs the strategy and writes the report. Loaded only when the command runs.
 */
import cliProgress from 'cli-progress';
import { Registry } from 'prom-client';
import { createLogger } from '../../observability/logger.ts';
import { queryConfig, type LabelNames, type MetricNames } from '../../metrics/metric-names.ts';
import { validateExtraSelector } from '../../metrics/promql-selector.ts';
import { parseHeader, type ConnectionOptions } from '../../metrics/connection-options.ts';
import { PrometheusQueryClient } from '../../metrics/query-client.ts';
import { PrometheusMetricsSource } from '../../metrics/prometheus-source.ts';
import { SourceMetrics } from '../../metrics/source-metrics.ts';
import { memoryBudgetType } from '../../metrics/memory-budget.ts';
import { cgroupMemoryLimit } from '../../observability/cgroup-memory.ts';
import { createStrategyRegistry } from '../../recommender/builtin-strategies.ts';
import { runRecommend } from '../../report/recommend-run.ts';
import { renderReport, type ReportFormat } from '../../report/report-format.ts';
import { parseDuration } from '../../config/duration-option.ts';
import { connectKube } from '../../kube/kube-connection.ts';
import { kubeClusterLister, readClusterResources } from '../../report/cluster-resources.ts';
import type { LogLevel } from '../../observability/logger.ts';
import { writeResult } from '../common-options.ts';

/** The parsed options of `tailor recommend`. */
export interface RecommendOptions {
  prometheusUrl: string;
  namespace: string[];
  format: ReportFormat;
  output?: string;
  history: string;
  step: string;
  scrapeInterval?: string;
  strategy: string;
  selector: string;
  at?: string;
  timeout: string;
  retries: string;
  bearerToken?: string;
  bearerTokenFile?: string;
  basicAuth?: string;
  header: string[];
  caFile?: string;
  insecureSkipVerify?: boolean;
  metric: string[];
  label: string[];
  maxPointsPerQuery: string;
  memoryBudget?: string;
  progress: boolean;
  logLevel: LogLevel;
  kubeconfig?: string;
  kubeContext?: string;
}

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

function parseTime(text: string | undefined): number {
  if (text === undefined) return Date.now();
  const t = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(t)) throw new Error(`invalid --at ${JSON.stringify(text)}: use an ISO time or ms since the epoch`);
  return t;
}

function connection(o: RecommendOptions): ConnectionOptions {
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

/** Runs `tailor recommend` with its parsed options. */
export async function runRecommendCommand(o: RecommendOptions): Promise<void> {
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
    const { rows, warnings } = await runRecommend({
      source,
      strategy,
      now: parseTime(o.at),
      namespaces: o.namespace.length > 0 ? o.namespace : undefined,
      feed: { historyMs: parseDuration(o.history), stepMs: parseDuration(o.step), maxPointsPerQuery: Number(o.maxPointsPerQuery), scrapeIntervalMs, ...(memoryBudgetBytes === undefined ? {} : { memoryBudgetBytes }) },
      logger,
      metrics,
      metricNames: cfg.metrics,
      readCluster: kube ? (namespaces) => readClusterResources(kubeClusterLister(kube.kubeConfig), namespaces) : undefined,
      onProgress: bar ? (done, total) => (done === 0 ? bar.start(total, 0) : bar.update(done)) : undefined,
    });
    bar?.stop();
    for (const line of warnings) process.stderr.write(`tailor: warning: ${line}\n`);
    await writeResult(renderReport(rows, o.format), o.output);
  } finally {
    bar?.stop();
  }
}
