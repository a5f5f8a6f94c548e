/**
 * The recommender's shared vocabulary. Units everywhere in the core: CPU in millicores, memory in
 * bytes, time in milliseconds since the Unix epoch (always passed in, never read from a clock).
 */

import type { ResourceEstimate } from '../api/recommendation.ts';
import type { ModelOptions } from './model-options.ts';

export { RESOURCE_NAMES, type ResourceName, type Resources } from 'kube-basics/resources';
export type { ContainerRecommendation, ResourceEstimate } from '../api/recommendation.ts';

/**
 * The usage history of one container (aggregated over the pods of a workload), fed sample by
 * sample with the time of each sample. A strategy decides what it keeps.
 *
 * `instance` (optional, e.g. the pod name) tells samples of different pods apart: the `vpa`
 * strategy keeps one memory peak per instance per interval and de-duplicates samples per instance,
 * as upstream does. Strategies that do not care may ignore it.
 */
export interface UsageModel {
  /** A CPU usage sample (cores used, averaged over the sample's interval) at time `at`. */
  addCpuSample(cores: number, at: number, instance?: string): void;
  /** A memory working-set sample (bytes) at time `at`. */
  addMemorySample(bytes: number, at: number, instance?: string): void;
  /**
   * An OOM kill at time `at`; `memoryUsedBytes` is the larger of the request and the observed peak.
   * `bump`: the VPA's own OOM bump (upstream 1.8's `oomBumpUpRatio` / `oomMinBumpUp`), for each
   * value set instead of the strategy's.
   */
  recordOom(memoryUsedBytes: number, at: number, instance?: string, bump?: OomBump): void;
  /** The estimate at time `now`, or undefined while the strategy has too little data. */
  estimate(now: number): ResourceEstimate | undefined;
}

/** A VPA's own OOM bump: the memory an OOM-killed container needed is max(used x ratio, used + min). */
export type OomBump = Partial<Pick<ModelOptions, 'oomBumpUpRatio' | 'oomMinBumpUpBytes'>>;

/** What a strategy may know about the container it models. */
export interface ModelContext {
  /** How many containers of the pod get a recommendation (per-pod floors are split across them). */
  containersInPod?: number;
}

/** A recommendation strategy: history in, recommendation out. Compared side by side by the replay. */
export interface Strategy {
  readonly name: string;
  readonly description: string;
  /** A fresh, empty usage model for one container. */
  newModel(context?: ModelContext): UsageModel;
  /**
   * True when the model needs its samples in time order across instances (pods): a feed that
   * delivers one pod's series after another must merge them first (report/workload-usage.ts).
   * Optional; absent means any order is fine (a histogram).
   */
  readonly timeOrdered?: boolean;
  /** Optional: the bytes of a model's state, so a restarted recommender resumes from it (decision 0261). */
  saveModel?(model: UsageModel): Uint8Array;
  /** Optional: a new model holding a state `saveModel` wrote; throws saying why when it cannot be restored. */
  restoreModel?(state: Uint8Array): UsageModel;
}
