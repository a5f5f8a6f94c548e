/**
 * Which checkpoints to delete: those whose VPA no longer exists in their namespace. Checkpoints of
 * a VPA that exists but is handled by another recommender are left alone (they are its history).
 * Worked example: checkpoints `web-app` (VPA web) and `old-app` (VPA old) with only VPA web left
 * -> delete `old-app`.
 */
import type { VerticalPodAutoscalerCheckpoint } from '../api/vpa-checkpoint.ts';

/** `namespace/name` of every checkpoint whose VPA (`spec.vpaObjectName`) is not in `existingVpas` (ids `namespace/name`). */
export function orphanCheckpoints(
  checkpoints: readonly VerticalPodAutoscalerCheckpoint[],
  existingVpas: ReadonlySet<string>,
): Array<{ namespace: string; name: string }> {
  const out: Array<{ namespace: string; name: string }> = [];
  for (const c of checkpoints) {
    const namespace = c.metadata.namespace ?? '';
    const vpa = c.spec?.vpaObjectName;
    if (vpa === undefined || !existingVpas.has(`${namespace}/${vpa}`)) out.push({ namespace, name: c.metadata.name });
  }
  return out;
}
