/**
 * The `vpa` strategy: the upstream Vertical Pod Autoscaler's recommender with its defaults
 * (decaying histograms, p90/p50/p95, +15%, confidence-scaled bounds, per-pod floors). Any option of
 * {@link ModelOptions} can be overridden.
 */
import { AggregateContainerState } from './aggregate-container-state.ts';
import { estimateContainer } from './estimator.ts';
import { createModelConfig, defaultModelConfig, type ModelConfig } from './model-config.ts';
import type { ModelOptions } from './model-options.ts';
import type { ModelContext, OomBump, ResourceEstimate, Strategy, UsageModel } from './types.ts';

/** The `vpa` usage model: an {@link AggregateContainerState} plus the estimator. */
export class VpaUsageModel implements UsageModel {
  readonly state: AggregateContainerState;

  /** `state` resumes from existing history (e.g. one loaded with `loadAggregateCheckpoint`). */
  constructor(
    config: ModelConfig,
    readonly containersInPod = 1,
    state?: AggregateContainerState,
  ) {
    if (state && state.config !== config) throw new Error('the state was built with a different model config');
    this.state = state ?? new AggregateContainerState(config);
  }

  addCpuSample(cores: number, at: number, instance?: string): void {
    this.state.addCpuSample(cores, at, instance);
  }

  addMemorySample(bytes: number, at: number, instance?: string): void {
    this.state.addMemorySample(bytes, at, instance);
  }

  recordOom(memoryUsedBytes: number, at: number, instance?: string, bump?: OomBump): void {
    this.state.recordOom(memoryUsedBytes, at, instance, bump);
  }

  /** The upstream estimate; it does not depend on `now` (decay is relative to the newest samples). */
  estimate(_now: number): ResourceEstimate | undefined {
    return estimateContainer(this.state, this.containersInPod);
  }
}

/** The `vpa` strategy, with the upstream defaults unless `overrides` change them. */
export function vpaStrategy(overrides: Partial<ModelOptions> = {}, name = 'vpa'): Strategy {
  const config = Object.keys(overrides).length === 0 ? defaultModelConfig() : createModelConfig(overrides);
  return {
    name,
    description: 'upstream VPA recommender: decaying histograms, p90 target, p50/p95 bounds scaled by confidence, +15%',
    newModel(context?: ModelContext): VpaUsageModel {
      return new VpaUsageModel(config, context?.containersInPod ?? 1);
    },
  };
}
