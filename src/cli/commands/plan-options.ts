/**
 * The options of `tailor plan`, shared by its declaration (plan.ts) and its work (plan-action.ts):
 * the flags as commander gives them, their checks (each bad value a usage error, exit 2, before any
 * file is read), and the Prometheus and memory-safety options it shares with `tailor run`.
 */
import { parseRfc3339 } from '../../api/rfc3339.ts';
import { mergeOptionTables } from '../../config/option-spec.ts';
import { resolveConfig, type CommandLineValues, type Environment } from '../../config/resolve-config.ts';
import type { MemoryUsageSource } from '../../metrics/memory-usage-source.ts';
import { PROMETHEUS_OPTIONS, PROMETHEUS_RULES, prometheusConnection, prometheusQueryConfig } from '../../metrics/prometheus-options.ts';
import { silentLogger } from '../../observability/logger.ts';
import type { UpdaterOptions } from '../../policy/update-thresholds.ts';
import type { GlobalBudget } from '../../updater/updater-plan.ts';
import { isKnownServerVersion, NEWEST_KNOWN_VERSION, parseServerVersion, type ServerVersion } from '../../updater/server-capabilities.ts';
import { MEMORY_SAFETY_OPTIONS, memorySafetyOptions } from '../../updater/updater-options.ts';
import { UsageError } from '../exit-codes.ts';

export const PLAN_FORMATS = ['text', 'json', 'yaml'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

/** `--server-version`'s default, `1.35`: the version tailor sim and tailor demo follow unless told otherwise. */
export const PLAN_SERVER_VERSION = '1.35';

/** The newest version `--server-version` takes: the newest whose resize rules are known (1.37). */
const NEWEST_PLAN_VERSION = `${NEWEST_KNOWN_VERSION.major}.${NEWEST_KNOWN_VERSION.minor}`;

/** The flags of `tailor plan` as commander parses them (values unchecked). */
export interface PlanFlags {
  filename: string[];
  format?: PlanFormat;
  output?: string;
  serverVersion: string;
  featureGate: boolean;
  now?: string;
  resizes: string;
  evictions: string;
  allowRestart: boolean;
}

/** The checked values of the flags that shape the plan. */
export interface PlanSettings {
  version: ServerVersion;
  /** The plan's clock (ms): `--now`, else the current time. */
  at: number;
  budget: GlobalBudget;
}

function count(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number >= 0, got ${value}`);
  return n;
}

/** `--server-version`: `1.34` (or `v1.34.2`), 1.x up to the newest version whose rules are known. */
function planServerVersion(text: string): ServerVersion {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(text.trim());
  const version = m ? parseServerVersion({ major: m[1]!, minor: m[2]! }) : undefined;
  if (!version) throw new UsageError(`--server-version must look like 1.34, got ${text}`);
  if (!isKnownServerVersion(version))
    throw new UsageError(
      `--server-version ${text} is not supported: Tailor knows the resize rules of Kubernetes 1.0 to ${NEWEST_PLAN_VERSION} (in place from 1.27 with --feature-gate, 1.33 without)`,
    );
  return version;
}

/** Checks the flags; `now` is the clock (ms). Throws {@link UsageError} for a bad value (exit code 2). */
export function planSettings(flags: PlanFlags, now: number): PlanSettings {
  const version = planServerVersion(flags.serverVersion);
  let at = now;
  if (flags.now) {
    try {
      at = parseRfc3339(flags.now);
    } catch (cause) {
      throw new UsageError(`--now: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
  }
  return { version, at, budget: { resizes: count(flags.resizes, '--resizes'), evictions: count(flags.evictions, '--evictions') } };
}

/** The Prometheus connection and memory-safety options of `tailor plan` (rows shared with `tailor run`). */
export const PLAN_USAGE_OPTIONS = mergeOptionTables(PROMETHEUS_OPTIONS, MEMORY_SAFETY_OPTIONS);

/** Where `tailor plan` gets recent memory usage from, and the thresholds it applies to it. */
export interface PlanUsage {
  /** Absent: no usage (no memory limit is lowered, no pressure guard). */
  source?: MemoryUsageSource;
  options: Partial<UpdaterOptions>;
}

/**
 * The usage input of the command line and the environment: a Prometheus source when
 * --prometheus-url (TAILOR_PROMETHEUS_URL) is set. Throws `InvalidConfigurationError` (a usage error).
 */
export async function planUsage(cli: CommandLineValues, env: Environment): Promise<PlanUsage> {
  const { config } = resolveConfig(PLAN_USAGE_OPTIONS, cli, env, PROMETHEUS_RULES);
  const options = memorySafetyOptions(config);
  if (config.prometheusUrl === undefined) return { options };
  // The Prometheus client (and the HTTP library under it) is loaded only when it is used.
  const [{ PrometheusQueryClient }, { PrometheusMetricsSource }] = await Promise.all([
    import('../../metrics/query-client.ts'),
    import('../../metrics/prometheus-source.ts'),
  ]);
  const client = new PrometheusQueryClient(prometheusConnection(config), silentLogger());
  return { source: new PrometheusMetricsSource(client, prometheusQueryConfig(config), silentLogger()), options };
}
