/**
 * Pure assembly of the report: per workload container, the current requests and limits (from
 * kube-state-metrics, the largest across the workload's current pods), the recommendation with
 * bounds, the difference and the estimated savings.
 *
 * Savings = (request - target) x pods: a Deployment of 3 pods requesting 500m whose target is
 * 200m saves 900m; a negative value means the workload needs more than it asks for. Without a
 * request there is nothing to compare, so no difference and no savings.
 */
import type { ContainerResources } from '../metrics/metrics-source.ts';
import type { OwnerIndex, WorkloadRef } from '../metrics/owner-resolution.ts';
import type { ResourceEstimate } from '../recommender/types.ts';
import type { WorkloadContainer } from './workload-usage.ts';

/** Numbers of one resource in the recommender's units (CPU millicores, memory bytes). */
export interface ResourceLine {
  request?: number;
  limit?: number;
  target?: number;
  lowerBound?: number;
  upperBound?: number;
  /** target - request. */
  difference?: number;
  /** (request - target) x pods. */
  savings?: number;
}

export interface ReportRow {
  namespace: string;
  workload: WorkloadRef;
  container: string;
  /** Pods of the workload with current requests. */
  pods: number;
  cpuSamples: number;
  memorySamples: number;
  ooms: number;
  /** `ok`, or `insufficient-data` when the strategy has too little history to estimate. */
  status: 'ok' | 'insufficient-data';
  cpu: ResourceLine;
  memory: ResourceLine;
}

interface Current {
  pods: number;
  requests: { cpu?: number; memory?: number };
  limits: { cpu?: number; memory?: number };
}

const max = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));

/** Current resources per workload container, in millicores and bytes. */
export function currentByWorkload(resources: readonly ContainerResources[], owners: OwnerIndex): Map<string, Current> {
  const out = new Map<string, Current>();
  for (const r of resources) {
    const w = owners.workloadOf(r.key.namespace, r.key.pod);
    const id = rowId(r.key.namespace, w, r.key.container);
    const c = out.get(id) ?? { pods: 0, requests: {}, limits: {} };
    c.pods++;
    const milli = (cores: number | undefined) => (cores === undefined ? undefined : Math.round(cores * 1000));
    c.requests.cpu = max(c.requests.cpu, milli(r.requests.cpu));
    c.requests.memory = max(c.requests.memory, r.requests.memory);
    c.limits.cpu = max(c.limits.cpu, milli(r.limits.cpu));
    c.limits.memory = max(c.limits.memory, r.limits.memory);
    out.set(id, c);
  }
  return out;
}

/** The key of a row. */
export function rowId(namespace: string, workload: WorkloadRef, container: string): string {
  return `${namespace}\u0000${workload.kind}\u0000${workload.name}\u0000${container}`;
}

function line(resource: 'cpu' | 'memory', current: Current | undefined, estimate: ResourceEstimate | undefined): ResourceLine {
  const request = current?.requests[resource];
  const out: ResourceLine = { request, limit: current?.limits[resource] };
  if (estimate) {
    out.target = estimate.target[resource];
    out.lowerBound = estimate.lowerBound[resource];
    out.upperBound = estimate.upperBound[resource];
    if (request !== undefined) {
      out.difference = out.target - request;
      out.savings = (request - out.target) * (current?.pods ?? 0);
    }
  }
  return out;
}

/** One row per modelled workload container, estimated at `now`. */
export function buildRows(containers: readonly WorkloadContainer[], current: ReadonlyMap<string, Current>, now: number): ReportRow[] {
  return containers.map((wc) => {
    const cur = current.get(rowId(wc.namespace, wc.workload, wc.container));
    const estimate = wc.model.estimate(now);
    return {
      namespace: wc.namespace,
      workload: wc.workload,
      container: wc.container,
      pods: cur?.pods ?? 0,
      cpuSamples: wc.cpuSamples,
      memorySamples: wc.memorySamples,
      ooms: wc.ooms,
      status: estimate ? 'ok' : 'insufficient-data',
      cpu: line('cpu', cur, estimate),
      memory: line('memory', cur, estimate),
    };
  });
}
