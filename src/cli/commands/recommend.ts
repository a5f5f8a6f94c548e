/**
 * `tailor recommend`: the one-shot report from Prometheus alone. Per workload and container: the
 * current requests and limits (kube-state-metrics, or the cluster with --kubeconfig / $KUBECONFIG), the recommendation with bounds, the difference
 * and the estimated savings, as a table, JSON, YAML, CSV or HTML. This file only parses options
 * and wires the parts; the work is in src/report/ and src/metrics/.
 */
import type { Command } from 'commander';
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
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../../report/report-format.ts';
import { parseDuration } from '../../config/duration-option.ts';
import { connectKube } from '../../kube/kube-connection.ts';
import { kubeClusterLister, readClusterResources } from '../../report/cluster-resources.ts';
import type { LogLevel } from '../../observability/logger.ts';
import { formatOption, logLevelOption, noProgressOption, outputOption, writeResult } from '../common-options.ts';

interface RecommendOptions {
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

const collect = (value: string, previous: string[]) => [...previous, value];

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

export function registerRecommend(program: Command): void {
  program
    .command('recommend')
    .description('One-shot report from Prometheus: current requests and limits, recommendations with bounds, savings')
    .requiredOption('--prometheus-url <url>', 'PromQL HTTP API (Prometheus, Thanos, Mimir, VictoriaMetrics)')
    .option('--namespace <ns>', 'only this namespace (repeatable; default: all with usage)', collect, [])
    .addOption(formatOption(REPORT_FORMATS, 'table'))
    .addOption(outputOption())
    .option('--history <duration>', 'history window', '8d')
    .option('--step <duration>', 'resolution of the usage samples', '1m')
    .option('--scrape-interval <duration>', 'how often the CPU counter is scraped; the CPU rate window is 4 of these, at least the step (default: read from the data)')
    .option('--strategy <name>', 'recommendation strategy: tailor (the best on the quality suite) or vpa (upstream)', 'tailor')
    .option('--selector <matchers>', 'label matchers added to every query, e.g. cluster="prod"', '')
    .option('--at <time>', 'evaluate as of this time (ISO or ms since the epoch; default now)')
    .option('--timeout <duration>', 'per-request timeout', '30s')
    .option('--retries <n>', 'retries of a failed request (jittered exponential backoff)', '3')
    .option('--bearer-token <token>', 'bearer token')
    .option('--bearer-token-file <path>', 'file holding a bearer token (re-read when it changes)')
    .option('--basic-auth <user:password>', 'HTTP basic auth')
    .option('--header <header>', 'extra header "Name: value", e.g. "X-Scope-OrgID: team-a" (repeatable)', collect, [])
    .option('--ca-file <path>', 'CA certificate (PEM) for an https URL')
    .option('--insecure-skip-verify', 'do not verify the server certificate')
    .option('--metric <name=value>', 'override a metric name, e.g. cpuUsageSeconds=my_cpu_total (repeatable)', collect, [])
    .option('--label <name=value>', 'override a label name, e.g. pod=pod_name (repeatable)', collect, [])
    .option('--max-points-per-query <n>', 'points (series x steps) per answer at most', '250000')
    .option('--memory-budget <quantity>', 'memory this command may use, e.g. 512Mi: answers are sized from what is left of it (40% of the headroom, at most a quarter of the budget, in flight) (default: the container\'s memory limit, when it has one)')
    .option('--kubeconfig <path>', 'read current requests, limits and owners from this cluster (default: $KUBECONFIG when set; else kube-state-metrics)')
    .option('--kube-context <name>', 'context of the kubeconfig (default: its current context)')
    .addOption(noProgressOption())
    .addOption(logLevelOption('warn'))
    .action(async (o: RecommendOptions) => {
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
    });
}
