/**
 * The clairvoyant oracle: at each change the updater's rules allow (one per cooldown), it sets the
 * requests to exactly the peak usage until the next allowed change, i.e. the peak over
 * [now, now + cooldown). It never runs short and is never OOM-killed; its slack is the physical
 * floor at that change rate. Its bounds equal its target, so the updater follows it at every
 * allowed change, and it skips the step limits.
 * Worked number: cooldown 1 h, CPU 0.2 cores for the next 59 min and 0.9 cores for one minute:
 * the request is 900 millicores for that hour.
 */
import type { ResourceEstimate, UsageModel } from '../model/types.ts';
import type { ClairvoyantStrategy } from './replay-strategy.ts';
import type { ContainerSeries } from './trace.ts';
import type { UpdateRules } from './update-rules.ts';

class OracleModel implements UsageModel {
  private readonly series: ContainerSeries;
  private readonly horizonMs: number;
  private cursor = 0;
  private readonly result: ResourceEstimate = {
    target: { cpu: 0, memory: 0 },
    lowerBound: { cpu: 0, memory: 0 },
    upperBound: { cpu: 0, memory: 0 },
  };

  constructor(series: ContainerSeries, horizonMs: number) {
    this.series = series;
    this.horizonMs = horizonMs;
  }

  addCpuSample(): void {}
  addMemorySample(): void {}
  recordOom(): void {}

  estimate(now: number): ResourceEstimate | undefined {
    const { times, cpu, memory, length } = this.series;
    while (this.cursor < length && (times[this.cursor] ?? 0) * 1000 < now) this.cursor++;
    const end = now + this.horizonMs;
    let peakCpu = 0;
    let peakMemory = 0;
    for (let i = this.cursor; i < length && (times[i] ?? 0) * 1000 < end; i++) {
      const c = cpu[i] ?? 0;
      if (c > peakCpu) peakCpu = c;
      const m = memory[i] ?? 0;
      if (m > peakMemory) peakMemory = m;
    }
    const r = this.result;
    r.target.cpu = r.lowerBound.cpu = r.upperBound.cpu = peakCpu * 1000;
    r.target.memory = r.lowerBound.memory = r.upperBound.memory = peakMemory;
    return r;
  }
}

/** The oracle baseline (needs the whole series: the replay hands it over). */
export function oracleStrategy(): ClairvoyantStrategy {
  return {
    name: 'oracle',
    description: 'clairvoyant: the peak usage until the next allowed change (the floor of slack)',
    clairvoyant: true,
    ignoresStepLimits: true,
    newModel: () => {
      throw new Error('the oracle needs the trace: use newModelFor(series, rules)');
    },
    newModelFor: (series: ContainerSeries, rules: UpdateRules) => new OracleModel(series, rules.cooldownMs),
  };
}
