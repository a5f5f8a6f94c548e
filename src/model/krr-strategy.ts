/**
 * KRR's "simple" strategy (robusta-dev/krr), as documented: CPU request = p95 of usage over the
 * last 14 days, memory = max over the last 14 days + 15%, nothing before 100 samples. KRR
 * publishes no bounds, so only the updater's age-and-difference rule moves its requests.
 * Memory stays bounded: a bucketed sliding quantile (1% resolution) and a monotonic max queue.
 * Worked number: 14 days of CPU at 0.2 cores with 4% of samples at 1 core: p95 = 0.2 cores
 * (200 millicores); memory peaking at 1,000 MB gives 1,150 MB.
 */
import type { ResourceEstimate, Strategy, UsageModel } from './types.ts';
import { SlidingMax } from './sliding-max.ts';
import { SlidingQuantile } from './sliding-quantile.ts';

const DAY_MS = 86_400_000;

/** KRR's settings, with its documented defaults. */
export interface KrrSettings {
  historyMs: number;
  cpuPercentile: number;
  memoryBuffer: number;
  minSamples: number;
}

export const KRR_DEFAULTS: Readonly<KrrSettings> = Object.freeze({
  historyMs: 14 * DAY_MS,
  cpuPercentile: 0.95,
  memoryBuffer: 0.15,
  minSamples: 100,
});

class KrrModel implements UsageModel {
  private readonly settings: KrrSettings;
  private readonly cpu: SlidingQuantile;
  private readonly memory: SlidingMax;
  private readonly result: ResourceEstimate = {
    target: { cpu: 0, memory: 0 },
    lowerBound: { cpu: 0, memory: 0 },
    upperBound: { cpu: Infinity, memory: Infinity },
  };

  constructor(settings: KrrSettings) {
    this.settings = settings;
    this.cpu = new SlidingQuantile(settings.cpuPercentile, settings.historyMs);
    this.memory = new SlidingMax(settings.historyMs);
  }

  addCpuSample(cores: number, at: number): void {
    this.cpu.add(cores, at);
  }

  addMemorySample(bytes: number, at: number): void {
    this.memory.add(bytes, at);
  }

  recordOom(): void {
    // The simple strategy ignores OOM events; the capped usage sample already raises the max.
  }

  estimate(now: number): ResourceEstimate | undefined {
    this.cpu.expire(now);
    this.memory.expire(now);
    if (this.cpu.count < this.settings.minSamples) return undefined;
    this.result.target.cpu = (this.cpu.value() ?? 0) * 1000;
    this.result.target.memory = (this.memory.value() ?? 0) * (1 + this.settings.memoryBuffer);
    return this.result;
  }
}

/** The KRR baseline. The returned estimate object is reused: read it before the next call. */
export function krrStrategy(settings: Partial<KrrSettings> = {}): Strategy {
  const s: KrrSettings = { ...KRR_DEFAULTS, ...settings };
  return {
    name: 'krr',
    description: 'KRR simple: CPU p95 over 14 days, memory max over 14 days + 15%, after 100 samples',
    newModel: () => new KrrModel(s),
  };
}
