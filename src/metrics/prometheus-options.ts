/**
 * Options of the Prometheus connection (the same settings as `tailor recommend`, prefixed
 * `--prometheus-` in `tailor run` because the kube connection has its own credentials), and their
 * translation into the usage source's {@link ConnectionOptions} and {@link QueryConfig}.
 */
import type { ConfigOf, ConfigRule, OptionTable } from '../config/option-spec.ts';
import { booleanType, durationType, integerType, keyValueType, listType, pathType, stringType, urlType, type OptionType } from '../config/option-types.ts';
import { CONNECTION_DEFAULTS, parseHeader, type ConnectionOptions } from './connection-options.ts';
import { DEFAULT_LABEL_NAMES, DEFAULT_METRIC_NAMES, queryConfig, type LabelNames, type MetricNames, type QueryConfig } from './metric-names.ts';
import { validateExtraSelector } from './promql-selector.ts';

const headerType: OptionType<[string, string]> = { name: 'header', placeholder: '<"Name: value">', parse: parseHeader, format: ([k, v]) => `${k}: ${v}` };

const selectorType: OptionType<string> = { name: 'label matchers', placeholder: '<matchers>', parse: validateExtraSelector, format: (v) => v };

const basicAuthType: OptionType<{ username: string; password: string }> = {
  name: 'user:password',
  placeholder: '<user:password>',
  parse: (t) => {
    const i = t.indexOf(':');
    if (i <= 0) throw new Error('expected USER:PASSWORD');
    return { username: t.slice(0, i), password: t.slice(i + 1) };
  },
  format: () => '***',
};

/** name=value overrides whose names must be keys of `allowed`. */
function overridesOf(allowed: object, what: string): (pairs: [string, string][]) => string | undefined {
  return (pairs) => {
    const bad = pairs.find(([k]) => !(k in allowed));
    return bad ? `unknown ${what} ${JSON.stringify(bad[0])}; known: ${Object.keys(allowed).join(', ')}` : undefined;
  };
}

export const PROMETHEUS_OPTIONS = {
  prometheusUrl: {
    flag: 'prometheus-url',
    env: 'TAILOR_PROMETHEUS_URL',
    type: urlType,
    description:
      'PromQL HTTP API (Prometheus, Thanos Query, VictoriaMetrics and Cortex are tested; Mimir speaks the same API but is not run here). Required by the recommender; the updater reads recent memory usage from it (without it the updater never lowers a memory limit and its memory pressure guard is off).',
    group: 'Prometheus',
  },
  prometheusTimeout: {
    flag: 'prometheus-timeout',
    env: 'TAILOR_PROMETHEUS_TIMEOUT',
    type: durationType,
    default: CONNECTION_DEFAULTS.timeoutMs,
    description: 'Timeout of one Prometheus request.',
    group: 'Prometheus',
  },
  prometheusRetries: {
    flag: 'prometheus-retries',
    env: 'TAILOR_PROMETHEUS_RETRIES',
    type: integerType(0, 20),
    default: CONNECTION_DEFAULTS.retries,
    description: 'Retries of a failed Prometheus request (jittered exponential backoff).',
    group: 'Prometheus',
  },
  prometheusBearerToken: {
    flag: 'prometheus-bearer-token',
    env: 'TAILOR_PROMETHEUS_BEARER_TOKEN',
    type: stringType,
    secret: true,
    description: 'Bearer token for Prometheus (prefer the environment variable or a file).',
    group: 'Prometheus',
  },
  prometheusBearerTokenFile: {
    flag: 'prometheus-bearer-token-file',
    env: 'TAILOR_PROMETHEUS_BEARER_TOKEN_FILE',
    type: pathType,
    description: 'File holding the bearer token for Prometheus, re-read when it changes.',
    group: 'Prometheus',
  },
  prometheusBasicAuth: {
    flag: 'prometheus-basic-auth',
    env: 'TAILOR_PROMETHEUS_BASIC_AUTH',
    type: basicAuthType,
    secret: true,
    description: 'HTTP basic auth for Prometheus as USER:PASSWORD.',
    group: 'Prometheus',
  },
  prometheusHeader: {
    flag: 'prometheus-header',
    env: 'TAILOR_PROMETHEUS_HEADERS',
    type: listType(headerType, 'list of "Name: value"'),
    default: [] as [string, string][],
    description: 'Extra request header, e.g. "X-Scope-OrgID: team-a" for a Cortex or Mimir tenant (repeatable; comma-separated in the variable).',
    group: 'Prometheus',
  },
  prometheusCaFile: {
    flag: 'prometheus-ca-file',
    env: 'TAILOR_PROMETHEUS_CA_FILE',
    type: pathType,
    description: 'CA certificate (PEM) that signed the Prometheus server certificate.',
    group: 'Prometheus',
  },
  prometheusInsecureSkipVerify: {
    flag: 'prometheus-insecure-skip-verify',
    env: 'TAILOR_PROMETHEUS_INSECURE_SKIP_VERIFY',
    type: booleanType,
    default: false,
    description: 'Do not verify the Prometheus server certificate (testing only).',
    group: 'Prometheus',
  },
  prometheusSelector: {
    flag: 'prometheus-selector',
    env: 'TAILOR_PROMETHEUS_SELECTOR',
    type: selectorType,
    default: '',
    description: 'Label matchers added to every query, e.g. cluster="prod" on a shared Thanos.',
    group: 'Prometheus',
  },
  prometheusMetric: {
    flag: 'prometheus-metric',
    env: 'TAILOR_PROMETHEUS_METRICS',
    type: listType(keyValueType, 'list of name=value'),
    default: [] as [string, string][],
    description: `Override a metric name, e.g. cpuUsageSeconds=my_cpu_total (repeatable). Names: ${Object.keys(DEFAULT_METRIC_NAMES).join(', ')}.`,
    group: 'Prometheus',
    check: overridesOf(DEFAULT_METRIC_NAMES, 'metric'),
  },
  prometheusLabel: {
    flag: 'prometheus-label',
    env: 'TAILOR_PROMETHEUS_LABELS',
    type: listType(keyValueType, 'list of name=value'),
    default: [] as [string, string][],
    description: `Override a label name, e.g. pod=pod_name (repeatable). Names: ${Object.keys(DEFAULT_LABEL_NAMES).join(', ')}.`,
    group: 'Prometheus',
    check: overridesOf(DEFAULT_LABEL_NAMES, 'label'),
  },
} satisfies OptionTable;

export type PrometheusConfig = ConfigOf<typeof PROMETHEUS_OPTIONS>;

/** Relations between the Prometheus options (for every command that has them). */
export const PROMETHEUS_RULES: readonly ConfigRule<PrometheusConfig>[] = [
  {
    options: ['prometheusBearerToken', 'prometheusBearerTokenFile', 'prometheusBasicAuth'],
    check: (c) =>
      [c.prometheusBearerToken, c.prometheusBearerTokenFile, c.prometheusBasicAuth].filter((v) => v !== undefined).length > 1
        ? 'give at most one kind of Prometheus credentials'
        : undefined,
  },
];

/** The usage source's connection settings; throws when the URL is missing. */
export function prometheusConnection(config: PrometheusConfig): ConnectionOptions {
  if (config.prometheusUrl === undefined) throw new Error('--prometheus-url (TAILOR_PROMETHEUS_URL) is not set');
  const out: ConnectionOptions = {
    url: config.prometheusUrl,
    timeoutMs: config.prometheusTimeout,
    retries: config.prometheusRetries,
    headers: Object.fromEntries(config.prometheusHeader),
    insecureSkipVerify: config.prometheusInsecureSkipVerify,
  };
  if (config.prometheusBearerToken !== undefined) out.bearerToken = config.prometheusBearerToken;
  if (config.prometheusBearerTokenFile !== undefined) out.bearerTokenFile = config.prometheusBearerTokenFile;
  if (config.prometheusBasicAuth !== undefined) out.basicAuth = config.prometheusBasicAuth;
  if (config.prometheusCaFile !== undefined) out.caFile = config.prometheusCaFile;
  return out;
}

/** Metric and label names and the extra selector for the PromQL builders. */
export function prometheusQueryConfig(config: PrometheusConfig): QueryConfig {
  return queryConfig({
    metrics: Object.fromEntries(config.prometheusMetric) as Partial<MetricNames>,
    labels: Object.fromEntries(config.prometheusLabel) as Partial<LabelNames>,
    extraSelector: config.prometheusSelector,
  });
}
