/**
 * PodDisruptionBudget status, computed the way the disruption controller does:
 * - pods: the pods in the PDB's namespace matching its selector (policy/v1: an empty selector
 *   matches every pod in the namespace);
 * - currentHealthy: those that are Ready and not being deleted;
 * - minAvailable N: desiredHealthy = N, expectedPods = number of pods;
 * - minAvailable P% or maxUnavailable: expectedPods = the replicas of the pods' controllers
 *   (Deployment through its ReplicaSet, ReplicaSet, StatefulSet), percentages rounded up;
 *   desiredHealthy = ceil(P% x expected), or expected - maxUnavailable;
 * - disruptionsAllowed = max(0, currentHealthy - desiredHealthy).
 *
 * Worked example: 3 ready replicas of a Deployment with replicas 3 and maxUnavailable 25%:
 * ceil(0.25 x 3) = 1, desiredHealthy = 2, disruptionsAllowed = 1.
 */
import { compileLabelSelector, matchesLabels, type LabelSelectorObject } from './label-selector.ts';
import type { KubeObject } from './types.ts';

/** What the computation reads besides the PDB and its pods. */
export interface ControllerLookup {
  /** The controller owner of a pod resolved to its top-level scalable workload, if any. */
  replicasOfController(pod: KubeObject): { uid: string; replicas: number } | undefined;
}

/** The computed PDB status fields. */
export interface DisruptionStatus {
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  disruptionsAllowed: number;
  /** Set when the budget cannot be computed (e.g. a pod without a controller). */
  error?: string;
}

interface PdbSpec {
  selector?: LabelSelectorObject | null;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}

/** True when the PDB selects the pod (same namespace assumed). */
export function pdbSelectsPod(pdb: KubeObject, pod: KubeObject): boolean {
  const spec = (pdb.spec ?? {}) as PdbSpec;
  if (spec.selector === undefined || spec.selector === null) return false;
  return matchesLabels(compileLabelSelector(spec.selector), pod.metadata.labels);
}

/** True when the pod is Ready and not terminating. */
export function isPodHealthy(pod: KubeObject): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const conditions = (pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Resolves an int-or-percent against a total: `25%` of 3 rounded up is 1. */
export function scaledValue(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) return Number(value) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** Computes the status of one PDB over the pods it selects. */
export function computeDisruptionStatus(pdb: KubeObject, pods: readonly KubeObject[], lookup: ControllerLookup): DisruptionStatus {
  const spec = (pdb.spec ?? {}) as PdbSpec;
  const selected = pods.filter((p) => pdbSelectsPod(pdb, p));
  const currentHealthy = selected.filter(isPodHealthy).length;
  let expectedPods = selected.length;
  let desiredHealthy = 0;
  const needsControllers = spec.maxUnavailable !== undefined || (typeof spec.minAvailable === 'string' && spec.minAvailable.endsWith('%'));
  if (needsControllers) {
    const controllers = new Map<string, number>();
    for (const pod of selected) {
      const c = lookup.replicasOfController(pod);
      if (!c) {
        return {
          currentHealthy,
          desiredHealthy: 0,
          expectedPods: 0,
          disruptionsAllowed: 0,
          error: `found no controllers for pod "${pod.metadata.name ?? ''}"`,
        };
      }
      controllers.set(c.uid, c.replicas);
    }
    expectedPods = [...controllers.values()].reduce((a, b) => a + b, 0);
    if (spec.maxUnavailable !== undefined) desiredHealthy = Math.max(0, expectedPods - scaledValue(spec.maxUnavailable, expectedPods, true));
    else desiredHealthy = scaledValue(spec.minAvailable as string, expectedPods, true);
  } else if (spec.minAvailable !== undefined) {
    desiredHealthy = scaledValue(spec.minAvailable, expectedPods, true);
  }
  return { currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed: Math.max(0, currentHealthy - desiredHealthy) };
}
