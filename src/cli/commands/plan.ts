/**
 * `tailor plan -f FILE...`: the updater's dry run on objects read from files, e.g.
 * `kubectl get pods,vpa,deploy,limitranges,hpa -n shop -o yaml > shop.yaml; tailor plan -f shop.yaml`.
 * Prints one line per pod (decision, reason, from -> to) and a summary; changes nothing anywhere.
 * With `--prometheus-url` (and the same connection options and `TAILOR_PROMETHEUS_*` variables as
 * `tailor run`) it reads the pods' recent memory as the in-cluster updater does, so memory limits
 * may go down to the observed peak + margin and the memory pressure guard can fire; without it,
 * memory limits are never lowered (the safe reading). `--format json|yaml` gives the decisions as
 * data, `--output FILE` writes them to a file. The cooldown needs to know when the updater last
 * changed a pod, which only the pod's managedFields say: `kubectl get` leaves them out unless
 * `--show-managed-fields`, and the plan says so when they are missing.
 */
import { readInput } from '../read-input.ts';
import { Option, type Command } from 'commander';
import type { V1LimitRange, V1Pod, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { parseRfc3339 } from '../../api/rfc3339.ts';
import { addTableOptions, commandLineValues } from '../../config/commander-options.ts';
import { mergeOptionTables } from '../../config/option-spec.ts';
import { PROMETHEUS_OPTIONS, PROMETHEUS_RULES, prometheusConnection, prometheusQueryConfig } from '../../metrics/prometheus-options.ts';
import { resolveConfig, type CommandLineValues, type Environment } from '../../config/resolve-config.ts';
import { MEMORY_SAFETY_OPTIONS, memorySafetyOptions } from '../../updater/updater-options.ts';
import type { MemoryUsageSource } from '../../metrics/memory-usage-source.ts';
import { silentLogger } from '../../observability/logger.ts';
import { attachUsage, namespacesOf, readUsage } from '../../updater/usage-reader.ts';
import { validateVpa } from '../../api/validate-vpa.ts';
import { parseManifestText } from '../../api/manifest-text.ts';
import type { VerticalPodAutoscaler } from '../../api/vpa.ts';
import { formatPlan } from '../../updater/dry-run.ts';
import { memoryWarnings, type MemoryWarnings } from '../../updater/memory-warnings.ts';
import { formatMemoryWarnings } from '../../updater/memory-warning-report.ts';
import { updaterOptions, type UpdaterOptions } from '../../policy/update-thresholds.ts';
import { plan } from '../../updater/plan.ts';
import { isKnownServerVersion, NEWEST_KNOWN_VERSION, parseServerVersion, serverCapabilities, type ServerVersion } from '../../updater/server-capabilities.ts';
import { groupWorkloads, type ClusterObjects, type WorkloadObject } from '../../updater/workload-groups.ts';
import { LAST_UPDATE_ANNOTATION } from '../../updater/annotations.ts';
import type { PodDecision } from '../../updater/decision.ts';
import { DEFAULT_SERVER_VERSION } from 'kube-sim/server-version';
import { readFailure } from '../file-errors.ts';
import { UsageError } from '../exit-codes.ts';
import { formatOption, outputOption, serialize, writeResult } from '../common-options.ts';

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job']);

type Json = Record<string, unknown>;

/**
 * Every object in a YAML/JSON text, `kind: List` items flattened. Throws when the text is not a
 * manifest (binary data, prose, a syntax error): garbage is an error, not "0 pod(s)".
 */
function objectsIn(text: string, label: string): Json[] {
  const parsed = parseManifestText(text);
  if (!parsed.ok) throw new Error(`${label}: ${parsed.error}`);
  const out: Json[] = [];
  const add = (value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    const obj = value as Json;
    if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) obj.items.forEach(add);
    else out.push(obj);
  };
  for (const { value } of parsed.documents) add(value);
  return out;
}

/** Sorts objects by kind; invalid VPAs are reported to `err` and left out. */
export function collectObjects(objects: readonly Json[], err: NodeJS.WritableStream): ClusterObjects {
  const pods: V1Pod[] = [];
  const vpas: VerticalPodAutoscaler[] = [];
  const limitRanges: V1LimitRange[] = [];
  const hpas: V2HorizontalPodAutoscaler[] = [];
  const workloads: WorkloadObject[] = [];
  for (const obj of objects) {
    const kind = obj.kind;
    if (kind === 'Pod') pods.push(obj as V1Pod);
    else if (kind === 'LimitRange') limitRanges.push(obj as V1LimitRange);
    else if (kind === 'HorizontalPodAutoscaler') hpas.push(obj as V2HorizontalPodAutoscaler);
    else if (typeof kind === 'string' && WORKLOAD_KINDS.has(kind)) workloads.push(obj as WorkloadObject);
    else if (kind === 'VerticalPodAutoscaler') {
      const result = validateVpa(obj);
      if (result.ok) vpas.push(result.vpa);
      else {
        const name = (obj.metadata as Json | undefined)?.name;
        err.write(`VerticalPodAutoscaler/${String(name)}: skipped: ${result.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}\n`);
      }
    }
  }
  return { pods, vpas, limitRanges, hpas, workloads };
}

export const PLAN_FORMATS = ['text', 'json', 'yaml'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

interface PlanFlags {
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

function count(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number >= 0, got ${value}`);
  return n;
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
  const [{ PrometheusQueryClient }, { PrometheusMetricsSource }] = await Promise.all([import('../../metrics/query-client.ts'), import('../../metrics/prometheus-source.ts')]);
  const client = new PrometheusQueryClient(prometheusConnection(config), silentLogger());
  return { source: new PrometheusMetricsSource(client, prometheusQueryConfig(config), silentLogger()), options };
}

/**
 * Runs the dry run; `now` is the clock (ms). Throws {@link UsageError} for a bad flag value (exit
 * code 2), before any file is read.
 */
export async function planFiles(flags: PlanFlags, now: number, out: NodeJS.WritableStream, err: NodeJS.WritableStream, usage: PlanUsage = { options: {} }): Promise<void> {
  await runPlan(flags, now, out, err, usage);
}

/**
 * The note for pods without managedFields (`kubectl get` drops them unless --show-managed-fields)
 * and without the last-update annotation: the plan cannot know when the updater last changed them.
 */
export function managedFieldsNote(pods: readonly V1Pod[]): string | undefined {
  const blind = pods.filter((p) => p.metadata?.managedFields === undefined && p.metadata?.annotations?.[LAST_UPDATE_ANNOTATION] === undefined);
  if (blind.length === 0) return undefined;
  return (
    `${blind.length} pod(s) have no managedFields (kubectl get leaves them out unless --show-managed-fields), so when the updater last changed them is unknown ` +
    'and the cooldown cannot hold them back: this plan may resize where the running updater waits. For an exact plan: kubectl get ... -o yaml --show-managed-fields'
  );
}

/** The plan as data (`--format json|yaml`). */
export interface PlanReport {
  decisions: PodDecision[];
  notes: string[];
  /** Early memory warnings from the usage (75% / 85% of the limit, several pods of a workload); empty without usage. */
  memoryWarnings: MemoryWarnings;
}

async function readObjects(file: string): Promise<Json[]> {
  let text: string;
  try {
    text = await readInput(file);
  } catch (e) {
    throw readFailure(file, e);
  }
  return objectsIn(text, file);
}

/** `--server-version`: `1.34` (or `v1.34.2`), 1.x up to the newest version whose rules are known. */
function planServerVersion(text: string): ServerVersion {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(text.trim());
  const version = m ? parseServerVersion({ major: m[1]!, minor: m[2]! }) : undefined;
  if (!version) throw new UsageError(`--server-version must look like 1.34, got ${text}`);
  const newest = `${NEWEST_KNOWN_VERSION.major}.${NEWEST_KNOWN_VERSION.minor}`;
  if (!isKnownServerVersion(version)) throw new UsageError(`--server-version ${text} is not supported: Tailor knows the resize rules of Kubernetes 1.0 to ${newest} (in place from 1.27 with --feature-gate, 1.33 without)`);
  return version;
}

async function runPlan(flags: PlanFlags, now: number, out: NodeJS.WritableStream, err: NodeJS.WritableStream, usage: PlanUsage): Promise<void> {
  // The flags first: a bad value is a usage error whatever the files hold.
  const version = planServerVersion(flags.serverVersion);
  let at = now;
  if (flags.now) {
    try {
      at = parseRfc3339(flags.now);
    } catch (cause) {
      throw new UsageError(`--now: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
  }
  const budget = { resizes: count(flags.resizes, '--resizes'), evictions: count(flags.evictions, '--evictions') };
  const objects: Json[] = [];
  for (const file of flags.filename) objects.push(...(await readObjects(file)));
  const notes: string[] = [];
  const { groups, unmatched } = groupWorkloads(collectObjects(objects, err));
  const blind = managedFieldsNote(groups.flatMap((g) => g.pods));
  if (blind !== undefined) notes.push(blind);
  const options = updaterOptions({ ...usage.options, allowContainerRestart: flags.allowRestart });
  if (usage.source) {
    const read = await readUsage(usage.source, namespacesOf(groups), at, options);
    if (read.available) {
      attachUsage(groups, read.usage);
      err.write(`memory usage from Prometheus for ${read.usage.size} pod(s)\n`);
    } else {
      const why = read.error instanceof Error ? read.error.message : String(read.error);
      err.write(`memory usage unavailable (${why}): planned without it, so no memory limit is lowered and the pressure guard is off\n`);
    }
  }
  const decisions = plan({
    options,
    capabilities: serverCapabilities(version, flags.featureGate),
    now: at,
    groups,
    budget,
  });
  if (unmatched.length > 0) notes.push(`${unmatched.length} pod(s) not targeted by any VPA in the input`);
  for (const note of notes) err.write(`${note}\n`);
  const format = flags.format ?? 'text';
  const warnings = memoryWarnings(groups);
  const report: PlanReport = { decisions, notes, memoryWarnings: warnings };
  const warningLines = formatMemoryWarnings(warnings, options.memoryPressureWindowMs).map((l) => `${l}\n`).join('');
  await writeResult(format === 'text' ? `${formatPlan(decisions)}\n${warningLines}` : serialize(report, format), flags.output, out);
}

/** Registers `tailor plan`. */
export function registerPlan(program: Command): void {
  const command = program
    .command('plan')
    .description('Dry-run the updater on Pods, VPAs, workloads, LimitRanges and HPAs read from YAML/JSON files')
    .requiredOption('-f, --filename <files...>', 'YAML or JSON files (several documents or kind: List each), e.g. from kubectl get -o yaml; - reads standard input')
    .addOption(formatOption(PLAN_FORMATS, 'text'))
    .addOption(outputOption())
    .addOption(new Option('--server-version <major.minor>', 'Kubernetes version whose resize rules apply (as tailor sim and tailor demo)').default(DEFAULT_SERVER_VERSION))
    .option('--feature-gate', 'InPlacePodVerticalScaling is on (1.27-1.32)', false)
    .option('--now <rfc3339>', 'plan as of this time (default: the current time)')
    .addOption(new Option('--resizes <n>', 'resizes this loop may make').default('1000'))
    .addOption(new Option('--evictions <n>', 'evictions this loop may make').default('1000'))
    .option('--allow-restart', 'allow resizes that restart containers for every VPA', false);
  addTableOptions(command, PLAN_USAGE_OPTIONS);
  command.action(async (flags: PlanFlags) => {
    // An invalid usage option is a usage error (InvalidConfigurationError): main() says so.
    const usage = await planUsage(commandLineValues(command, PLAN_USAGE_OPTIONS), process.env);
    await planFiles(flags, Date.now(), process.stdout, process.stderr, usage);
  });
}
