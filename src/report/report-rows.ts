/**
 * Pure assembly of the report: per workload container, the current requests and limits (from
 * kube-state-metrics, the largest across the workload's current pods), the recommendation with
 * bounds, the difference and the estimated savings.
 *
 * Savings = (request - target) x pods: a Deployment of 3 pods requesting 500m whose target is
 * 200m saves 900m; a negative value means the workload needs more than it asks for. Without a
 * request there is nothing to compare, so no difference and no savings.
 *
 * Young history is said, not hidden: an upper bound the strategy leaves open (tailor's Infinity in
 * its first 6 hours, the upstream model's saturated 1e14 with no history) becomes "no upper bound
 * yet" instead of a number, and a row with less than a day of history or an open bound has low
 * confidence: its savings are left out (decision 0176).
 */
import type { ContainerResources } from '../metrics/metrics-source.ts';
import type { OwnerIndex, WorkloadRef } from '../metrics/owner-resolution.ts';
import { MODEL_DEFAULTS } from '../model/model-options.ts';
import type { ResourceEstimate } from '../model/types.ts';
import type { WorkloadContainer } from './workload-usage.ts';
import type { RowRisk } from './usage-risk.ts';

/** Numbers of one resource in the recommender's units (CPU millicores, memory bytes). */
export interface ResourceLine {
  request?: number;
  limit?: number;
  target?: number;
  lowerBound?: number;
  upperBound?: number;
  /** Set when the strategy gave no usable upper bound yet (young history); `upperBound` is then absent. */
  upperBoundOpen?: true;
  /** target - request. */
  difference?: number;
  /** (request - target) x pods; absent when the row has low confidence. */
  savings?: number;
}

/** Less history than this (or an open bound) gives a row low confidence. */
export const CONFIDENT_HISTORY_MS = 24 * 3600_000;

export interface ReportRow {
  /**
   * The cluster the row belongs to, in a run over several clusters (`--context` repeated,
   * `--all-contexts`, `--all-clusters`, `--cluster`: clusters.ts); absent in a single-cluster run.
   */
  cluster?: string;
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
  /** `low` with less than {@link CONFIDENT_HISTORY_MS} of history or an open bound: not counted in the savings. */
  confidence: 'normal' | 'low';
  /** From the first to the last CPU sample (ms). */
  historyMs: number;
  /** The risk the targets take on the row's own history (usage-risk.ts). */
  risk: RowRisk;
  /** Short notes for people, e.g. "no upper bound yet". */
  notes: string[];
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

/**
 * A bound that says "unbounded": not finite, or saturated at the model's maximum amount (1e14
 * millicores or bytes, which would print as `100000000000` cores or `95367432Mi`).
 */
export function isOpenBound(value: number): boolean {
  return !Number.isFinite(value) || value >= MODEL_DEFAULTS.maxResourceAmount;
}

/** A finite, non-negative figure, or undefined (never NaN or Infinity in a row). */
const finite = (v: number) => (Number.isFinite(v) && v >= 0 ? v : undefined);

function line(resource: 'cpu' | 'memory', current: Current | undefined, estimate: ResourceEstimate | undefined, counted: boolean): ResourceLine {
  const request = current?.requests[resource];
  const out: ResourceLine = { request, limit: current?.limits[resource] };
  if (estimate) {
    const target = finite(estimate.target[resource]);
    out.target = target;
    out.lowerBound = finite(estimate.lowerBound[resource]);
    if (isOpenBound(estimate.upperBound[resource])) out.upperBoundOpen = true;
    else out.upperBound = finite(estimate.upperBound[resource]);
    if (request !== undefined && target !== undefined) {
      out.difference = target - request;
      if (counted) out.savings = (request - target) * (current?.pods ?? 0);
    }
  }
  return out;
}

const hours = (ms: number) => (ms < 3600_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 3600_000)} h`);

/** Low confidence and its reasons, for an estimate with `historyMs` behind it. */
function confidenceOf(estimate: ResourceEstimate | undefined, historyMs: number): { low: boolean; notes: string[] } {
  if (!estimate) return { low: true, notes: [] };
  const notes: string[] = [];
  const open = (['cpu', 'memory'] as const).filter((r) => isOpenBound(estimate.upperBound[r]));
  if (open.length > 0) notes.push(`no ${open.join('/')} upper bound yet`);
  if (historyMs < CONFIDENT_HISTORY_MS) notes.push(`low confidence: ${hours(historyMs)} of history (24 h wanted)`);
  else if (open.length > 0) notes.push('low confidence');
  return { low: notes.length > 0, notes };
}

/** One row per modelled workload container, estimated at `now`. */
export function buildRows(containers: readonly WorkloadContainer[], current: ReadonlyMap<string, Current>, now: number): ReportRow[] {
  return containers.map((wc) => {
    const cur = current.get(rowId(wc.namespace, wc.workload, wc.container));
    const estimate = wc.model.estimate(now);
    const historyMs = wc.firstCpuAt === undefined || wc.lastCpuAt === undefined ? 0 : wc.lastCpuAt - wc.firstCpuAt;
    const confidence = confidenceOf(estimate, historyMs);
    const cpu = line('cpu', cur, estimate, !confidence.low);
    const memory = line('memory', cur, estimate, !confidence.low);
    return {
      namespace: wc.namespace,
      workload: wc.workload,
      container: wc.container,
      pods: cur?.pods ?? 0,
      cpuSamples: wc.cpuSamples,
      memorySamples: wc.memorySamples,
      ooms: wc.ooms,
      status: estimate ? 'ok' : 'insufficient-data',
      confidence: confidence.low ? 'low' : 'normal',
      historyMs,
      risk: wc.risk.against({ cpu: cpu.target, memory: memory.target }),
      notes: confidence.notes,
      cpu,
      memory,
    };
  });
}
