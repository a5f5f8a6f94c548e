/**
 * The `autoscaling.k8s.io/v1` VerticalPodAutoscaler as users write it in YAML or JSON: quantities
 * are strings (`"250m"`, `"512Mi"`), optional fields are optional. Field names and enum values are
 * the upstream API's, so existing VPA objects load unchanged. `validateVpa` (validate-vpa.ts) turns
 * an unknown parsed document into this type or into a list of field errors.
 */
import type { ResourceName } from 'kube-basics/resources';

export const VPA_API_VERSION = 'autoscaling.k8s.io/v1';
export const VPA_KIND = 'VerticalPodAutoscaler';

/** `spec.updatePolicy.updateMode`. `Auto` is the deprecated alias of `Recreate`. */
export const UPDATE_MODES = ['Off', 'Initial', 'Recreate', 'InPlaceOrRecreate', 'InPlace', 'Auto'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];

/** `containerPolicies[].mode`: `Off` leaves the container alone. */
export const CONTAINER_MODES = ['Auto', 'Off'] as const;
export type ContainerScalingMode = (typeof CONTAINER_MODES)[number];

/** `containerPolicies[].controlledValues`: whether limits follow the requests. */
export const CONTROLLED_VALUES = ['RequestsAndLimits', 'RequestsOnly'] as const;
export type ControlledValues = (typeof CONTROLLED_VALUES)[number];

/** `evictionRequirements[].changeRequirement`. */
export const CHANGE_REQUIREMENTS = ['TargetHigherThanRequests', 'TargetLowerThanRequests'] as const;
export type ChangeRequirement = (typeof CHANGE_REQUIREMENTS)[number];

/** `startupBoost.cpu.type`: multiply the CPU request, or add a CPU quantity to it. */
export const STARTUP_BOOST_TYPES = ['Factor', 'Quantity'] as const;
export type StartupBoostType = (typeof STARTUP_BOOST_TYPES)[number];

/** The container name that selects the default container policy. */
export const DEFAULT_CONTAINER_NAME = '*';

/** A resource list as written in YAML: resource name -> quantity string (`{cpu: "250m"}`). */
export type ResourceList = Partial<Record<ResourceName, string>>;

/** `spec.targetRef`: the top-most controller of the pods (Deployment, StatefulSet, ...). */
export interface CrossVersionObjectReference {
  apiVersion?: string;
  kind: string;
  name: string;
}

/** `spec.updatePolicy.evictionRequirements[]`: evict only when the target moved this way. */
export interface EvictionRequirement {
  resources: ResourceName[];
  changeRequirement: ChangeRequirement;
}

/** `spec.updatePolicy`. */
export interface PodUpdatePolicy {
  updateMode?: UpdateMode;
  minReplicas?: number;
  evictionRequirements?: EvictionRequirement[];
  /** Upstream 1.8: an OOM kill counts only when the container ran less than this long (s) and the kill is this recent. */
  evictAfterOOMSeconds?: number;
}

/** `startupBoost.cpu` (upstream 1.8): `Factor` needs `factor`, `Quantity` needs `quantity`. */
export interface GenericStartupBoost {
  type: StartupBoostType;
  /** Whole factor >= 1: the request is multiplied by it. */
  factor?: number;
  /** A CPU quantity added to the request (`"500m"`). */
  quantity?: string;
  /** Seconds after the pod turns Ready before the CPU is given back (default 0). */
  durationSeconds?: number;
}

/** `spec.startupBoost` and `containerPolicies[].startupBoost` (upstream 1.8). */
export interface VpaStartupBoost {
  cpu?: GenericStartupBoost;
}

/** `spec.resourcePolicy.containerPolicies[]`: per container name, or `"*"` for the rest. */
export interface ContainerResourcePolicy {
  containerName: string;
  mode?: ContainerScalingMode;
  minAllowed?: ResourceList;
  maxAllowed?: ResourceList;
  /** Default `[cpu, memory]`. */
  controlledResources?: ResourceName[];
  /** Default `RequestsAndLimits`. */
  controlledValues?: ControlledValues;
  /** Upstream 1.8: an OOM kill is recorded as the memory in use x this ratio (>= 1), a quantity (`"1.5"`). */
  oomBumpUpRatio?: string;
  /** Upstream 1.8: ... and at least this much more memory (a quantity, `"100Mi"`). */
  oomMinBumpUp?: string;
  /** Upstream 1.8: one memory peak per this many seconds. */
  memoryAggregationIntervalSeconds?: number;
  /** Upstream 1.8: intervals in the memory window (interval x count). */
  memoryAggregationIntervalCount?: number;
  /** Upstream 1.8: this container's start-up boost, instead of `spec.startupBoost`. */
  startupBoost?: VpaStartupBoost;
}

/** `spec.resourcePolicy`. */
export interface PodResourcePolicy {
  containerPolicies?: ContainerResourcePolicy[];
}

/** `spec.recommenders[]`: the named recommender that owns this VPA (none = the default one). */
export interface VpaRecommenderSelector {
  name: string;
}

/** `spec`. */
export interface VerticalPodAutoscalerSpec {
  targetRef: CrossVersionObjectReference;
  updatePolicy?: PodUpdatePolicy;
  resourcePolicy?: PodResourcePolicy;
  recommenders?: VpaRecommenderSelector[];
  /** Upstream 1.8: the start-up boost of every container (a container policy's own one wins). */
  startupBoost?: VpaStartupBoost;
}

/** `status.recommendation.containerRecommendations[]`, quantities as strings. */
export interface RecommendedContainerResources {
  containerName: string;
  target: ResourceList;
  lowerBound?: ResourceList;
  upperBound?: ResourceList;
  uncappedTarget?: ResourceList;
}

/** `status.recommendation`. */
export interface RecommendedPodResources {
  containerRecommendations?: RecommendedContainerResources[];
}

/** `status.conditions[]`. */
export interface VpaCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `status`. */
export interface VerticalPodAutoscalerStatus {
  recommendation?: RecommendedPodResources;
  conditions?: VpaCondition[];
}

/** The object metadata fields Tailor reads; anything else is kept as it was. */
export interface VpaObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** A VerticalPodAutoscaler object. */
export interface VerticalPodAutoscaler {
  apiVersion: typeof VPA_API_VERSION;
  kind: typeof VPA_KIND;
  metadata: VpaObjectMeta;
  spec: VerticalPodAutoscalerSpec;
  status?: VerticalPodAutoscalerStatus;
}
