/**
 * Which resources an HorizontalPodAutoscaler (autoscaling/v2) scales a workload on, in the way
 * that conflicts with a VPA: `Resource` or `ContainerResource` metrics with a `Utilization` target,
 * which is measured against the requests the VPA would change. `AverageValue` targets do not depend
 * on requests and are no conflict.
 */
import type { V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import type { NumericContainerRecommendation, ResourceAmounts } from '../api/vpa-quantities.ts';
import type { ResourceName } from '../model/types.ts';

/** cpu and/or memory, when the HPA scales on their utilisation. */
export function hpaUtilizationResources(hpa: V2HorizontalPodAutoscaler): ResourceName[] {
  const out = new Set<ResourceName>();
  for (const metric of hpa.spec?.metrics ?? []) {
    const source = metric.type === 'Resource' ? metric.resource : metric.type === 'ContainerResource' ? metric.containerResource : undefined;
    if (!source || source.target?.type !== 'Utilization') continue;
    if (source.name === 'cpu' || source.name === 'memory') out.add(source.name);
  }
  return (['cpu', 'memory'] as const).filter((r) => out.has(r));
}

/** The recommendation without the resources left to an HPA (target and bounds alike). */
export function withoutResources(rec: NumericContainerRecommendation, excluded: readonly ResourceName[]): NumericContainerRecommendation {
  const strip = (a: ResourceAmounts | undefined): ResourceAmounts | undefined => {
    if (!a) return a;
    const out: ResourceAmounts = { ...a };
    for (const r of excluded) delete out[r];
    return out;
  };
  const out: NumericContainerRecommendation = { containerName: rec.containerName, target: strip(rec.target)! };
  if (rec.lowerBound) out.lowerBound = strip(rec.lowerBound)!;
  if (rec.upperBound) out.upperBound = strip(rec.upperBound)!;
  if (rec.uncappedTarget) out.uncappedTarget = strip(rec.uncappedTarget)!;
  return out;
}
