/**
 * The targets handed to the policy for a pod. Containers with an OOM kill or under memory pressure
 * get a memory target of at least request x raiseFactor (512Mi x 1.5 = 768Mi); with `onlyUrgent`
 * (OOM/pressure are the only reasons to act), only those containers' memory changes.
 */
import type { NumericContainerRecommendation, ResourceAmounts } from '../api/vpa-quantities.ts';
import type { ContainerResourceValues } from '../policy/container-values.ts';
import type { ContainerTarget } from '../policy/pod-resources.ts';

/** The policy targets for the pod (see the file comment). */
export function policyTargets(
  recommendations: readonly NumericContainerRecommendation[],
  actual: ReadonlyMap<string, ContainerResourceValues>,
  urgent: ReadonlySet<string>,
  onlyUrgent: boolean,
  raiseFactor: number,
): ContainerTarget[] {
  const out: ContainerTarget[] = [];
  for (const rec of recommendations) {
    const name = rec.containerName;
    const isUrgent = urgent.has(name);
    if (onlyUrgent && !isUrgent) continue;
    const target: ResourceAmounts = onlyUrgent ? {} : { ...rec.target };
    if (isUrgent) {
      const request = actual.get(name)?.requests.memory;
      const raised = request === undefined ? undefined : Math.ceil(request * raiseFactor);
      const recommended = rec.target.memory;
      const memory = Math.max(recommended ?? 0, raised ?? 0);
      if (memory > 0 && (recommended !== undefined || raised !== undefined)) target.memory = memory;
    }
    if (Object.keys(target).length > 0) out.push({ containerName: name, target });
  }
  return out;
}
