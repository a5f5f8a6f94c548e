/**
 * The work of `tailor plan`, loaded when the command runs: its flags checked, the objects read,
 * then the updater loop's own sequence (src/updater/plan-objects.ts: valid VPAs, workloads, recent
 * usage, the plan), and the decisions written with the notes a dry run on files needs. Changes
 * nothing anywhere.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { updaterOptions } from '../../policy/update-thresholds.ts';
import { LAST_UPDATE_ANNOTATION } from '../../updater/annotations.ts';
import type { PodDecision } from '../../updater/decision.ts';
import { formatPlan } from '../../updater/dry-run.ts';
import { formatMemoryWarnings } from '../../updater/memory-warning-report.ts';
import { memoryWarnings, type MemoryWarnings } from '../../updater/memory-warnings.ts';
import { planObjects, type InvalidVpa, type ObjectsPlan } from '../../updater/plan-objects.ts';
import { serverCapabilities } from '../../updater/server-capabilities.ts';
import { serialize, writeResult } from '../common-options.ts';
import { readPlanObjects } from './plan-input.ts';
import { planSettings, type PlanFlags, type PlanUsage } from './plan-options.ts';

/** The plan as data (`--format json|yaml`). */
export interface PlanReport {
  decisions: PodDecision[];
  notes: string[];
  /** Early memory warnings from the usage (75% / 85% of the limit, several pods of a workload); empty without usage. */
  memoryWarnings: MemoryWarnings;
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

/** `VerticalPodAutoscaler/web: skipped: spec.updatePolicy.updateMode: ...; ...`. */
function skippedLine({ raw, errors }: InvalidVpa): string {
  const name = (raw as { metadata?: { name?: unknown } }).metadata?.name;
  return `VerticalPodAutoscaler/${String(name)}: skipped: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}\n`;
}

/** What the usage read gave, in words (only when a source was configured). */
function usageLine(read: ObjectsPlan['usage']): string {
  if (read.available) return `memory usage from Prometheus for ${read.usage.size} pod(s)\n`;
  const why = read.error instanceof Error ? read.error.message : String(read.error);
  return `memory usage unavailable (${why}): planned without it, so no memory limit is lowered and the pressure guard is off\n`;
}

/**
 * Runs the dry run; `now` is the clock (ms). Throws {@link UsageError} for a bad flag value (exit
 * code 2), before any file is read.
 */
export async function planFiles(
  flags: PlanFlags,
  now: number,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  usage: PlanUsage = { options: {} },
): Promise<void> {
  // The flags first: a bad value is a usage error whatever the files hold.
  const { version, at, budget } = planSettings(flags, now);
  const objects = await readPlanObjects(flags.filename);
  const options = updaterOptions({ ...usage.options, allowContainerRestart: flags.allowRestart });
  const result = await planObjects({
    objects,
    ...(usage.source ? { usage: usage.source } : {}),
    options,
    capabilities: serverCapabilities(version, flags.featureGate),
    now: at,
    budget,
  });
  const { decisions, groups, unmatched } = result;
  for (const invalid of result.invalidVpas) err.write(skippedLine(invalid));
  if (usage.source) err.write(usageLine(result.usage));
  const notes: string[] = [];
  const blind = managedFieldsNote(groups.flatMap((g) => g.pods));
  if (blind !== undefined) notes.push(blind);
  if (unmatched.length > 0) notes.push(`${unmatched.length} pod(s) not targeted by any VPA in the input`);
  for (const note of notes) err.write(`${note}\n`);
  const format = flags.format ?? 'text';
  const warnings = memoryWarnings(groups);
  const report: PlanReport = { decisions, notes, memoryWarnings: warnings };
  const warningLines = formatMemoryWarnings(warnings, options.memoryPressureWindowMs)
    .map((l) => `${l}\n`)
    .join('');
  await writeResult(format === 'text' ? `${formatPlan(decisions)}\n${warningLines}` : serialize(report, format), flags.output, out);
}
