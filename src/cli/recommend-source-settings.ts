/**
 * The options of `tailor recommend` and `tailor audit` that say where the history is and how to
 * read it, checked and converted once, before anything is read or sent: every bad value is a
 * {@link UsageError} naming its flag (exit code 2), e.g. `--history: invalid duration "banana"`.
 * Pure but for the clock (`--at` defaults to now).
 */
import type { LogLevel } from '../observability/logger.ts';
import type { RecommendSourceOptions } from './recommend-source-options.ts';
import { queryConfig, type LabelNames, type MetricNames, type QueryConfig } from '../metrics/metric-names.ts';
import { validateExtraSelector } from '../metrics/promql-selector.ts';
import { parseHeader, type ConnectionOptions } from '../metrics/connection-options.ts';
import { checkPrometheusUrl } from '../metrics/query-client.ts';
import { memoryBudgetType } from '../metrics/memory-budget.ts';
import { createStrategyRegistry } from '../model/builtin-strategies.ts';
import type { Strategy } from '../model/types.ts';
import { parseDuration } from '../config/duration-option.ts';
import { UsageError } from './exit-codes.ts';
import { clusterPlan, type ClusterPlan } from './cluster-settings.ts';

/** The checked options. */
export interface SourceSettings {
  strategyName: string;
  strategy: Strategy;
  query: QueryConfig;
  connection: ConnectionOptions;
  /** Absent: every namespace with usage. */
  namespaces?: string[];
  /** The evaluation time (ms since the epoch). */
  now: number;
  historyMs: number;
  stepMs: number;
  scrapeIntervalMs?: number;
  maxPointsPerQuery: number;
  /** Absent: the container's memory limit, when it has one (read when the command runs). */
  memoryBudgetBytes?: number;
  progress: boolean;
  logLevel: LogLevel;
  kubeconfig?: string;
  /** The context of a one-cluster run (`--context`); several clusters are in `clusters`. */
  kubeContext?: string;
  /** Which clusters (cluster-settings.ts). */
  clusters: ClusterPlan;
  /** Read requests and owners from the cluster: true with a context of several, false for a cluster known only by its label; absent: when --kubeconfig or $KUBECONFIG is given. */
  readCluster?: boolean;
}

/** Runs `parse`; its error becomes a usage error that names `flag` (unless it does already). */
function flagValue<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(message.includes(flag) ? message : `${flag}: ${message}`, { cause: err });
  }
}

/** A duration longer than 0. */
function positiveDuration(flag: string, text: string): number {
  const ms = flagValue(flag, () => parseDuration(text));
  if (ms <= 0) throw new UsageError(`${flag}: must be longer than 0, got ${JSON.stringify(text)}`);
  return ms;
}

/** A whole number of at least `min`. */
function wholeNumber(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < min) throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a whole number of at least ${min}`);
  return n;
}

/** `--at`: an ISO time or ms since the epoch; now when not given. */
export function parseTime(text: string | undefined, now = Date.now()): number {
  if (text === undefined) return now;
  const t = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(t)) throw new UsageError(`--at: invalid time ${JSON.stringify(text)}: use an ISO time or ms since the epoch`);
  return t;
}

function keyValues<T extends object>(pairs: readonly string[], allowed: T, what: string): Partial<Record<keyof T, string>> {
  const out: Partial<Record<keyof T, string>> = {};
  for (const pair of pairs) {
    const i = pair.indexOf('=');
    const key = pair.slice(0, i) as keyof T;
    if (i <= 0 || !(key in allowed))
      throw new UsageError(`invalid --${what} ${JSON.stringify(pair)}: expected one of ${Object.keys(allowed).join(', ')} as name=value`);
    out[key] = pair.slice(i + 1);
  }
  return out;
}

function connection(o: RecommendSourceOptions): ConnectionOptions {
  flagValue('--prometheus-url', () => checkPrometheusUrl(o.prometheusUrl));
  let basicAuth: ConnectionOptions['basicAuth'];
  if (o.basicAuth !== undefined) {
    const i = o.basicAuth.indexOf(':');
    if (i <= 0) throw new UsageError('--basic-auth: expected USER:PASSWORD');
    basicAuth = { username: o.basicAuth.slice(0, i), password: o.basicAuth.slice(i + 1) };
  }
  return {
    url: o.prometheusUrl,
    timeoutMs: positiveDuration('--timeout', o.timeout),
    retries: wholeNumber('--retries', o.retries, 0),
    bearerToken: o.bearerToken,
    bearerTokenFile: o.bearerTokenFile,
    basicAuth,
    headers: Object.fromEntries(o.header.map((h) => flagValue('--header', () => parseHeader(h)))),
    caFile: o.caFile,
    insecureSkipVerify: o.insecureSkipVerify,
  };
}

/** Checks and converts the options; throws {@link UsageError} for the first bad value. */
export function sourceSettings(o: RecommendSourceOptions, clock: () => number = Date.now): SourceSettings {
  const defaults = queryConfig();
  const plan = clusterPlan(o);
  const query = queryConfig({
    metrics: keyValues<MetricNames>(o.metric, defaults.metrics, 'metric'),
    labels: keyValues<LabelNames>(o.label, defaults.labels, 'label'),
    extraSelector: flagValue('--selector', () => validateExtraSelector(o.selector)),
  });
  return {
    strategyName: o.strategy,
    strategy: flagValue('--strategy', () => createStrategyRegistry().get(o.strategy)),
    query,
    connection: connection(o),
    ...(o.namespace.length > 0 ? { namespaces: o.namespace } : {}),
    now: parseTime(o.at, clock()),
    historyMs: positiveDuration('--history', o.history),
    stepMs: positiveDuration('--step', o.step),
    ...(o.scrapeInterval === undefined ? {} : { scrapeIntervalMs: positiveDuration('--scrape-interval', o.scrapeInterval) }),
    maxPointsPerQuery: wholeNumber('--max-points-per-query', o.maxPointsPerQuery, 1),
    ...(o.memoryBudget === undefined ? {} : { memoryBudgetBytes: flagValue('--memory-budget', () => memoryBudget(o.memoryBudget!)) }),
    progress: o.progress,
    logLevel: o.logLevel,
    ...(o.kubeconfig === undefined ? {} : { kubeconfig: o.kubeconfig }),
    ...(plan.kind === 'one' && plan.kubeContext !== undefined ? { kubeContext: plan.kubeContext } : {}),
    clusters: plan,
  };
}

/** `--memory-budget`: a quantity of at least 128Mi. */
function memoryBudget(text: string): number {
  try {
    return memoryBudgetType.parse(text);
  } catch (err) {
    throw new Error(`invalid --memory-budget ${JSON.stringify(text)}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
