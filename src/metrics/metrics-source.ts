/**
 * The `MetricsSource` port: what the recommender needs from a usage history, in the recommender's
 * terms. Every call is batched over a set of namespaces and a time range; the Prometheus adapter is
 * one implementation, a test double another. Times are ms since the epoch, CPU in cores, memory in
 * bytes (the recommender's own units).
 */

/** One container of one pod. */
export interface ContainerKey {
  namespace: string;
  pod: string;
  container: string;
}

/** A range evaluated every `step` ms from `start` to `end` inclusive (both multiples of `step`). */
export interface StepRange {
  start: number;
  end: number;
  step: number;
}

/** A series of one container: parallel arrays of sample times (ms) and values, times ascending. */
export interface ContainerSeries {
  key: ContainerKey;
  times: number[];
  values: number[];
}

/** OOM kills of one container in one step (the step ending at `at`). */
export interface OomEvent {
  key: ContainerKey;
  at: number;
  count: number;
}

/** The direct owner of a pod, a ReplicaSet or a Job, as kube-state-metrics reports it. */
export interface OwnerLink {
  namespace: string;
  kind: 'Pod' | 'ReplicaSet' | 'Job';
  name: string;
  ownerKind: string;
  ownerName: string;
}

/** Current requests and limits of one container (cores, bytes); absent means not set. */
export interface ContainerResources {
  key: ContainerKey;
  requests: { cpu?: number; memory?: number };
  limits: { cpu?: number; memory?: number };
}

/** What went wrong with the data (not the transport) in one answer; counted and logged. */
export interface DataQuality {
  /** Samples dropped because they were NaN or +-Inf. */
  nonFinite: number;
  /** Missing evaluation steps inside series (between their first and last point). */
  gapSteps: number;
  /** Warnings the server attached to its answers (e.g. a Thanos partial response). */
  warnings: string[];
}

/** An answer plus its data-quality notes. */
export interface Answer<T> {
  data: T;
  quality: DataQuality;
}

/** The usage history the recommender reads. */
export interface MetricsSource {
  /** Container series per namespace seen in the `windowMs` before `at` (optionally only `namespaces`). */
  namespaceSizes(at: number, windowMs: number, namespaces?: readonly string[]): Promise<Map<string, number>>;
  /** CPU cores used, averaged over each step (over `rateWindowMs` when given: at least the step). */
  cpuUsage(namespaces: readonly string[], range: StepRange, rateWindowMs?: number): Promise<Answer<ContainerSeries[]>>;
  /**
   * Optional: the typical interval (ms) between the CPU samples of `namespaces` in the `windowMs`
   * before `at`, or undefined when no series has two samples there.
   */
  scrapeInterval?(namespaces: readonly string[], at: number, windowMs: number): Promise<number | undefined>;
  /** Memory working-set peak within each step. */
  memoryPeaks(namespaces: readonly string[], range: StepRange): Promise<Answer<ContainerSeries[]>>;
  /** OOM kills, one event per container and step with a kill. */
  oomKills(namespaces: readonly string[], range: StepRange): Promise<Answer<OomEvent[]>>;
  /** Owner links of pods, ReplicaSets and Jobs seen in the `windowMs` before `at`. */
  owners(namespaces: readonly string[], at: number, windowMs: number): Promise<OwnerLink[]>;
  /** Requests and limits as of `at` (the last value within `lookbackMs`). */
  resources(namespaces: readonly string[], at: number, lookbackMs: number): Promise<ContainerResources[]>;
  /**
   * The ordinary init containers (not native sidecars) of pods seen in the `windowMs` before `at`:
   * their usage is no workload container's. Optional: a source that cannot tell leaves it out.
   */
  initContainers?(namespaces: readonly string[], at: number, windowMs: number): Promise<ContainerKey[]>;
}

/** `namespace/pod/container`, the map key used throughout. */
export function containerId(key: ContainerKey): string {
  return `${key.namespace}/${key.pod}/${key.container}`;
}

/**
 * Orders two keys exactly as their {@link containerId} strings sort (and 0 when those are equal),
 * without building the strings: the fields are compared one by one, and only when one field is a
 * prefix of the other (where the '/' that follows it decides) are the ids built and compared.
 */
export function compareContainerIds(a: ContainerKey, b: ContainerKey): number {
  if (a.namespace !== b.namespace) return compareField(a.namespace, b.namespace, a, b);
  if (a.pod !== b.pod) return compareField(a.pod, b.pod, a, b);
  return compareStrings(a.container, b.container);
}

/** Two different fields x, y of a and b, the fields before them equal. */
function compareField(x: string, y: string, a: ContainerKey, b: ContainerKey): number {
  // A prefix sorts first on its own, but in the ids the '/' after it meets the longer one's next character.
  if (x < y) return y.startsWith(x) ? compareStrings(containerId(a), containerId(b)) : -1;
  return x.startsWith(y) ? compareStrings(containerId(a), containerId(b)) : 1;
}

const compareStrings = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** An empty quality record. */
export function cleanQuality(): DataQuality {
  return { nonFinite: 0, gapSteps: 0, warnings: [] };
}

/** Adds `b` into `a` (mutates and returns `a`). */
export function addQuality(a: DataQuality, b: DataQuality): DataQuality {
  a.nonFinite += b.nonFinite;
  a.gapSteps += b.gapSteps;
  for (const w of b.warnings) if (!a.warnings.includes(w)) a.warnings.push(w);
  return a;
}
