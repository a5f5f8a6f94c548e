/**
 * Reading `goldilocks summary` (Fairwinds Goldilocks' JSON report of the VPAs it manages) against the
 * VPA status it was made from, for goldilocks.lane.ts. Goldilocks copies each container
 * recommendation's four bounds as they are, but rounds memory up for display (its
 * utils.FormatResourceList): to a whole MiB from 1 MiB on, to a whole KiB below. CPU is unchanged.
 */
import { parseCpu, parseMemory } from 'kube-basics/quantity';

/** The four bounds of a container recommendation, as the VPA status and Goldilocks name them. */
export const BOUNDS = ['lowerBound', 'target', 'upperBound', 'uncappedTarget'] as const;
export type Bound = (typeof BOUNDS)[number];
export type Bounds = Partial<Record<Bound, Record<string, string>>>;
export interface StatusRecommendation extends Bounds {
  containerName: string;
}

const KI = 1024;
const MI = 1024 * 1024;

/**
 * The number Goldilocks shows for a quantity: millicores for cpu; bytes for memory, rounded up as
 * its summary does. Example: 100000000 bytes (95.37 MiB) shows as 96Mi = 100663296; 1000 bytes as 1Ki.
 */
export function shownAmount(resource: string, quantity: string): number {
  if (resource === 'cpu') return parseCpu(quantity);
  const bytes = parseMemory(quantity);
  const step = bytes < MI ? KI : MI;
  return Math.ceil(bytes / step) * step;
}

/** The containers of one workload in `goldilocks summary` JSON: name → its bounds. */
export function summaryContainers(summary: unknown, namespace: string, workload: string): Map<string, Bounds> {
  const root = summary as { Namespaces?: Record<string, { workloads?: Record<string, { containers?: Record<string, Bounds> }> }> };
  const containers = root.Namespaces?.[namespace]?.workloads?.[workload]?.containers ?? {};
  return new Map(Object.entries(containers));
}

/**
 * What differs between the VPA status and the summary: one line per container, bound and resource
 * whose shown value is not the status' (rounded as above), or that is missing. Empty when they agree.
 */
export function summaryMismatches(status: readonly StatusRecommendation[], shown: Map<string, Bounds>): string[] {
  const out: string[] = [];
  for (const rec of status) {
    const got = shown.get(rec.containerName);
    if (!got) {
      out.push(`${rec.containerName}: not in the summary`);
      continue;
    }
    for (const bound of BOUNDS) {
      for (const [resource, quantity] of Object.entries(rec[bound] ?? {})) {
        const value = got[bound]?.[resource];
        if (value === undefined) out.push(`${rec.containerName} ${bound} ${resource}: missing (status ${quantity})`);
        else if (shownAmount(resource, value) !== shownAmount(resource, quantity))
          out.push(`${rec.containerName} ${bound} ${resource}: ${value}, status ${quantity}`);
      }
    }
  }
  for (const name of shown.keys()) {
    if (!status.some((r) => r.containerName === name)) out.push(`${name}: in the summary, not in the status`);
  }
  return out;
}
