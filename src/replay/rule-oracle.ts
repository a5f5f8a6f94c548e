/**
 * The rule-obeying oracle (`oracle-rules`, issue 15 item 4): clairvoyant like `oracle`, but every
 * request it wants goes through the updater's rules as any strategy's does — one change per
 * cooldown, at most x2 up / x0.5 down per change, the memory-safety floor on decreases, the pressure
 * guard. Its slack is therefore the least any strategy can reach under Tailor's updater, a fairer
 * yardstick than `oracle`, which the replay applies exactly.
 *
 * Its target at `now` covers the need of the next cooldown and keeps every later need reachable
 * with x2 steps: max over k >= 0 of need[now + k cooldown, now + (k + 1) cooldown) / maxStepUp^k.
 * The need of a sample is its CPU; for memory it is the working set and, so that the pressure
 * guard never fires, the level held for the guard's window divided by its threshold (a limit
 * above which the sample stays under the 90% line). Bounds equal the target: the updater follows
 * it at every allowed change.
 * Worked number (CPU, cooldown 15 min): idle at 100m, then 1,600m from 60 minutes on: the target is
 * 200m from 0-15 min (1,600 / 2^3), 400m, 800m, 1,600m from 45 min: each rise one step.
 */
import type { ResourceEstimate, UsageModel } from '../model/types.ts';
import type { ClairvoyantStrategy } from './replay-strategy.ts';
import type { ContainerSeries } from './trace.ts';
import type { UpdateRules } from './update-rules.ts';

/** Look-ahead cooldowns at most (x2^24 covers any request range). */
const MAX_AHEAD = 24;

/**
 * For each sample i, the maximum of `values` over the samples whose time is in [t_i, t_i + windowMs)
 * (a monotonic deque, O(n)).
 */
export function forwardWindowMax(times: Float64Array, values: Float64Array, length: number, windowMs: number): Float64Array {
  const out = new Float64Array(length);
  const deque = new Int32Array(length);
  let head = 0;
  let tail = 0;
  let j = 0;
  for (let i = 0; i < length; i++) {
    const end = (times[i] ?? 0) * 1000 + windowMs;
    while (j < length && (times[j] ?? 0) * 1000 < end) {
      const v = values[j] ?? 0;
      while (tail > head && (values[deque[tail - 1]!] ?? 0) <= v) tail--;
      deque[tail++] = j++;
    }
    while (tail > head && deque[head]! < i) head++;
    out[i] = tail > head ? (values[deque[head]!] ?? 0) : 0;
  }
  return out;
}

/**
 * Memory need per sample: the working set, and the level sustained over the pressure window
 * (minimum of the samples that make it up) divided by the threshold, just above it.
 * Example, 1-minute samples, 2-minute window, threshold 0.9: 800, 900 MiB -> need at the second
 * sample max(900, 800 / 0.9 = 888.9) = 900 MiB (plus a byte): a 900 MiB limit keeps 800 below 810.
 */
export function memoryNeeds(series: ContainerSeries, rules: UpdateRules): Float64Array {
  const { memory, length, intervalSeconds } = series;
  const out = new Float64Array(length);
  const pressure = rules.memoryPressure;
  const run = pressure === null ? 0 : Math.max(1, Math.ceil(pressure.durationMs / (intervalSeconds * 1000)));
  for (let i = 0; i < length; i++) {
    const m = memory[i] ?? NaN;
    if (Number.isNaN(m)) continue;
    let need = m;
    if (pressure !== null && i + 1 >= run) {
      let held = Infinity;
      for (let j = i - run + 1; j <= i; j++) held = Math.min(held, Number.isNaN(memory[j] ?? NaN) ? 0 : (memory[j] ?? 0));
      need = Math.max(need, Math.floor(held / pressure.threshold) + 1);
    }
    out[i] = need;
  }
  return out;
}

class RuleOracleModel implements UsageModel {
  private readonly times: Float64Array;
  private readonly length: number;
  private readonly cooldownMs: number;
  private readonly step: number;
  /** Per sample: the largest need in [t_i, t_i + cooldown), CPU in millicores and memory in bytes. */
  private readonly cpuAhead: Float64Array;
  private readonly memoryAhead: Float64Array;
  /** Per sample: the largest need from it to the end (stops the look-ahead early). */
  private readonly cpuRest: Float64Array;
  private readonly memoryRest: Float64Array;
  private cursor = 0;
  private readonly result: ResourceEstimate = {
    target: { cpu: 0, memory: 0 },
    lowerBound: { cpu: 0, memory: 0 },
    upperBound: { cpu: 0, memory: 0 },
  };

  constructor(series: ContainerSeries, rules: UpdateRules) {
    const n = series.length;
    this.times = series.times;
    this.length = n;
    this.cooldownMs = Math.max(1, rules.cooldownMs);
    this.step = rules.maxStepUp > 1 ? rules.maxStepUp : Infinity;
    const cpu = new Float64Array(n);
    // Whole millicores, as requests are; the 1e-3 forgives float32 storage (1.6 cores is 1,600.00002m).
    for (let i = 0; i < n; i++) cpu[i] = Math.ceil((series.cpu[i] ?? 0) * 1000 - 1e-3);
    const memory = memoryNeeds(series, rules);
    this.cpuAhead = forwardWindowMax(series.times, cpu, n, this.cooldownMs);
    this.memoryAhead = forwardWindowMax(series.times, memory, n, this.cooldownMs);
    this.cpuRest = suffixMax(cpu);
    this.memoryRest = suffixMax(memory);
  }

  addCpuSample(): void {}
  addMemorySample(): void {}
  recordOom(): void {}

  estimate(now: number): ResourceEstimate | undefined {
    while (this.cursor < this.length && (this.times[this.cursor] ?? 0) * 1000 < now) this.cursor++;
    const r = this.result;
    r.target.cpu = r.lowerBound.cpu = r.upperBound.cpu = this.reach(this.cpuAhead, this.cpuRest, now);
    r.target.memory = r.lowerBound.memory = r.upperBound.memory = this.reach(this.memoryAhead, this.memoryRest, now);
    return r;
  }

  /** max over k of ahead[first sample at or after now + k cooldown] / step^k. */
  private reach(ahead: Float64Array, rest: Float64Array, now: number): number {
    let best = 0;
    let index = this.cursor;
    let divisor = 1;
    for (let k = 0; k <= MAX_AHEAD && index < this.length; k++, divisor *= this.step) {
      if ((rest[index] ?? 0) / divisor <= best) break;
      best = Math.max(best, (ahead[index] ?? 0) / divisor);
      index = this.firstAtOrAfter(now + (k + 1) * this.cooldownMs, index);
    }
    return best;
  }

  private firstAtOrAfter(atMs: number, from: number): number {
    let lo = from;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.times[mid] ?? 0) * 1000 < atMs) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function suffixMax(values: Float64Array): Float64Array {
  const out = new Float64Array(values.length);
  let best = 0;
  for (let i = values.length - 1; i >= 0; i--) {
    best = Math.max(best, values[i] ?? 0);
    out[i] = best;
  }
  return out;
}

/** The rule-obeying oracle (needs the whole series: the replay hands it over). */
export function ruleOracleStrategy(): ClairvoyantStrategy {
  return {
    name: 'oracle-rules',
    description: "clairvoyant under the updater's rules (cooldown, x2 steps, memory floor, pressure guard): the least slack any strategy can reach",
    clairvoyant: true,
    ignoresStepLimits: false,
    newModel: () => {
      throw new Error('the rule-obeying oracle needs the trace: use newModelFor(series, rules)');
    },
    newModelFor: (series: ContainerSeries, rules: UpdateRules) => new RuleOracleModel(series, rules),
  };
}
