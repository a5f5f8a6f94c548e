/**
 * Which VPA controls a workload's pods when several VPAs target it. The recommender, the updater
 * and the admission webhook all decide with this one rule, so a pod has one owner in all three
 * (decision 0277).
 *
 * The rule is upstream's `GetControllingVPAForPod` and `Stronger` (pkg/utils/vpa/api.go, VPA
 * 1.8.1):
 * - a VPA without `spec.targetRef` is skipped;
 * - a VPA counts when its namespace, `targetRef.kind` and `targetRef.name` are those of the pod's
 *   top-most controller (the API group and version are not compared);
 * - the oldest `creationTimestamp` wins; at the same time, the name that sorts first (byte order).
 *   A missing (or unreadable) time is Go's zero time, before every real one.
 *
 * Worked example: on Deployment shop/web, `b` created 09:00:00, `a` and `c` created 10:00:00 ->
 * `b`. Without `b`: `a` (same second, `a` < `c`).
 *
 * Upstream also requires the VPA's label selector, read from its target, to match the pod's
 * labels. This rule does not: the pods whose top-most controller is the target match the target's
 * selector by construction (the API server rejects a Deployment whose template labels its
 * selector does not match). Which VPAs are offered is the caller's choice (decision 0277).
 */
import { parseRfc3339 } from './rfc3339.ts';

/** A workload by namespace, kind and name (`shop`, `Deployment`, `web`). */
export interface WorkloadRef {
  kind: string;
  namespace: string;
  name: string;
}

/** The parts of a VPA the rule reads (a validated VPA or a raw object from a watch cache). */
export interface VpaOwnerFields {
  metadata?: { name?: string; namespace?: string; creationTimestamp?: string | Date };
  spec?: { targetRef?: { kind?: string; name?: string } | null };
}

/** `Deployment/shop/web`: one key per workload. */
export function workloadKey(ref: WorkloadRef): string {
  return `${ref.kind}/${ref.namespace}/${ref.name}`;
}

/** A namespace as the rule compares it: an object read from a file without one is in `default`. */
const namespaceOf = (namespace: string | undefined) => namespace || 'default';

/** The workload the VPA's targetRef names, or undefined without a targetRef. */
export function targetOf(vpa: VpaOwnerFields): WorkloadRef | undefined {
  const ref = vpa.spec?.targetRef;
  if (!ref) return undefined;
  return { kind: ref.kind ?? '', namespace: namespaceOf(vpa.metadata?.namespace), name: ref.name ?? '' };
}

/** True when the VPA's targetRef names the workload (namespace, kind, name). */
export function targetsWorkload(vpa: VpaOwnerFields, workload: WorkloadRef): boolean {
  const target = targetOf(vpa);
  return target !== undefined && target.kind === workload.kind && target.name === workload.name && target.namespace === namespaceOf(workload.namespace);
}

/** Go's zero `time.Time`, 0001-01-01T00:00:00Z, in ms since the epoch (-62,135,596,800 s). */
const ZERO_TIME = -62_135_596_800_000;

/** ms since the epoch; a missing or unreadable time is the zero time (0001-01-01), as in Go. */
function createdAt(vpa: VpaOwnerFields): number {
  const t = vpa.metadata?.creationTimestamp;
  if (t instanceof Date) return Number.isNaN(t.getTime()) ? ZERO_TIME : t.getTime();
  if (!t) return ZERO_TIME;
  try {
    return parseRfc3339(t);
  } catch {
    return ZERO_TIME;
  }
}

/** True when `a` comes before `b` in the order to control a pod (upstream's `Stronger`); any VPA beats none. */
export function stronger(a: VpaOwnerFields, b: VpaOwnerFields | undefined): boolean {
  if (b === undefined) return true;
  const ta = createdAt(a);
  const tb = createdAt(b);
  if (ta !== tb) return ta < tb;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '');
}

/** The VPA that controls the workload's pods, or undefined when none targets it. Pure. */
export function controllingVpa<V extends VpaOwnerFields>(vpas: Iterable<V>, workload: WorkloadRef): V | undefined {
  let best: V | undefined;
  for (const vpa of vpas) {
    if (targetsWorkload(vpa, workload) && stronger(vpa, best)) best = vpa;
  }
  return best;
}

/**
 * The controlling VPA of every workload some VPA targets, by {@link workloadKey}; one pass over the
 * VPAs (10,000 VPAs: no scan per workload). Map order: each workload where its first VPA appears.
 */
export function controllingVpas<V extends VpaOwnerFields>(vpas: Iterable<V>): Map<string, V> {
  const owners = new Map<string, V>();
  for (const vpa of vpas) {
    const target = targetOf(vpa);
    if (!target) continue;
    const key = workloadKey(target);
    if (stronger(vpa, owners.get(key))) owners.set(key, vpa);
  }
  return owners;
}
