/**
 * The LimitRange constraints of a namespace, merged and as numbers. Several LimitRange objects (or
 * items) all apply, so the merge keeps the strictest: the largest min, the smallest max and the
 * smallest maxLimitRequestRatio. Only `Container` and `Pod` items matter here; defaults are not
 * used (the LimitRanger admission plugin has already applied them to the pod, and the policy
 * never adds a limit). A malformed quantity in a LimitRange is skipped: the API server validated
 * these objects, and a bad value must not stop resizing everywhere else.
 */
import type { V1LimitRange } from '@kubernetes/client-node';
import { parseQuantity } from 'kube-basics/quantity';
import { RESOURCE_NAMES, type ResourceName } from 'kube-basics/resources';
import { parseAmount } from './container-values.ts';

/** Bounds for one resource. `maxRatioMilli` is maxLimitRequestRatio x 1000 (`"1.5"` -> 1500). */
export interface ResourceBounds {
  min?: number;
  max?: number;
  maxRatioMilli?: number;
}

/** Per resource bounds, per container and per pod (sums over the pod's containers). */
export interface LimitRangeConstraints {
  container: Record<ResourceName, ResourceBounds>;
  pod: Record<ResourceName, ResourceBounds>;
}

function emptyBounds(): Record<ResourceName, ResourceBounds> {
  return { cpu: {}, memory: {} };
}

function tryParse(parse: () => number): number | undefined {
  try {
    const value = parse();
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function tighten(bounds: ResourceBounds, key: keyof ResourceBounds, value: number | undefined, keep: (a: number, b: number) => number): void {
  if (value === undefined) return;
  const current = bounds[key];
  bounds[key] = current === undefined ? value : keep(current, value);
}

/** Merges the namespace's LimitRanges into the strictest constraints per resource. */
export function limitRangeConstraints(limitRanges: readonly V1LimitRange[] | undefined): LimitRangeConstraints {
  const out: LimitRangeConstraints = { container: emptyBounds(), pod: emptyBounds() };
  for (const lr of limitRanges ?? []) {
    for (const item of lr.spec?.limits ?? []) {
      const target = item.type === 'Container' ? out.container : item.type === 'Pod' ? out.pod : undefined;
      if (!target) continue;
      for (const name of RESOURCE_NAMES) {
        const min = item.min?.[name];
        const max = item.max?.[name];
        const ratio = item.maxLimitRequestRatio?.[name];
        if (min !== undefined)
          tighten(
            target[name],
            'min',
            tryParse(() => parseAmount(name, min)),
            Math.max,
          );
        if (max !== undefined)
          tighten(
            target[name],
            'max',
            tryParse(() => parseAmount(name, max)),
            Math.min,
          );
        // Kubernetes requires the ratio to be >= 1; a smaller one could not be met and is ignored.
        const milli = ratio === undefined ? undefined : tryParse(() => parseQuantity(ratio, 3));
        if (milli !== undefined && milli >= 1000) tighten(target[name], 'maxRatioMilli', milli, Math.min);
      }
    }
  }
  return out;
}
