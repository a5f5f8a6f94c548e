/**
 * The kubelet of every simulated node, as one agent driven by simulated time. Each `sync(now, dt)`:
 * starts pods bound to a node (Ready once their start-up work is done, startup-work.ts), steps
 * their resize state machine (resize-state-machine.ts), runs
 * their containers' usage patterns through the meters (throttling, OOM kills), finishes
 * run-to-completion pods, and writes the resulting status and events. Per-pod memory (allocation
 * checkpoint, meters, container start times) lives here, as in a real kubelet.
 */
import type { Resources } from 'kube-basics/resources';
import type { ClusterStore, StoredObject } from '../cluster-host.ts';
import type { EventRecorder } from '../events/event-recorder.ts';
import type { ContainerStatus, NodeObject, Pod, PodStatus } from '../objects.ts';
import { hasPodLevelResources, podRequests, readLimits, readResources } from '../pod-resources.ts';
import type { ServerVersion } from '../server-version.ts';
import { advanceMeter, newMeter, type ContainerMeter } from '../usage/container-meter.ts';
import { containerUsages, USAGE_ANNOTATION, type ContainerUsage } from '../usage/usage-annotation.ts';
import { usageAt } from '../usage/usage-at.ts';
import type { UsageTrace } from '../usage/usage-trace.ts';
import { admitAtStart } from './pod-admission.ts';
import { finishIfDone } from './run-to-completion.ts';
import { OOM_KILLED, restartContainer } from './container-restart.ts';
import { podRef, type SimEvent } from './kubelet-event.ts';
import { startPod, type NodeRuntime } from './pod-start.ts';
import { advanceStartup, notReadyYet, readyNow, startupRate, startupWork } from './startup-work.ts';
import { startedCheckpoint, stepResize, type ResizeCheckpoint } from './resize-state-machine.ts';
import type { Logger } from '../logger.ts';

/** Node annotation `"false"`: the node's kubelet has no resize support. */
export const RESIZE_SUPPORT_ANNOTATION = 'tailor.dev/sim-resize-support';

interface PodState {
  checkpoint: ResizeCheckpoint;
  meters: Map<string, ContainerMeter>;
  containerStart: Map<string, number>;
  usage: Record<string, ContainerUsage>;
  startedAt: number;
  /** CPU-seconds of start-up work left (startup-work.ts); absent once Ready. */
  startupLeft?: number;
}

export interface KubeletOptions {
  store: ClusterStore;
  events: EventRecorder;
  version: ServerVersion;
  seed: number;
  simStart: number;
  actuationDelayMs: number;
  /** Loaded usage traces by the path used in `trace(...)` patterns. */
  traces?: ReadonlyMap<string, UsageTrace>;
  /** Loads a trace a pod's annotation names that was not loaded at start (throws if it cannot). */
  loadTrace?: (path: string) => UsageTrace;
  logger: Logger;
}

function asPod(o: StoredObject): Pod {
  return o as unknown as Pod;
}

/**
 * Requests the kubelet has admitted for a pod: the pod's own allocatedResources (1.36+), else its
 * containers' (spec requests before start; pod-level requests, which a resize cannot change before 1.36).
 */
export function allocatedRequests(pod: Pod): Resources {
  if (pod.status?.allocatedResources !== undefined) return readResources(pod.status.allocatedResources);
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  if (statuses.length === 0 || hasPodLevelResources(pod)) return podRequests(pod);
  return statuses.reduce(
    (sum, s) => {
      const r = readResources(s.allocatedResources);
      return { cpu: sum.cpu + r.cpu, memory: sum.memory + r.memory };
    },
    { cpu: 0, memory: 0 },
  );
}

export class KubeletAgent {
  private readonly pods = new Map<string, PodState>();
  private readonly traces: Map<string, UsageTrace>;

  constructor(private readonly options: KubeletOptions) {
    this.traces = new Map(options.traces ?? []);
  }

  /** The meter of a running container (for /metrics/cadvisor). */
  meter(podUid: string, container: string): ContainerMeter | undefined {
    return this.pods.get(podUid)?.meters.get(container);
  }

  /** One kubelet pass over all nodes at simulated time `now`, `dtMs` after the previous one. */
  sync(now: number, dtMs: number): void {
    const { store } = this.options;
    const nodes = new Map(store.list('nodes').map((n) => [n.metadata.name ?? '', n as unknown as NodeObject]));
    const pods = store.list('pods').map(asPod);
    // Requests allocated per node by started pods, summed once: a pod's "others" is the node's sum minus its own.
    const allocatedByNode = new Map<string, Resources>();
    const allocatedByPod = new Map<string, Resources>();
    for (const p of pods) {
      if (!p.spec.nodeName || !p.status?.containerStatuses || p.status.phase === 'Succeeded' || p.status.phase === 'Failed') continue;
      const r = allocatedRequests(p);
      allocatedByPod.set(p.metadata.uid ?? '', r);
      const sum = allocatedByNode.get(p.spec.nodeName) ?? { cpu: 0, memory: 0 };
      allocatedByNode.set(p.spec.nodeName, { cpu: sum.cpu + r.cpu, memory: sum.memory + r.memory });
    }
    const othersOf = (pod: Pod): Resources => {
      const sum = allocatedByNode.get(pod.spec.nodeName ?? '') ?? { cpu: 0, memory: 0 };
      const own = allocatedByPod.get(pod.metadata.uid ?? '') ?? { cpu: 0, memory: 0 };
      return { cpu: sum.cpu - own.cpu, memory: sum.memory - own.memory };
    };
    const seen = new Set<string>();
    for (const pod of pods) {
      const node = nodes.get(pod.spec.nodeName ?? '');
      if (!node || pod.metadata.deletionTimestamp) continue;
      const uid = pod.metadata.uid ?? '';
      seen.add(uid);
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      try {
        this.syncPod(pod, node, othersOf(pod), now, dtMs);
      } catch (err) {
        this.options.logger.warn({ err, pod: pod.metadata.name }, 'kubelet could not sync pod');
      }
    }
    for (const uid of this.pods.keys()) if (!seen.has(uid)) this.pods.delete(uid);
  }

  private runtime(node: NodeObject): NodeRuntime {
    const addresses = (node.status?.addresses ?? []) as Array<{ type: string; address: string }>;
    return {
      nodeName: node.metadata.name ?? '',
      resizeSupport: node.metadata.annotations?.[RESIZE_SUPPORT_ANNOTATION] !== 'false',
      hostIP: addresses.find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.1',
    };
  }

  private syncPod(pod: Pod, node: NodeObject, others: Resources, now: number, dtMs: number): void {
    const uid = pod.metadata.uid ?? '';
    const runtime = this.runtime(node);
    const events: SimEvent[] = [];
    let state = this.pods.get(uid);
    let status: PodStatus;
    const othersAllocated = () => others;
    if (!state || !pod.status?.containerStatuses) {
      const rejection = admitAtStart(podRequests(pod), readResources(node.status?.allocatable), othersAllocated());
      if (rejection) {
        status = { ...(pod.status ?? {}), phase: 'Failed', reason: rejection.reason, message: rejection.message };
        events.push({
          type: 'Warning',
          reason: rejection.reason,
          message: rejection.message,
          involvedObject: podRef(pod),
          component: 'kubelet',
          host: runtime.nodeName,
        });
        this.options.store.mutate('pods', pod.metadata.namespace ?? '', pod.metadata.name ?? '', (draft) => {
          draft.status = status;
        });
        for (const e of events) this.options.events.record(e);
        return;
      }
      const started = startPod(pod, runtime, now, this.options.version);
      status = started.status;
      events.push(...started.events);
      state = { checkpoint: startedCheckpoint(pod, this.options.version), meters: new Map(), containerStart: new Map(), usage: {}, startedAt: now };
      const work = startupWork(pod);
      if (work !== undefined) {
        state.startupLeft = work;
        status = notReadyYet(status, now);
      }
      for (const c of pod.spec.containers) {
        state.meters.set(c.name, newMeter());
        state.containerStart.set(c.name, now);
      }
      try {
        state.usage = containerUsages(pod.spec.containers, pod.metadata.annotations?.[USAGE_ANNOTATION]);
      } catch (err) {
        state.usage = containerUsages(pod.spec.containers, undefined);
        events.push({
          type: 'Warning',
          reason: 'InvalidUsagePattern',
          message: `${(err as Error).message}; using the default usage`,
          involvedObject: podRef(pod),
          component: 'kube-sim',
          host: runtime.nodeName,
        });
      }
      this.resolveTraces(pod, state.usage, events, runtime.nodeName);
      this.pods.set(uid, state);
    } else {
      const current = state;
      const step = stepResize(pod, current.checkpoint, {
        nodeName: runtime.nodeName,
        allocatable: readResources(node.status?.allocatable),
        othersAllocated: othersAllocated(),
        memoryUsage: (c) => current.meters.get(c)?.workingSetBytes,
        version: this.options.version,
        now,
        actuationDelayMs: this.options.actuationDelayMs,
      });
      status = step.status;
      state.checkpoint = step.checkpoint;
      events.push(...step.events);
      for (const e of step.events) {
        if (e.reason === 'Killing' && e.involvedObject.fieldPath) {
          const name = /\{(.+)\}/.exec(e.involvedObject.fieldPath)?.[1];
          if (name) state.containerStart.set(name, now);
        }
      }
      const startupRateNow = state.startupLeft !== undefined ? startupRate(pod, status) : undefined;
      status = this.runContainers(pod, status, state, now, dtMs, events, startupRateNow);
      if (state.startupLeft !== undefined && startupRateNow !== undefined && dtMs > 0) {
        const step = advanceStartup(state.startupLeft, startupRateNow, now, dtMs);
        state.startupLeft = step.remaining;
        if (step.doneAt !== undefined) {
          delete state.startupLeft;
          status = readyNow(status, step.doneAt);
        } else status = notReadyYet(status, now);
      }
      status = finishIfDone(pod, status, state.startedAt, now);
    }
    if (JSON.stringify(status) !== JSON.stringify(pod.status)) {
      this.options.store.mutate('pods', pod.metadata.namespace ?? '', pod.metadata.name ?? '', (draft) => {
        draft.status = status;
      });
    }
    for (const e of events) this.options.events.record(e);
  }

  /** Makes sure every trace a pattern names is loaded; a trace that cannot be read falls back to the default usage. */
  private resolveTraces(pod: Pod, usage: Record<string, ContainerUsage>, events: SimEvent[], host: string): void {
    for (const [container, patterns] of Object.entries(usage)) {
      for (const resource of ['cpu', 'memory'] as const) {
        const pattern = patterns[resource];
        if (pattern.kind !== 'trace' || this.traces.has(pattern.path)) continue;
        try {
          if (!this.options.loadTrace) throw new Error('traces can only be loaded from files here when the sim runs with a working directory');
          this.traces.set(pattern.path, this.options.loadTrace(pattern.path));
        } catch (err) {
          const fallback = containerUsages(
            pod.spec.containers.filter((c) => c.name === container),
            undefined,
          )[container]!;
          patterns[resource] = fallback[resource];
          events.push({
            type: 'Warning',
            reason: 'InvalidUsagePattern',
            message: `${container}.${resource}: cannot load trace ${JSON.stringify(pattern.path)}: ${(err as Error).message}; using the default usage`,
            involvedObject: podRef(pod),
            component: 'kube-sim',
            host,
          });
        }
      }
    }
  }

  /** Advances each running container's usage; a container over its memory limit is OOM-killed and restarted. */
  private runContainers(
    pod: Pod,
    status: PodStatus,
    state: PodState,
    now: number,
    dtMs: number,
    events: SimEvent[],
    startupRateMillicores?: number,
  ): PodStatus {
    if (dtMs <= 0) return status;
    const statuses: ContainerStatus[] = [];
    for (const s of status.containerStatuses ?? []) {
      const usage = state.usage[s.name];
      if (!usage || !s.state?.running) {
        statuses.push(s);
        continue;
      }
      const containerStart = state.containerStart.get(s.name) ?? state.startedAt;
      const moment = { now, simStart: this.options.simStart, containerStart, seed: this.options.seed, container: s.name, traces: this.traces };
      const key = `${pod.metadata.namespace}/${pod.metadata.name}/${s.name}`;
      const patternCpu = usageAt(usage.cpu, { ...moment, key: `${key}/cpu`, resource: 'cpu' });
      // while starting, the start-up work takes all the CPU it may (startup-work.ts)
      const startupCpu =
        startupRateMillicores === undefined
          ? 0
          : startupRate({ ...pod, spec: { ...pod.spec, containers: pod.spec.containers.filter((c) => c.name === s.name) } }, status);
      const cpuDemand = Math.max(patternCpu, startupCpu);
      const memoryDemand = usageAt(usage.memory, { ...moment, key: `${key}/memory`, resource: 'memory' });
      const applied = s.resources ?? pod.spec.containers.find((c) => c.name === s.name)?.resources;
      const limits = readLimits(applied?.limits);
      const { meter, oomKilled } = advanceMeter(state.meters.get(s.name) ?? newMeter(), {
        dtMs,
        cpuDemand,
        memoryDemand,
        cpuLimit: limits.cpu,
        memoryLimit: limits.memory,
      });
      state.meters.set(s.name, meter);
      if (oomKilled) {
        statuses.push(restartContainer(s, OOM_KILLED, now));
        state.containerStart.set(s.name, now);
        // After an OOM kill the kubelet starts the container again: the same events as at start.
        const image = pod.spec.containers.find((c) => c.name === s.name)?.image ?? '';
        for (const [reason, message] of [
          ['Pulled', `Container image "${image}" already present on machine`],
          ['Created', `Created container: ${s.name}`],
          ['Started', `Started container ${s.name}`],
        ]) {
          events.push({
            type: 'Normal',
            reason: reason!,
            message: message!,
            involvedObject: podRef(pod, s.name),
            component: 'kubelet',
            host: pod.spec.nodeName,
          });
        }
      } else {
        statuses.push(s);
      }
    }
    return { ...status, containerStatuses: statuses };
  }
}
