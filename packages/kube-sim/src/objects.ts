/**
 * The JSON shapes of the Kubernetes objects the simulated cluster reads and writes, as they travel
 * on the wire (plain objects, quantities as strings, timestamps as RFC 3339 strings). Only the
 * fields the cluster half of kube-sim looks at are named; everything else passes through untouched.
 */
import type { ObjectMeta, OwnerReference } from './apiserver/types.ts';

/** A resource list such as `{ cpu: "250m", memory: "512Mi" }`. */
export type ResourceList = Record<string, string>;

export interface ResourceRequirements {
  requests?: ResourceList;
  limits?: ResourceList;
  [key: string]: unknown;
}

export interface ContainerResizePolicy {
  resourceName: string;
  restartPolicy: 'NotRequired' | 'RestartContainer' | string;
}

export interface Container {
  name: string;
  image?: string;
  resources?: ResourceRequirements;
  resizePolicy?: ContainerResizePolicy[];
  /** `Always` on an init container makes it a restartable (sidecar) container. */
  restartPolicy?: string;
  [key: string]: unknown;
}

/** Object metadata and owner references: the API server's own definitions, one source for both halves of kube-sim. */
export type { ObjectMeta, OwnerReference };

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

export interface ContainerStateRunning {
  startedAt?: string;
}
export interface ContainerStateTerminated {
  exitCode: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}
export interface ContainerState {
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
  waiting?: { reason?: string; message?: string };
}

export interface ContainerStatus {
  name: string;
  image?: string;
  imageID?: string;
  containerID?: string;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  state?: ContainerState;
  lastState?: ContainerState;
  /** What the kubelet has admitted (requests) for this container. */
  allocatedResources?: ResourceList;
  /** What the runtime has actually applied; absent on nodes without resize support. */
  resources?: ResourceRequirements;
  [key: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  containers: Container[];
  initContainers?: Container[];
  resources?: ResourceRequirements;
  os?: { name: string };
  restartPolicy?: string;
  [key: string]: unknown;
}

export interface PodStatus {
  phase?: string;
  qosClass?: string;
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  /** Legacy (1.27-1.32) resize state: Proposed, InProgress, Deferred, Infeasible or "". */
  resize?: string;
  observedGeneration?: number;
  /** 1.36+: the pod's allocated requests (pod-level-status.ts). */
  allocatedResources?: ResourceList;
  /** 1.36+: what the pod's cgroup was given (pod-level-status.ts). */
  resources?: ResourceRequirements;
  hostIP?: string;
  podIP?: string;
  startTime?: string;
  [key: string]: unknown;
}

export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}

export interface NodeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: { unschedulable?: boolean; [key: string]: unknown };
  status?: {
    capacity?: ResourceList;
    allocatable?: ResourceList;
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string; [key: string]: unknown }>;
    [key: string]: unknown;
  };
}

/** A pod template as found in workload specs. */
export interface PodTemplate {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

/** The annotation that marks a static (mirror) pod. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** Deep copy of a JSON value (objects here are always plain JSON). */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
