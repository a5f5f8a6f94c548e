/**
 * The demo's `kubectl rollout restart`: a Deployment named in the scenario's `rolloutRestart` is
 * restarted once, as soon as its VPA has a recommendation, so that its new pod goes through the
 * admission webhook while the demo runs (the pods made at start predate Tailor). The boot
 * workload's new pod gets its start-up CPU boost that way. Pure.
 */
import type { VerticalPodAutoscaler } from '../api/vpa.ts';

/** The annotation `kubectl rollout restart` sets on the pod template. */
export const RESTARTED_AT_ANNOTATION = 'kubectl.kubernetes.io/restartedAt';

/** The Deployments to restart now: named, not restarted yet, and their VPA has a recommendation. */
export function deploymentsToRestart(names: readonly string[], restarted: ReadonlySet<string>, vpas: readonly VerticalPodAutoscaler[]): string[] {
  return names.filter(
    (name) =>
      !restarted.has(name) &&
      vpas.some(
        (v) =>
          v.spec?.targetRef?.kind === 'Deployment' && v.spec.targetRef.name === name && (v.status?.recommendation?.containerRecommendations?.length ?? 0) > 0,
      ),
  );
}
