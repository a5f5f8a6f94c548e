/**
 * The options `tailor recommend` and `tailor audit` share (Prometheus connection, history, strategy,
 * cluster or clusters: cluster-settings.ts), declared without loading what reads them (recommend-source.ts), so starting the CLI
 * stays light (decision 0244).
 */
import type { Command } from 'commander';
import type { LogLevel } from '../observability/logger.ts';
import { DEFAULT_STRATEGY } from '../model/default-strategy.ts';

/** The shared options, as commander gives them. */
export interface RecommendSourceOptions {
  prometheusUrl: string;
  namespace: string[];
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
  /** `--kube-context`, repeatable: one cluster per context (cluster-settings.ts). */
  kubeContext: string[];
  /** kubectl's name for `--kube-context` (so `kubectl tailor ... --context prod` works), repeatable. */
  context: string[];
  /** Every context of the kubeconfig, one cluster each. */
  allContexts?: boolean;
  /** Every value of the cluster label in Prometheus, one cluster each. */
  allClusters?: boolean;
  /** Only these clusters (by their name in the report), repeatable. */
  cluster: string[];
  /** The label that tells clusters apart in Prometheus. */
  clusterLabel: string;
  /** `CONTEXT=NAME`: the cluster's name (and label value) when it is not the context's name. */
  clusterName: string[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Adds the shared options to a command (after its own `--prometheus-url`-less options). */
export function addRecommendSourceOptions(cmd: Command): Command {
  return cmd
    .option('--history <duration>', 'history window', '8d')
    .option('--step <duration>', 'resolution of the usage samples', '1m')
    .option(
      '--scrape-interval <duration>',
      'how often the CPU counter is scraped; the CPU rate window is 4 of these, at least the step (default: read from the data)',
    )
    .option(
      '--strategy <name>',
      "recommendation strategy: tailor-low-churn (tailor within 2x vpa's changes; the default of every command, as of tailor run), tailor (the least slack on the quality suite) or vpa (upstream)",
      DEFAULT_STRATEGY,
    )
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
    .option(
      '--memory-budget <quantity>',
      "memory this command may use, e.g. 512Mi: answers are sized from what is left of it (40% of the headroom, at most a quarter of the budget, in flight) (default: the container's memory limit, when it has one)",
    )
    .option('--kubeconfig <path>', 'read current requests, limits and owners from this cluster (default: $KUBECONFIG when set; else kube-state-metrics)')
    .option('--kube-context <name>', 'context of the kubeconfig (default: its current context); repeated: one cluster each, in one report', collect, [])
    .option('--context <name>', 'the same as --kube-context, as kubectl names it (repeatable)', collect, [])
    .option('--all-contexts', 'one cluster per context of the kubeconfig, in one report')
    .option('--all-clusters', 'one cluster per value of --cluster-label in Prometheus (a Thanos of several clusters), without reading any kubeconfig')
    .option('--cluster <name>', 'only this cluster (repeatable): its name in the report and its --cluster-label value', collect, [])
    .option(
      '--cluster-label <name>',
      'the label telling clusters apart in Prometheus (with several clusters: each one\'s usage is read with <name>="<cluster>")',
      'cluster',
    )
    .option(
      '--cluster-name <context=name>',
      "a context's cluster name in the report and label value, when it is not the context's name, e.g. ctx-prod-eu=prod (repeatable)",
      collect,
      [],
    );
}

/** `--prometheus-url` and `--namespace`, which both commands list first. */
export function addPrometheusAndNamespaceOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--prometheus-url <url>', 'PromQL HTTP API (Prometheus, Thanos, Mimir, VictoriaMetrics)')
    .option('-n, --namespace <ns>', 'only this namespace (repeatable; default: all with usage)', collect, []);
}
