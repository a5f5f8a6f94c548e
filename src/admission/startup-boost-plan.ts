/**
 * The webhook's start-up CPU boost (policy/startup-boost.ts): the pod's plan with each container's
 * CPU raised by its own boost (policy/vpa-startup-boost.ts: upstream 1.8's `startupBoost`, per
 * container or for the pod, else the `tailor.dev/` annotation), and the record of the steady
 * values the updater gives back, each container with its own end when it differs. Only app
 * containers (not init or sidecar containers) with a CPU request and cpu resizePolicy NotRequired
 * (or none) are boosted, so the return is an in-place resize that restarts nothing. A LimitRange's
 * maximum CPU per container caps the boost (the API server would refuse the pod). Under
 * `controlledValues: RequestsOnly` the limit stays and caps the request (a limit equal to the
 * request leaves nothing to boost). Pure.
 */
import type { V1LimitRange, V1Pod } from '@kubernetes/client-node';
import { limitRangeConstraints } from '../policy/limit-range.ts';
import type { PodResourcesPlan } from '../policy/pod-resources.ts';
import { boostCpu, formatBoostEnd, type BoostEnd, type BoostRecord } from '../policy/startup-boost.ts';
import type { ContainerStartupBoost } from '../policy/vpa-startup-boost.ts';
import { RESOURCE_NAMES } from '../model/types.ts';

/** The boosted plan, the record (absent when no container was boosted) and why some were not. */
export interface BoostedPlan {
  plan: PodResourcesPlan;
  record?: BoostRecord;
  notes: string[];
}

/** A container's boost (undefined: none). */
export type BoostLookup = (containerName: string) => ContainerStartupBoost | undefined;

/** Applies each container's boost to the plan (the plan's proposed values are the steady ones). */
export function withStartupBoost(pod: V1Pod, plan: PodResourcesPlan, boostFor: BoostLookup, limitRanges: readonly V1LimitRange[]): BoostedPlan {
  const max = limitRangeConstraints(limitRanges).container.cpu.max;
  const specs = new Map((pod.spec?.containers ?? []).map((c) => [c.name, c]));
  const notes: string[] = [];
  const containers: BoostRecord['containers'] = {};
  const ends: BoostEnd[] = [];
  const planned = plan.containers.map((c) => {
    const spec = specs.get(c.containerName);
    const boost = c.kind === 'container' && spec ? boostFor(c.containerName) : undefined;
    if (!spec || !boost) return c;
    const steady = c.proposed;
    if (steady.requests.cpu === undefined) {
      notes.push(`${c.containerName}: no cpu request, not boosted`);
      return c;
    }
    if (spec.resizePolicy?.some((p) => p.resourceName === 'cpu' && p.restartPolicy === 'RestartContainer')) {
      notes.push(`${c.containerName}: cpu resizePolicy RestartContainer, not boosted (giving it back would restart the container)`);
      return c;
    }
    let boosted = boostCpu(steady, boost.amount);
    if (boost.requestsOnly && steady.limits.cpu !== undefined) {
      // RequestsOnly: the limit is not Tailor's to change; it caps the boosted request.
      boosted = { requests: { ...boosted.requests, cpu: Math.min(boosted.requests.cpu ?? 0, steady.limits.cpu) }, limits: { ...steady.limits } };
      if (boosted.requests.cpu === steady.requests.cpu)
        notes.push(`${c.containerName}: controlledValues RequestsOnly and the cpu limit at the request, not boosted`);
    }
    if (max !== undefined && (boosted.requests.cpu ?? 0) > max) {
      const equal = boosted.limits.cpu === boosted.requests.cpu;
      boosted = { requests: { ...boosted.requests, cpu: Math.max(steady.requests.cpu, max) }, limits: { ...boosted.limits } };
      if (boosted.limits.cpu !== undefined)
        boosted.limits.cpu = equal ? boosted.requests.cpu : Math.max(steady.limits.cpu ?? 0, Math.min(boosted.limits.cpu, max));
      notes.push(`${c.containerName}: boost capped at the LimitRange maximum cpu`);
    }
    if (boosted.requests.cpu === steady.requests.cpu) return c;
    const first = ends[0];
    const own = first !== undefined && formatBoostEnd(first) !== formatBoostEnd(boost.until);
    if (first === undefined) ends.push(boost.until);
    containers[c.containerName] = {
      request: steady.requests.cpu,
      ...(steady.limits.cpu !== undefined ? { limit: steady.limits.cpu } : {}),
      ...(own ? { until: boost.until } : {}),
    };
    const changedResources = RESOURCE_NAMES.filter((r) => c.current.requests[r] !== boosted.requests[r] || c.current.limits[r] !== boosted.limits[r]);
    return { ...c, proposed: boosted, changedResources };
  });
  const until = ends[0];
  if (until === undefined) return { plan, notes };
  const untils = [...new Set(Object.values(containers).map((c) => formatBoostEnd(c.until ?? until)))];
  return {
    plan: { ...plan, containers: planned, changed: planned.some((c) => c.changedResources.length > 0) },
    record: { until, containers },
    notes: [`start-up cpu boost until ${untils.join(' / ')}`, ...notes],
  };
}
