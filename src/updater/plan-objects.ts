/**
 * The updater loop's sequence from objects to decisions, in one place for `tailor run`'s loop
 * (updater-loop.ts, from its watch caches) and `tailor plan` (from files): keep the VPAs that are
 * valid (and that this updater handles), group the pods into the workloads those VPAs target, read
 * the pods' recent memory usage for their namespaces and attach it, then plan (updater-plan.ts).
 * Only the usage read does I/O, through the injected source, and it never throws: without it the
 * planner lowers no memory limit and the pressure guard is off.
 */
import type { V1LimitRange, V1Pod, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import type { FieldError } from '../api/field-errors.ts';
import { validateVpa } from '../api/validate-vpa.ts';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { MemoryUsageSource } from '../metrics/memory-usage-source.ts';
import type { PodDecision } from './decision.ts';
import { plan, type PlanInput, type WorkloadGroup } from './updater-plan.ts';
import { attachUsage, namespacesOf, readUsage, type UsageRead } from './usage-reader.ts';
import { groupWorkloads, type WorkloadObject } from './workload-groups.ts';

/** The objects one loop plans from, as read: the VPAs not yet validated. */
export interface LoopObjects {
  pods: readonly V1Pod[];
  vpas: readonly unknown[];
  limitRanges: readonly V1LimitRange[];
  hpas: readonly V2HorizontalPodAutoscaler[];
  workloads: readonly WorkloadObject[];
}

/** What the sequence needs besides the objects: the planner's inputs and where usage comes from. */
export interface ObjectsPlanInput extends Omit<PlanInput, 'groups'> {
  objects: LoopObjects;
  /** Recent memory usage (Prometheus); absent: none is read. */
  usage?: MemoryUsageSource;
  /** Which valid VPAs this updater handles (namespace selection); default all. */
  handles?: (vpa: VerticalPodAutoscaler) => boolean;
}

/** A VPA that failed validation: its pods are left alone. */
export interface InvalidVpa {
  /** The object as read. */
  raw: unknown;
  errors: FieldError[];
}

/** The decisions, and what the sequence found on the way (for the caller to log, count or print). */
export interface ObjectsPlan {
  decisions: PodDecision[];
  groups: WorkloadGroup[];
  /** Pods no VPA targets. */
  unmatched: V1Pod[];
  invalidVpas: InvalidVpa[];
  usage: UsageRead;
}

/** Runs the loop's sequence on `input.objects` at `input.now`. */
export async function planObjects(input: ObjectsPlanInput): Promise<ObjectsPlan> {
  const { objects, usage: source, handles, ...planner } = input;
  const vpas: VerticalPodAutoscaler[] = [];
  const invalidVpas: InvalidVpa[] = [];
  for (const raw of objects.vpas) {
    const result = validateVpa(raw);
    if (!result.ok) invalidVpas.push({ raw, errors: result.errors });
    else if (!handles || handles(result.vpa)) vpas.push(result.vpa);
  }
  const { groups, unmatched } = groupWorkloads({
    pods: objects.pods,
    vpas,
    limitRanges: objects.limitRanges,
    hpas: objects.hpas,
    workloads: objects.workloads,
  });
  const usage = await readUsage(source, namespacesOf(groups), planner.now, planner.options);
  attachUsage(groups, usage.usage);
  return { decisions: plan({ ...planner, groups }), groups, unmatched, invalidVpas, usage };
}
