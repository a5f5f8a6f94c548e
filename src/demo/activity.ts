/**
 * The demo's action log, as the difference between two snapshots of the cluster (pure): what
 * Tailor did (its updater's events: in-place resize, restart, eviction and fallbacks), what the
 * cluster did in answer (OOM kills, Infeasible resizes, a node added) and what Tailor's admission
 * webhook and recommender wrote (a new pod with the recommendation or a start-up cpu boost, a
 * changed recommendation); a boosted pod turning Ready.
 */
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { Pod } from 'kube-sim/objects';
import { VPA_UPDATES_ANNOTATION } from '../admission/pod-patch.ts';
import { EVENT_SOURCE } from '../updater/updater-events.ts';
import { formatBoostEnd, readBoostRecord } from '../policy/startup-boost.ts';
import { pendingResize, showCpu, showMemory, type DemoSnapshot } from './demo-snapshot.ts';

export const ACTIVITY_KINDS = [
  'recommendation',
  'in-place',
  'restart',
  'eviction',
  'fallback',
  'infeasible',
  'oom',
  'admitted',
  'boosted',
  'ready',
  'rollout',
  'scale-up',
  'refused',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** One line of the log. */
export interface Activity {
  at: number;
  kind: ActivityKind;
  /** Workload (or node) it is about. */
  subject: string;
  text: string;
}

const EMPTY: DemoSnapshot = { now: 0, pods: [], vpas: [], events: [], nodes: [] };

function workloadOf(pod: Pod): string {
  return pod.metadata.labels?.['app'] ?? pod.metadata.name ?? '';
}

/**
 * The Deployment a pod name belongs to, for a pod no snapshot holds any more (an event can arrive
 * a snapshot after its pod was evicted): `<deployment>-<template hash>-<suffix>`, so
 * `batch-qh46w2hqht-9c94j` -> `batch`. A name of another shape is returned as it is.
 */
export function deploymentOfPodName(pod: string): string {
  const parts = pod.split('-');
  return parts.length >= 3 ? parts.slice(0, -2).join('-') : pod;
}

/** The updater's pod events (one per action) as activities. */
function updaterEvents(prev: DemoSnapshot, next: DemoSnapshot): Activity[] {
  const seen = new Set(prev.events.map((e) => e.name));
  const out: Activity[] = [];
  for (const e of next.events) {
    if (seen.has(e.name) || e.source !== EVENT_SOURCE || e.involvedObject.kind !== 'Pod') continue;
    const pod = e.involvedObject.name ?? '';
    const subject = next.pods.concat(prev.pods).find((p) => p.metadata.name === pod)?.metadata.labels?.['app'] ?? deploymentOfPodName(pod);
    const message = e.message ?? '';
    const kind: ActivityKind | undefined =
      e.reason === 'ResizedInPlace'
        ? 'in-place'
        : e.reason === 'ResizedWithRestart'
          ? 'restart'
          : e.reason === 'Evicted'
            ? message.startsWith('Fallback')
              ? 'fallback'
              : 'eviction'
            : e.reason === 'EvictionBlocked' || e.reason === 'ResizeRejected' || e.reason === 'EvictionRejected' || e.reason === 'UpdateFailed'
              ? 'refused'
              : undefined;
    if (kind) out.push({ at: next.now, kind, subject, text: `${pod}: ${e.reason}: ${message}` });
  }
  return out;
}

/** When the pod turned Ready, if it is. */
function readySince(pod: Pod | undefined): number | undefined {
  const ready = pod?.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' && ready.lastTransitionTime ? Date.parse(String(ready.lastTransitionTime)) : undefined;
}

function restartsOf(pod: Pod | undefined, container: string): number {
  return pod?.status?.containerStatuses?.find((s) => s.name === container)?.restartCount ?? 0;
}

/** OOM kills (restart count up, last termination OOMKilled) and Infeasible resizes that appeared. */
function podChanges(prev: DemoSnapshot, next: DemoSnapshot): Activity[] {
  const before = new Map(prev.pods.map((p) => [p.metadata.uid ?? p.metadata.name, p]));
  const out: Activity[] = [];
  for (const pod of next.pods) {
    const old = before.get(pod.metadata.uid ?? pod.metadata.name);
    const name = pod.metadata.name ?? '';
    for (const s of pod.status?.containerStatuses ?? []) {
      if (s.restartCount > restartsOf(old, s.name) && s.lastState?.terminated?.reason === 'OOMKilled') {
        const limit = pod.spec.containers.find((c) => c.name === s.name)?.resources?.limits?.['memory'];
        out.push({
          at: next.now,
          kind: 'oom',
          subject: workloadOf(pod),
          text: `${name}/${s.name} OOM-killed (memory limit ${showMemory(limit)}), restart #${s.restartCount}`,
        });
      }
    }
    const infeasible = (p: Pod | undefined) => (p && pendingResize(p)?.reason === 'Infeasible' ? pendingResize(p) : undefined);
    const now = infeasible(pod);
    if (now && !infeasible(old))
      out.push({ at: next.now, kind: 'infeasible', subject: workloadOf(pod), text: `${name}: resize Infeasible${now.message ? `: ${now.message}` : ''}` });
    const boost = readBoostRecord(pod.metadata.annotations);
    if (!old && boost && !('error' in boost)) {
      const steady = Object.entries(boost.containers)
        .map(([c, v]) => `${c} cpu ${showCpu(pod.spec.containers.find((x) => x.name === c)?.resources?.requests?.['cpu'])} (steady ${v.request}m)`)
        .join(', ');
      out.push({
        at: next.now,
        kind: 'boosted',
        subject: workloadOf(pod),
        text: `${name} created by the admission webhook with a start-up cpu boost until ${formatBoostEnd(boost.until)}: ${steady}`,
      });
    } else if (!old && pod.metadata.annotations?.[VPA_UPDATES_ANNOTATION]) {
      out.push({
        at: next.now,
        kind: 'admitted',
        subject: workloadOf(pod),
        text: `${name} created with the recommendation by the admission webhook: ${pod.metadata.annotations[VPA_UPDATES_ANNOTATION]}`,
      });
    }
    const readyAt = boost ? readySince(pod) : undefined;
    if (readyAt !== undefined && readySince(old) === undefined) {
      const started = Date.parse(String(pod.status?.startTime ?? ''));
      out.push({
        at: next.now,
        kind: 'ready',
        subject: workloadOf(pod),
        text: `${name} Ready ${Number.isFinite(started) ? `${Math.round((readyAt - started) / 1000)} s after its start` : ''} (boosted)`,
      });
    }
  }
  return out;
}

function recommendationLine(vpa: VerticalPodAutoscaler): string {
  return (vpa.status?.recommendation?.containerRecommendations ?? [])
    .map((c) => {
      const parts = (['cpu', 'memory'] as const).flatMap((r) => {
        const t = c.target?.[r];
        if (t === undefined) return [];
        const show = r === 'cpu' ? showCpu : showMemory;
        return [`${r} ${show(t)} [${show(c.lowerBound?.[r])}, ${show(c.upperBound?.[r])}]`];
      });
      return `${c.containerName}: ${parts.join(', ')}`;
    })
    .join('; ');
}

/** Recommendations that appeared or changed (as shown, so a change below display precision is not news). */
function recommendations(prev: DemoSnapshot, next: DemoSnapshot): Activity[] {
  const before = new Map(prev.vpas.map((v) => [`${v.metadata.namespace}/${v.metadata.name}`, recommendationLine(v)]));
  const out: Activity[] = [];
  for (const v of next.vpas) {
    const line = recommendationLine(v);
    if (line === '' || line === before.get(`${v.metadata.namespace}/${v.metadata.name}`)) continue;
    out.push({ at: next.now, kind: 'recommendation', subject: v.spec?.targetRef?.name ?? v.metadata.name, text: `VPA ${v.metadata.name}: ${line}` });
  }
  return out;
}

function nodesAdded(prev: DemoSnapshot, next: DemoSnapshot): Activity[] {
  const known = new Set(prev.nodes.map((n) => n.metadata.name));
  return next.nodes
    .filter((n) => !known.has(n.metadata.name))
    .map((n) => ({
      at: next.now,
      kind: 'scale-up' as const,
      subject: n.metadata.name ?? '',
      text: `node ${n.metadata.name} joined (${n.status?.allocatable?.['cpu']} cpu, ${n.status?.allocatable?.['memory']})`,
    }));
}

/** What happened between `prev` (undefined: nothing before) and `next`, in log order. */
export function activitiesBetween(prev: DemoSnapshot | undefined, next: DemoSnapshot): Activity[] {
  const p = prev ?? EMPTY;
  return [...recommendations(p, next), ...updaterEvents(p, next), ...podChanges(p, next), ...nodesAdded(p, next)];
}

/** Count of each kind in `log`. */
export function countByKind(log: readonly Activity[]): Record<ActivityKind, number> {
  const counts = Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, 0])) as Record<ActivityKind, number>;
  for (const a of log) counts[a.kind]++;
  return counts;
}
