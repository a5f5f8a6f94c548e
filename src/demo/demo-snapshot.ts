/**
 * What the demo's view shows, as pure functions of a snapshot of the simulated cluster (pods,
 * VPAs, events, nodes, read from kube-sim's store as `kubectl get` would): one row per pod and
 * container with its current requests and its VPA's recommendation (target and bounds).
 */
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import { controllingVpa } from '../api/controlling-vpa.ts';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { NodeObject, Pod } from 'kube-sim/objects';

/** An event as the view needs it (core/v1 fields). */
export interface SnapshotEvent {
  name: string;
  reason?: string;
  message?: string;
  type?: string;
  source?: string;
  involvedObject: { kind?: string; namespace?: string; name?: string };
}

/** The cluster at one moment. */
export interface DemoSnapshot {
  now: number;
  pods: readonly Pod[];
  vpas: readonly VerticalPodAutoscaler[];
  events: readonly SnapshotEvent[];
  nodes: readonly NodeObject[];
}

/** One row of the table. */
export interface PodRow {
  workload: string;
  pod: string;
  node: string;
  state: string;
  container: string;
  restarts: number;
  /** Current requests as written (e.g. `600m`, `1Gi`), '-' when unset. */
  cpu: string;
  memory: string;
  /** The recommendation for the controlled resources: `target [lower, upper]`, '-' when none. */
  cpuRecommendation: string;
  memoryRecommendation: string;
}

const MiB = 2 ** 20;

/** CPU for people: `293m`, `2.25`. */
export function showCpu(text: string | undefined): string {
  if (text === undefined) return '-';
  const m = parseCpu(text);
  return m >= 1000 && m % 10 === 0 ? String(m / 1000) : `${Math.round(m)}m`;
}

/** Memory for people in MiB or GiB: `1Gi`, `362Mi`. */
export function showMemory(text: string | undefined): string {
  if (text === undefined) return '-';
  const b = parseMemory(text);
  return b >= 1024 * MiB && b % (1024 * MiB) === 0 ? `${b / (1024 * MiB)}Gi` : `${Math.round(b / MiB)}Mi`;
}

/** `target [lower, upper]` of one resource of a container recommendation. */
function recommendationText(vpa: VerticalPodAutoscaler | undefined, container: string, resource: 'cpu' | 'memory'): string {
  const r = vpa?.status?.recommendation?.containerRecommendations?.find((c) => c.containerName === container);
  const show = resource === 'cpu' ? showCpu : showMemory;
  const target = r?.target?.[resource];
  if (target === undefined) return '-';
  const lower = r?.lowerBound?.[resource];
  const upper = r?.upperBound?.[resource];
  return `${show(target)} [${show(lower)}, ${show(upper)}]`;
}

/** The controlling VPA of the pod's Deployment (pods carry `app: <deployment>`), as the updater picks it. */
export function vpaOfPod(pod: Pod, vpas: readonly VerticalPodAutoscaler[]): VerticalPodAutoscaler | undefined {
  const app = pod.metadata.labels?.['app'];
  return app === undefined ? undefined : controllingVpa(vpas, { kind: 'Deployment', namespace: pod.metadata.namespace ?? '', name: app });
}

/**
 * A pending resize: the 1.33+ condition PodResizePending (reason Infeasible or Deferred), or on
 * 1.32 the legacy `status.resize` (which has no message).
 */
export function pendingResize(pod: Pod): { reason: string; message?: string } | undefined {
  const c = pod.status?.conditions?.find((x) => x.type === 'PodResizePending' && x.status === 'True');
  if (c) return { reason: c.reason ?? 'Pending', ...(c.message ? { message: c.message } : {}) };
  const legacy = (pod.status as { resize?: string } | undefined)?.resize;
  return legacy === 'Infeasible' || legacy === 'Deferred' ? { reason: legacy } : undefined;
}

/** A pod's state in a word or two: Running, Pending (Unschedulable), resize Infeasible, resizing. */
export function podState(pod: Pod): string {
  const conditions = pod.status?.conditions ?? [];
  const pending = pendingResize(pod);
  if (pending) return `resize ${pending.reason}`;
  if (conditions.some((c) => c.type === 'PodResizeInProgress' && c.status === 'True')) return 'resizing';
  const unscheduled = conditions.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  const phase = pod.status?.phase ?? 'Pending';
  return unscheduled ? `${phase} (${unscheduled.reason ?? 'unscheduled'})` : phase;
}

/** The table rows: pods of workloads with a VPA, by workload then pod name. */
export function podRows(s: DemoSnapshot): PodRow[] {
  const rows: PodRow[] = [];
  for (const pod of s.pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const vpa = vpaOfPod(pod, s.vpas);
    if (!vpa) continue;
    for (const c of pod.spec.containers) {
      const status = pod.status?.containerStatuses?.find((x) => x.name === c.name);
      const requests = c.resources?.requests as Record<string, string> | undefined;
      rows.push({
        workload: vpa.spec.targetRef.name,
        pod: pod.metadata.name ?? '',
        node: pod.spec.nodeName ?? '-',
        state: podState(pod),
        container: c.name,
        restarts: status?.restartCount ?? 0,
        cpu: showCpu(requests?.['cpu']),
        memory: showMemory(requests?.['memory']),
        cpuRecommendation: recommendationText(vpa, c.name, 'cpu'),
        memoryRecommendation: recommendationText(vpa, c.name, 'memory'),
      });
    }
  }
  return rows.sort((a, b) => a.workload.localeCompare(b.workload) || a.pod.localeCompare(b.pod) || a.container.localeCompare(b.container));
}
