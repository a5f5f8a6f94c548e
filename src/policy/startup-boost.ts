/**
 * Start-up CPU boost: a new pod starts with more CPU than its steady request, and gets it back in
 * place once it has started. Pure.
 * - the boost: a factor (`2x`: twice the request), a fixed request (`1500m`: that much, when
 *   above the steady request) or an added amount (upstream 1.8's `type: Quantity`, `500m`: the
 *   steady request + 500m);
 * - its end: `ready` (when the pod turns Ready), `ready+30s` (30 s after), or `90s` (90 s after the
 *   pod started, Ready or not).
 * The QoS class is kept: a limit equal to the request (Guaranteed) moves with it; another limit is
 * scaled by the same ratio (never below what it was); no limit stays no limit.
 * The steady values are written on the pod (annotation `tailor.dev/startup-cpu-boost-record`, JSON) so the
 * updater returns exactly them: `{"until":"ready+30s","containers":{"app":{"request":250,"limit":500}}}`
 * (millicores; `limit` absent when the container has none; a container whose boost ends otherwise
 * than the record's `until` has its own: `"log":{"request":50,"until":"ready+180s"}`).
 */
import type { ContainerResourceValues } from './container-values.ts';

/** How much CPU the boost gives. */
export type BoostAmount = { kind: 'factor'; factor: number } | { kind: 'fixed'; millicores: number } | { kind: 'add'; millicores: number };

/** When the boost ends. */
export type BoostEnd = { kind: 'ready'; afterMs: number } | { kind: 'fixed'; afterStartMs: number };

/** The pod annotation with the steady values. */
export const BOOST_POD_ANNOTATION = 'tailor.dev/startup-cpu-boost-record';

/** The steady CPU of one container (millicores). */
export interface SteadyCpu {
  request: number;
  limit?: number;
  /** This container's end, when not the record's. */
  until?: BoostEnd;
}

/** What the webhook records on a boosted pod. */
export interface BoostRecord {
  until: BoostEnd;
  containers: Record<string, SteadyCpu>;
}

/** The boosted request for a steady one (whole millicores): 250m x 2 = 500m; fixed 1500m; 250m + 500m = 750m. */
export function boostedRequest(steady: number, amount: BoostAmount): number {
  if (amount.kind === 'factor') return Math.ceil(steady * amount.factor);
  if (amount.kind === 'add') return steady + amount.millicores;
  return Math.max(steady, amount.millicores);
}

/** The container's values with the CPU boosted (QoS kept); unchanged without a CPU request. */
export function boostCpu(values: ContainerResourceValues, amount: BoostAmount): ContainerResourceValues {
  const request = values.requests.cpu;
  if (request === undefined || request <= 0) return values;
  const boosted = boostedRequest(request, amount);
  const limit = values.limits.cpu;
  const limits = { ...values.limits };
  if (limit !== undefined) limits.cpu = limit === request ? boosted : Math.max(limit, Math.ceil((limit * boosted) / request));
  return { requests: { ...values.requests, cpu: boosted }, limits };
}

/** `ready`, `ready+30s`, `90s`: the end as written. */
export function formatBoostEnd(end: BoostEnd): string {
  if (end.kind === 'fixed') return `${end.afterStartMs / 1000}s`;
  return end.afterMs === 0 ? 'ready' : `ready+${end.afterMs / 1000}s`;
}

/** Reads `formatBoostEnd`'s text back; undefined if it is not one. */
export function parseBoostEnd(text: string): BoostEnd | undefined {
  const m = /^(?:(ready)(?:\+(\d+(?:\.\d+)?)s)?|(\d+(?:\.\d+)?)s)$/.exec(text.trim());
  if (!m) return undefined;
  if (m[1]) return { kind: 'ready', afterMs: m[2] ? Number(m[2]) * 1000 : 0 };
  return { kind: 'fixed', afterStartMs: Number(m[3]) * 1000 };
}

/** The annotation value for a record. */
export function formatBoostRecord(record: BoostRecord): string {
  const containers = Object.fromEntries(Object.entries(record.containers).map(([name, c]) => [name, c.until ? { ...c, until: formatBoostEnd(c.until) } : c]));
  return JSON.stringify({ until: formatBoostEnd(record.until), containers });
}

/** When a container's boost ends: its own end, else the record's. */
export function containerBoostEnd(record: BoostRecord, container: string): BoostEnd {
  return record.containers[container]?.until ?? record.until;
}

/** The record on a pod, or why it cannot be read; undefined when the pod has none. */
export function readBoostRecord(annotations: Readonly<Record<string, string>> | undefined): BoostRecord | { error: string } | undefined {
  const raw = annotations?.[BOOST_POD_ANNOTATION];
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as { until?: unknown; containers?: unknown };
    const until = typeof parsed.until === 'string' ? parseBoostEnd(parsed.until) : undefined;
    if (!until || typeof parsed.containers !== 'object' || parsed.containers === null) return { error: `${BOOST_POD_ANNOTATION} is not a boost record` };
    const containers: Record<string, SteadyCpu> = {};
    for (const [name, v] of Object.entries(parsed.containers as Record<string, { request?: unknown; limit?: unknown; until?: unknown }>)) {
      if (typeof v?.request !== 'number' || (v.limit !== undefined && typeof v.limit !== 'number'))
        return { error: `${BOOST_POD_ANNOTATION}: container ${name} has no steady cpu request` };
      const own = typeof v.until === 'string' ? parseBoostEnd(v.until) : undefined;
      if (v.until !== undefined && !own) return { error: `${BOOST_POD_ANNOTATION}: container ${name} has no readable end` };
      containers[name] = { request: v.request, ...(typeof v.limit === 'number' ? { limit: v.limit } : {}), ...(own ? { until: own } : {}) };
    }
    return { until, containers };
  } catch {
    return { error: `${BOOST_POD_ANNOTATION} is not JSON` };
  }
}

/**
 * When the boost ends (ms), from the pod's start and the time it turned Ready; undefined while
 * that is not known yet (an end at Ready, and the pod not Ready).
 */
export function boostEndsAt(until: BoostEnd, startedAt: number | undefined, readyAt: number | undefined): number | undefined {
  if (until.kind === 'fixed') return startedAt === undefined ? undefined : startedAt + until.afterStartMs;
  return readyAt === undefined ? undefined : readyAt + until.afterMs;
}

/** The pod fields the boost's end is read from. */
export interface BoostedPodLike {
  metadata?: { annotations?: Record<string, string> };
  status?: { startTime?: string | Date; conditions?: ReadonlyArray<{ type: string; status: string; lastTransitionTime?: string | Date }> };
}

function timeOf(value: string | Date | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = new Date(value).getTime();
  return Number.isFinite(t) ? t : undefined;
}

/** When the pod turned Ready (its Ready condition's transition), if it is Ready. */
export function podReadyTime(pod: BoostedPodLike): number | undefined {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' ? timeOf(ready.lastTransitionTime) : undefined;
}

/**
 * From when a pod's CPU usage is steady, for the recommender: undefined for a pod the webhook did
 * not boost (all of it is); for a boosted one the boost's end, or +Infinity while it is not known
 * (not Ready yet). Usage before it is start-up usage under a boost, not to be learnt from.
 */
export function cpuSteadySince(pod: BoostedPodLike): number | undefined {
  const record = readBoostRecord(pod.metadata?.annotations);
  if (record === undefined) return undefined;
  if ('error' in record) return undefined;
  // Containers may end at different times: the pod's usage is steady once the last one has.
  let last = Number.NEGATIVE_INFINITY;
  for (const name of Object.keys(record.containers)) {
    const end = boostEndsAt(containerBoostEnd(record, name), timeOf(pod.status?.startTime), podReadyTime(pod));
    last = Math.max(last, end ?? Number.POSITIVE_INFINITY);
  }
  return Object.keys(record.containers).length === 0
    ? (boostEndsAt(record.until, timeOf(pod.status?.startTime), podReadyTime(pod)) ?? Number.POSITIVE_INFINITY)
    : last;
}

/**
 * How long after a pod of a VPA with this boost first used CPU its start-up usage is taken to be
 * boosted, for a pod that is gone (no record, no Ready time to read, decision 0234): the fixed
 * time, or the time after Ready plus {@link GONE_POD_READY_ALLOWANCE_MS} for Ready itself.
 */
export function goneBoostWindowMs(until: BoostEnd): number {
  return until.kind === 'fixed' ? until.afterStartMs : GONE_POD_READY_ALLOWANCE_MS + until.afterMs;
}

/** The time to Ready assumed for a boosted pod that is gone (its Ready time is not in Prometheus). */
export const GONE_POD_READY_ALLOWANCE_MS = 5 * 60_000;
