/**
 * What the recommender needs to leave a start-up CPU boost out of what it learns (decision 0234):
 * - a current pod the webhook boosted: its record (policy/startup-boost.ts `cpuSteadySince`), with
 *   its start and Ready times from its status: exact;
 * - a pod that is gone (history attributed through owner series): no record and no Ready time to
 *   read, so when its VPA asks for a boost now, its CPU samples are dropped from its first one for
 *   the VPA's boost window (`goneBoostWindowMs`), unless that first sample is where the read
 *   began (the pod started before the read: its start-up is not in it).
 * Pure.
 */
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { cpuSteadySince, goneBoostWindowMs, type BoostedPodLike } from '../policy/startup-boost.ts';
import { startupBoostEnds } from '../policy/vpa-startup-boost.ts';
import type { HistoryRoute } from './history-attribution.ts';
import type { PodRoute } from './vpa-aggregates.ts';

/** `{ cpuSteadySince }` for a pod the webhook boosted, else nothing (a pod as the API returns it). */
export function steadySince(pod: object): { cpuSteadySince?: number } {
  const since = cpuSteadySince(pod as BoostedPodLike);
  return since === undefined ? {} : { cpuSteadySince: since };
}

/**
 * `{ boostWindowMs }` when the VPA asks for a start-up boost (upstream 1.8's `startupBoost`, or the
 * annotation; a bad annotation: none): the longest of its containers' windows. Else nothing.
 */
export function boostWindow(vpa: Pick<VerticalPodAutoscaler, 'metadata' | 'spec'>): { boostWindowMs?: number } {
  const ends = startupBoostEnds(vpa);
  return ends.length === 0 ? {} : { boostWindowMs: Math.max(...ends.map(goneBoostWindowMs)) };
}

/**
 * The route of a gone pod, with its VPA's boost window when it has one. `readFrom` is the start
 * of the read: a first sample within two steps of it means the pod started before.
 */
export function goneRoute(route: HistoryRoute, boostWindowMs: number | undefined, readFrom: number, stepMs: number): PodRoute {
  const base = { ...route, memoryRequests: new Map<string, number>() };
  return boostWindowMs === undefined ? base : { ...base, cpuBoostWindow: { windowMs: boostWindowMs, startedBefore: readFrom + 2 * stepMs } };
}
