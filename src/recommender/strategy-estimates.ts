/**
 * The estimates of a strategy's models (`--recommender-strategy tailor`) for a VPA's status. A
 * VPA status holds finite quantities, but tailor's memory upper bound is infinite during its first
 * 6 hours ("never decrease yet": a peak may still be to come). That bound becomes the largest
 * current memory request of the container (at least the target), which keeps the meaning: no
 * request in force is above the upper bound, so none is lowered.
 *
 * Worked number: target 300 MiB, upper bound Infinity, pods requesting 256 MiB and 512 MiB ->
 * upper bound 512 MiB; with no request known -> 300 MiB (the target).
 */
import type { ResourceEstimate, UsageModel } from '../model/types.ts';

/** Estimates by container (copies), with every non-finite bound replaced as above. */
export function strategyEstimates(
  models: ReadonlyMap<string, UsageModel>,
  now: number,
  currentRequest: (container: string) => { cpu?: number; memory?: number },
): Map<string, ResourceEstimate> {
  const out = new Map<string, ResourceEstimate>();
  for (const [name, model] of models) {
    const e = model.estimate(now);
    if (!e) continue;
    const requests = currentRequest(name);
    const finite = (bound: number, target: number, request: number | undefined) => (Number.isFinite(bound) ? bound : Math.max(target, request ?? 0));
    out.set(name, {
      target: { ...e.target },
      lowerBound: { cpu: finite(e.lowerBound.cpu, e.target.cpu, 0), memory: finite(e.lowerBound.memory, e.target.memory, 0) },
      upperBound: { cpu: finite(e.upperBound.cpu, e.target.cpu, requests.cpu), memory: finite(e.upperBound.memory, e.target.memory, requests.memory) },
    });
  }
  return out;
}
