/**
 * Readable VPA builders for updater tests:
 *   vpa({ mode: 'InPlaceOrRecreate', recommend: { app: { target: { cpu: '200m' }, lower: { cpu: '150m' }, upper: { cpu: '400m' } } } })
 */
import type { ContainerResourcePolicy, RecommendedContainerResources, ResourceList, UpdateMode, VerticalPodAutoscaler } from '../../src/api/vpa.ts';

/** One container's recommendation as a test writes it. */
export interface RecommendationSketch {
  target: ResourceList;
  lower?: ResourceList;
  upper?: ResourceList;
}

/** A VPA as a test describes it. */
export interface VpaSketch {
  mode?: UpdateMode;
  recommend?: Record<string, RecommendationSketch>;
  policies?: ContainerResourcePolicy[];
  minReplicas?: number;
  annotations?: Record<string, string>;
  evictionRequirements?: NonNullable<VerticalPodAutoscaler['spec']['updatePolicy']>['evictionRequirements'];
  /** Upstream 1.8's `updatePolicy.evictAfterOOMSeconds`. */
  evictAfterOOMSeconds?: number;
  /** Upstream 1.8's `spec.startupBoost`. */
  startupBoost?: VerticalPodAutoscaler['spec']['startupBoost'];
}

/** Builds a VerticalPodAutoscaler for the Deployment `web`. */
export function vpa(sketch: VpaSketch = {}): VerticalPodAutoscaler {
  const v: VerticalPodAutoscaler = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: sketch.mode ?? 'InPlaceOrRecreate' } },
  };
  if (sketch.minReplicas !== undefined) v.spec.updatePolicy!.minReplicas = sketch.minReplicas;
  if (sketch.evictionRequirements) v.spec.updatePolicy!.evictionRequirements = sketch.evictionRequirements;
  if (sketch.evictAfterOOMSeconds !== undefined) v.spec.updatePolicy!.evictAfterOOMSeconds = sketch.evictAfterOOMSeconds;
  if (sketch.startupBoost) v.spec.startupBoost = sketch.startupBoost;
  if (sketch.policies) v.spec.resourcePolicy = { containerPolicies: sketch.policies };
  if (sketch.annotations) v.metadata.annotations = { ...sketch.annotations };
  if (sketch.recommend) {
    const containerRecommendations: RecommendedContainerResources[] = Object.entries(sketch.recommend).map(([containerName, r]) => {
      const out: RecommendedContainerResources = { containerName, target: r.target };
      if (r.lower) out.lowerBound = r.lower;
      if (r.upper) out.upperBound = r.upper;
      return out;
    });
    v.status = { recommendation: { containerRecommendations } };
  }
  return v;
}
