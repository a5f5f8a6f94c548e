/**
 * The replay: walks each container's samples forward in time under one strategy and a simulated
 * updater, and tallies slack, shortfall, OOM kills and changes.
 *
 * Per sample at time t (ms), in this order:
 *  1. if a recommendation is due (every `recommendationIntervalMs` of trace time), the strategy's
 *     estimate at t — built from samples before t only — goes through the updater's rules;
 *  2. the sample is scored against the requests in force: CPU slack/shortfall against the CPU
 *     request; memory slack against the memory limit, which the replay sets equal to the memory
 *     request (docs/decisions/0052);
 *  3. the strategy receives the sample. Memory above the limit is an OOM kill: the strategy sees
 *     usage capped at the limit (the kernel kills at the limit), then `recordOom(limit, t)`; the
 *     container restarts (its age starts again) and the updater acts on memory at once. Memory
 *     at or above 90% of the limit for 2 minutes triggers the updater's pressure guard: memory
 *     is raised at once (see UpdateRules.memoryPressure); a memory decrease never goes below the
 *     last hour's peak + max(15%, 64 MiB) (UpdateRules.memorySafety).
 * Before the strategy gives its first estimate, the requests are `initialRequest`.
 */
import type { Resources, UsageModel } from '../model/types.ts';
import type { ContainerSeries, Trace } from './trace.ts';
import { seriesDays, SECONDS_PER_DAY } from './trace.ts';
import { QualityTally } from './quality-tally.ts';
import { SlidingMax } from '../model/sliding-max.ts';
import { isClairvoyant, type ReplayStrategy } from './replay-strategy.ts';
import {
  cpuOutsideBounds,
  DEFAULT_UPDATE_RULES,
  drifted,
  memoryFloor,
  memoryOutsideBounds,
  stepToward,
  updateReason,
  type ContainerUpdateState,
  type UpdateRules,
} from './update-rules.ts';

/** Replay settings. */
export interface ReplayOptions {
  /** How often the strategy is asked, ms of trace time (default 60,000: 1 min). */
  recommendationIntervalMs: number;
  /** Requests before the strategy's first estimate (default 500 millicores, 1 GiB). */
  initialRequest: Resources;
  /** The simulated updater's rules. */
  rules: UpdateRules;
}

export const DEFAULT_REPLAY_OPTIONS: Readonly<ReplayOptions> = Object.freeze({
  recommendationIntervalMs: 60_000,
  initialRequest: Object.freeze({ cpu: 500, memory: 1024 ** 3 }),
  rules: DEFAULT_UPDATE_RULES,
});

/** The tallies of one strategy over a trace, one per container in trace order. */
export interface StrategyRun {
  strategy: string;
  containers: QualityTally[];
}

/** Replays every container of `trace` under `strategy`. */
export function replayTrace(trace: Trace, strategy: ReplayStrategy, options: Partial<ReplayOptions> = {}): StrategyRun {
  const opts: ReplayOptions = { ...DEFAULT_REPLAY_OPTIONS, ...options };
  return { strategy: strategy.name, containers: trace.containers.map((series) => replayContainer(series, strategy, opts)) };
}

/** Replays one container under `strategy` and returns its tally. */
export function replayContainer(series: ContainerSeries, strategy: ReplayStrategy, opts: ReplayOptions): QualityTally {
  const tally = new QualityTally(series.name);
  const n = series.length;
  if (n === 0) return tally;
  const clairvoyant = isClairvoyant(strategy);
  const model: UsageModel = clairvoyant ? strategy.newModelFor(series, opts.rules) : strategy.newModel();
  const exact = clairvoyant && strategy.ignoresStepLimits;
  const { rules } = opts;
  const { times, cpu, memory } = series;
  const dayMs = SECONDS_PER_DAY * 1000;
  const t0 = (times[0] ?? 0) * 1000;
  const state: ContainerUpdateState = {
    request: { cpu: opts.initialRequest.cpu, memory: opts.initialRequest.memory },
    startedAt: t0,
    lastChangeAt: -Infinity,
    oomPending: false,
    pressurePending: false,
    hasMemory: series.hasMemory,
  };
  const request = state.request;
  let nextRecommendation = t0;
  let lastOomSlot = -1;
  // The oracle's targets are exact: the pressure guard would only blur them.
  const pressure = exact ? null : rules.memoryPressure;
  const safety = exact || !series.hasMemory ? null : rules.memorySafety;
  const recentPeak = safety === null ? undefined : new SlidingMax(safety.windowMs);
  let pressureSince = -1;

  // Asks the strategy and applies what the updater's rules allow; counts real changes.
  const recommend = (now: number): void => {
    const estimate = model.estimate(now);
    if (estimate === undefined) return;
    // The oracles plan one change per cooldown and are never short (their requests are the peak
    // ahead; a peak further ahead is no shortage now): the short rule of decision 0296 is not theirs.
    const reason = updateReason(state, estimate, rules, now, !clairvoyant);
    if (reason === undefined) return;
    let newCpu = request.cpu;
    let newMemory = request.memory;
    if (reason === 'oom' || reason === 'memory-pressure') {
      let wanted = estimate.target.memory;
      if (reason === 'memory-pressure' && pressure !== null) wanted = Math.max(wanted, request.memory * pressure.raiseFactor);
      const raised = exact ? wanted : stepToward(request.memory, wanted, rules, estimate.lowerBound.memory);
      newMemory = Math.max(request.memory, raised);
      state.oomPending = false;
      state.pressurePending = false;
    } else {
      // Outside the bounds, only the resources outside theirs move, unless the drift rule holds
      // too: a CPU change does not drag memory along (and back).
      const all = reason === 'drift' || drifted(state, estimate, rules, now);
      if (all || cpuOutsideBounds(state, estimate))
        newCpu = exact ? estimate.target.cpu : stepToward(request.cpu, estimate.target.cpu, rules, estimate.lowerBound.cpu);
      if (all || memoryOutsideBounds(state, estimate)) {
        newMemory = exact ? estimate.target.memory : stepToward(request.memory, estimate.target.memory, rules, estimate.lowerBound.memory);
        // Memory safety: a decrease stops at the recent peak + margin (without a peak: no decrease).
        if (safety !== null && newMemory < request.memory) {
          const peak = recentPeak?.value();
          newMemory = peak === undefined ? request.memory : Math.max(newMemory, Math.min(request.memory, memoryFloor(peak, safety)));
        }
      }
    }
    if (newCpu !== request.cpu || newMemory !== request.memory) {
      const cause = `${reason}${direction(' cpu', request.cpu, newCpu)}${direction(' mem', request.memory, newMemory)}`;
      tally.changeCauses.set(cause, (tally.changeCauses.get(cause) ?? 0) + 1);
      request.cpu = newCpu;
      request.memory = newMemory;
      state.lastChangeAt = now;
      tally.changes++;
    }
  };

  for (let i = 0; i < n; i++) {
    const t = (times[i] ?? 0) * 1000;
    if (t >= nextRecommendation) {
      recommend(t);
      nextRecommendation = t + opts.recommendationIntervalMs;
    }
    const cores = cpu[i] ?? 0;
    const cpuUsed = cores * 1000;
    tally.cpuRequestSum += request.cpu;
    tally.cpuUsageSum += cpuUsed;
    if (cpuUsed < request.cpu) tally.cpuSlackSum += request.cpu - cpuUsed;
    else tally.cpuShortfallSum += cpuUsed - request.cpu;
    model.addCpuSample(cores, t);

    const bytes = memory[i] ?? NaN;
    if (Number.isNaN(bytes)) continue;
    const limit = request.memory;
    tally.memorySamples++;
    tally.memoryLimitSum += limit;
    recentPeak?.add(Math.min(bytes, limit), t);
    if (bytes <= limit) {
      tally.memorySlackSum += limit - bytes;
      model.addMemorySample(bytes, t);
      if (pressure === null || bytes < limit * pressure.threshold) {
        pressureSince = -1;
        continue;
      }
      if (pressureSince < 0) pressureSince = t;
      // The sample stands for its whole interval: two 1-minute samples make 2 minutes.
      if (t - pressureSince + series.intervalSeconds * 1000 >= pressure.durationMs) {
        state.pressurePending = true;
        pressureSince = -1;
        recommend(t);
      }
      continue;
    }
    pressureSince = -1;
    // OOM kill: the container never got past its limit.
    tally.ooms++;
    tally.restarts++;
    const slot = Math.floor((t - t0) / dayMs);
    if (slot !== lastOomSlot) {
      tally.oomDaySlots++;
      lastOomSlot = slot;
    }
    model.addMemorySample(limit, t);
    model.recordOom(limit, t);
    state.startedAt = t;
    state.oomPending = true;
    recommend(t);
  }

  tally.samples = n;
  tally.days = seriesDays(series);
  tally.daySlots = Math.floor(((times[n - 1] ?? 0) * 1000 - t0) / dayMs) + 1;
  return tally;
}

/** " cpu+" / " cpu-" for a raise / a cut, "" when unchanged. */
function direction(label: string, from: number, to: number): string {
  return to > from ? `${label}+` : to < from ? `${label}-` : '';
}
