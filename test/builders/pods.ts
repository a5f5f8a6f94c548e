/**
 * Readable pod builders for updater tests:
 *   pod({ containers: [container('app', { requests: { cpu: '100m' }, limits: { memory: '1Gi' } })], startedAgo: 13 * HOUR })
 * By default the pod is Running, started a day before NOW, and each container's status reports
 * `resources` equal to its spec (a node with resize support). `actual` overrides what the kubelet
 * reports; `actual: 'none'` drops it (a node without resize support).
 */
import type { V1Container, V1ContainerStatus, V1Pod, V1PodCondition, V1ResourceRequirements } from '@kubernetes/client-node';
import { ago, HOUR } from './time.ts';

type Quantities = Record<string, string>;
type RestartPolicy = 'NotRequired' | 'RestartContainer';

/** A container as a test describes it. */
export interface ContainerSketch {
  name: string;
  requests?: Quantities;
  limits?: Quantities;
  /** resizePolicy per resource (absent = NotRequired). */
  resizePolicy?: Partial<Record<'cpu' | 'memory', RestartPolicy>>;
  /** What the kubelet reports in status.resources (default: the spec); 'none' = no resources in the status. */
  actual?: { requests?: Quantities; limits?: Quantities } | 'none';
  /** allocatedResources in the status (requests only). */
  allocated?: Quantities;
  /** The container was OOM-killed this long before NOW (lastState.terminated). */
  oomKilledAgo?: number;
  /** ...after running this long (lastState.terminated.startedAt; default: no start time). */
  oomRanFor?: number;
  /** The container waits to be restarted (state waiting, CrashLoopBackOff) instead of running. */
  waiting?: boolean;
  /** A restartable (sidecar) init container. */
  sidecar?: boolean;
}

/** `container('app', { requests: { cpu: '100m' } })`. */
export function container(name: string, sketch: Omit<ContainerSketch, 'name'> = {}): ContainerSketch {
  return { name, ...sketch };
}

function requirements(requests?: Quantities, limits?: Quantities): V1ResourceRequirements {
  const out: V1ResourceRequirements = {};
  if (requests) out.requests = { ...requests };
  if (limits) out.limits = { ...limits };
  return out;
}

function specOf(c: ContainerSketch): V1Container {
  const out: V1Container = { name: c.name, image: 'example:1', resources: requirements(c.requests, c.limits) };
  if (c.resizePolicy) out.resizePolicy = Object.entries(c.resizePolicy).map(([resourceName, restartPolicy]) => ({ resourceName, restartPolicy }));
  if (c.sidecar) out.restartPolicy = 'Always';
  return out;
}

function statusOf(c: ContainerSketch): V1ContainerStatus {
  const status: V1ContainerStatus = {
    name: c.name,
    image: 'example:1',
    imageID: 'sha256:0',
    ready: true,
    restartCount: 0,
    state: { running: { startedAt: ago(HOUR) as unknown as Date } },
  };
  if (c.actual !== 'none') status.resources = c.actual ? requirements(c.actual.requests, c.actual.limits) : requirements(c.requests, c.limits);
  if (c.allocated) status.allocatedResources = { ...c.allocated };
  if (c.waiting) status.state = { waiting: { reason: 'CrashLoopBackOff' } };
  if (c.oomKilledAgo !== undefined) {
    status.restartCount = 1;
    status.lastState = { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: ago(c.oomKilledAgo) as unknown as Date } };
    if (c.oomRanFor !== undefined) status.lastState.terminated!.startedAt = ago(c.oomKilledAgo + c.oomRanFor) as unknown as Date;
  }
  return status;
}

/** A pod as a test describes it. */
export interface PodSketch {
  name?: string;
  namespace?: string;
  containers: ContainerSketch[];
  phase?: string;
  /** Started this long before NOW (default 24h); undefined start with `startedAgo: null`. */
  startedAgo?: number | null;
  generation?: number;
  observedGeneration?: number;
  conditions?: V1PodCondition[];
  /** Legacy `status.resize`. */
  legacyResize?: string;
  annotations?: Record<string, string>;
  qosClass?: string;
  terminating?: boolean;
  /** spec.resources (pod-level resources). */
  podResources?: V1ResourceRequirements;
  /** managedFields entries: the updater's last resize this long before NOW. */
  resizedAgo?: number;
}

/** Builds a V1Pod. Timestamps are RFC 3339 strings, as in JSON from a watch. */
export function pod(sketch: PodSketch): V1Pod {
  const main = sketch.containers.filter((c) => !c.sidecar);
  const sidecars = sketch.containers.filter((c) => c.sidecar);
  const p: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: sketch.name ?? 'web-1',
      namespace: sketch.namespace ?? 'shop',
      generation: sketch.generation ?? 1,
      creationTimestamp: ago(sketch.startedAgo ?? 24 * HOUR) as unknown as Date,
    },
    spec: { containers: main.map(specOf) },
    status: { phase: sketch.phase ?? 'Running', containerStatuses: main.map(statusOf), conditions: sketch.conditions ?? [] },
  };
  if (sidecars.length > 0) {
    p.spec!.initContainers = sidecars.map(specOf);
    p.status!.initContainerStatuses = sidecars.map(statusOf);
  }
  if (sketch.startedAgo !== null) p.status!.startTime = ago(sketch.startedAgo ?? 24 * HOUR) as unknown as Date;
  else delete p.metadata!.creationTimestamp;
  if (sketch.observedGeneration !== undefined) p.status!.observedGeneration = sketch.observedGeneration;
  if (sketch.legacyResize !== undefined) p.status!.resize = sketch.legacyResize;
  if (sketch.annotations) p.metadata!.annotations = { ...sketch.annotations };
  if (sketch.qosClass) p.status!.qosClass = sketch.qosClass;
  if (sketch.terminating) p.metadata!.deletionTimestamp = ago(0) as unknown as Date;
  if (sketch.podResources) p.spec!.resources = sketch.podResources;
  if (sketch.resizedAgo !== undefined) {
    p.metadata!.managedFields = [{ manager: 'tailor-updater', operation: 'Update', subresource: 'resize', time: ago(sketch.resizedAgo) as unknown as Date }];
  }
  return p;
}

/** A `PodResizePending` condition (reason Infeasible or Deferred) that began `sinceAgo` before NOW. */
export function resizePending(
  reason: 'Infeasible' | 'Deferred',
  sinceAgo: number,
  opts: { message?: string; observedGeneration?: number } = {},
): V1PodCondition {
  const c: V1PodCondition = { type: 'PodResizePending', status: 'True', reason, lastTransitionTime: ago(sinceAgo) as unknown as Date };
  if (opts.message) c.message = opts.message;
  if (opts.observedGeneration !== undefined) c.observedGeneration = opts.observedGeneration;
  return c;
}

/** A `PodResizeInProgress` condition, with reason Error when `error` is given. */
export function resizeInProgress(sinceAgo: number, opts: { error?: string; observedGeneration?: number } = {}): V1PodCondition {
  const c: V1PodCondition = { type: 'PodResizeInProgress', status: 'True', lastTransitionTime: ago(sinceAgo) as unknown as Date };
  if (opts.error !== undefined) {
    c.reason = 'Error';
    c.message = opts.error;
  }
  if (opts.observedGeneration !== undefined) c.observedGeneration = opts.observedGeneration;
  return c;
}
