/**
 * The `tailor` strategy: CPU from {@link CpuTarget} (p90.2 of the better of an hour-of-day and an
 * all-hours model — the latter with a per-container half-life — reachable under the step limit,
 * raised on sustained increases), memory from {@link MemoryTarget} (the tightest trusted peak rule
 * + 12%, OOM bump held 12 h). The lower bounds are the need of now; a change goes to a target that
 * should last, as far ahead as the excess costs at most 0.1 core-hour / 0.3 GiB-hour (priced-hold.ts,
 * decisions 0251, 0269: a leak's growth — under every memory rule once a trend test says it rises —
 * or the hour-of-day levels ahead), so requests move in fewer, larger steps. Memory never decreases
 * in the first 6 hours. The published CPU target is held (held-target.ts): raised once the need
 * passes the updater's drift threshold, cut once the cut has saved 0.1 core-hour (decision 0246);
 * the memory target likewise, raised at once, cut once it has saved 0.3 GiB-hour, and a pending cut
 * of either rides along a move of the other (decision 0273).
 * Why each part is there, with figures: docs/tailor-strategy.md.
 */
import type { OomBump, ResourceEstimate, Strategy, UsageModel } from '../types.ts';
import { CpuTarget } from './cpu-target.ts';
import { MemoryTarget } from './memory-target.ts';
import { HeldTarget, type HeldTargetOptions } from './held-target.ts';
import type { TailorOptions } from './options.ts';
import { tailorSettings, type TailorExperiments, type TailorSettings } from './experiments.ts';
import { UpdaterMirror } from './updater-mirror.ts';
import type { ChangeRuleOptions } from '../../policy/change-rules.ts';
import { DEFAULT_UPDATER_OPTIONS } from '../../policy/update-thresholds.ts';
import { pricedHold } from './priced-hold.ts';
import { restoreModelState, saveModelState } from './model-state.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GIB = 1024 ** 3;
/** The horizons a priced hold chooses from (holdPriceCoreHours, memoryHoldPriceGiBHours). */
const CPU_HOLDS_MS = [15 * 60_000, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR];
const MEMORY_HOLDS_MS = [HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 16 * HOUR];

/** What every model of one strategy shares (one copy, not one per container: decision 0260). */
export interface TailorShared {
  /** Every answer of every model sharing it: read it before the next call of any of them. */
  result: ResourceEstimate;
  heldCpu: HeldTargetOptions | undefined;
  heldMemory: HeldTargetOptions | undefined;
}

/** The shared part for `options`. */
export function tailorShared(options: TailorOptions): TailorShared {
  let heldCpu: HeldTargetOptions | undefined;
  let heldMemory: HeldTargetOptions | undefined;
  if (options.stickyTargets) {
    const [cpuLow, cpuHigh, memoryLow, memoryHigh] = options.stickyBand;
    heldCpu = { low: cpuLow, high: cpuHigh, cutCostAbsHours: options.stickyCutCostCoreHours * 1000 };
    if (Number.isFinite(memoryLow)) heldMemory = { low: memoryLow, high: memoryHigh };
  }
  // A priced memory cut (decision 0273): raises at once, a cut once the excess has paid for it.
  if (heldMemory === undefined && options.memoryCutPriceGiBHours > 0) {
    heldMemory = { low: 1, high: 1, cutCostAbsHours: options.memoryCutPriceGiBHours * GIB };
  }
  return { result: { target: { cpu: 0, memory: 0 }, lowerBound: { cpu: 0, memory: 0 }, upperBound: { cpu: 0, memory: 0 } }, heldCpu, heldMemory };
}

export class TailorModel implements UsageModel {
  private readonly o: TailorSettings;
  private readonly cpu: CpuTarget;
  private readonly memory: MemoryTarget;
  /** Reused for every answer (shared by the strategy's models): read it before the next call. */
  private readonly result: ResourceEstimate;

  /** With `stickyTargets` (CPU by default): the published targets, which move only when they leave their band. */
  private readonly heldCpu: HeldTarget | undefined;
  private readonly heldMemory: HeldTarget | undefined;
  /** With `coalesceChanges`: the requests as the updater's rules would have set them from these estimates. */
  private readonly mirror: UpdaterMirror | undefined;

  constructor(options: TailorSettings, shared: TailorShared = tailorShared(options)) {
    this.o = options;
    this.cpu = new CpuTarget(options);
    this.memory = new MemoryTarget(options);
    if (options.coalesceChanges) this.mirror = new UpdaterMirror(options.updater);
    this.result = shared.result;
    if (shared.heldCpu) this.heldCpu = new HeldTarget(shared.heldCpu);
    if (shared.heldMemory) this.heldMemory = new HeldTarget(shared.heldMemory);
  }

  addCpuSample(cores: number, at: number): void {
    this.cpu.add(cores, at);
    this.mirror?.addCpuSample(at);
  }

  addMemorySample(bytes: number, at: number): void {
    this.memory.add(bytes, at);
    this.mirror?.addMemorySample(bytes, at);
  }

  recordOom(memoryUsedBytes: number, at: number, _instance?: string, bump?: OomBump): void {
    this.memory.recordOom(memoryUsedBytes, at, bump);
    this.mirror?.recordOom(at);
  }

  /**
   * The estimate at `now`: undefined before the first CPU sample, unless an OOM kill's floor holds
   * (a container killed before it was ever sampled: memory from the kill, CPU at its minimum, as
   * upstream gives it; decision 0298).
   */
  estimate(now: number): ResourceEstimate | undefined {
    if (!this.cpu.hasData && !this.memory.oomHeld(now)) return undefined;
    const o = this.o;
    // The need of now sets the lower bound; a change goes to the held target (see cpuHoldMs).
    const cpuNeed = Math.max(o.minCpuMillicores, this.cpu.target(now) * 1000);
    const cpuHold =
      o.holdPriceCoreHours > 0
        ? pricedHold(CPU_HOLDS_MS, (h) => this.cpu.holdTarget(now, h) * 1000, cpuNeed, o.holdPriceCoreHours * 1000)
        : this.cpu.holdTarget(now) * 1000;
    const cpu = Math.max(cpuNeed, o.minCpuMillicores, cpuHold);
    const memoryNeed = Math.max(o.minMemoryBytes, this.memory.peak(now) * (1 + o.memoryMargin));
    const margin = 1 + o.memoryMargin;
    const memoryHold =
      o.memoryHoldPriceGiBHours > 0
        ? pricedHold(MEMORY_HOLDS_MS, (h) => this.memory.holdPeak(now, h) * margin, memoryNeed, o.memoryHoldPriceGiBHours * GIB)
        : this.memory.holdPeak(now) * margin;
    const memory = Math.max(memoryNeed, memoryHold);
    const r = this.result;
    r.lowerBound.cpu = cpuNeed * o.cpuLowerFactor;
    r.upperBound.cpu = cpu * o.cpuUpperFactor;
    r.lowerBound.memory = memoryNeed * o.memoryLowerFactor;
    // Early on (memoryLearnMs, 6 h), memory only goes up: the first peaks may still be to come.
    r.upperBound.memory = this.memory.historyMs(now) < o.memoryLearnMs ? Infinity : memory * o.memoryUpperFactor;
    // Over the day's change budget, cuts wait for a change that happens anyway.
    const cutAllowed = this.mirror === undefined || o.changeBudgetPerDay <= 0 || this.mirror.changesWithin(now, DAY) < o.changeBudgetPerDay;
    const memoryMayFall = Number.isFinite(r.upperBound.memory);
    if (!cutAllowed) r.upperBound.memory = Infinity;
    const heldCpuBefore = this.heldCpu?.value;
    const heldMemoryBefore = this.heldMemory?.value;
    r.target.cpu = this.heldCpu === undefined ? cpu : this.heldCpu.update(now, cpuNeed, cpu, Infinity, cutAllowed);
    r.target.memory = this.heldMemory === undefined ? memory : this.heldMemory.update(now, memoryNeed, memory, r.upperBound.memory, cutAllowed);
    if (o.cutsRideAlong) this.rideAlong(cpu, memory, heldCpuBefore, heldMemoryBefore, memoryMayFall);
    // A held memory target above the fresh one keeps its limit: the upper bound follows it.
    if (o.memoryCutPriceGiBHours > 0) r.upperBound.memory = Math.max(r.upperBound.memory, r.target.memory * o.memoryUpperFactor);
    if (this.mirror !== undefined) this.coalesce(now, cpu, memory, memoryMayFall);
    return r;
  }

  /**
   * A pending cut rides along the other resource's move (decision 0273): when one held target
   * moves, the updater will change the requests (and the drift rule moves every resource whose
   * target moved), so the other held target, if above its fresh value, goes to it in that change.
   */
  private rideAlong(cpu: number, memory: number, cpuBefore: number | undefined, memoryBefore: number | undefined, memoryMayFall: boolean): void {
    const r = this.result;
    const cpuMoved = cpuBefore !== undefined && !Number.isNaN(cpuBefore) && r.target.cpu !== cpuBefore;
    const memoryMoved = memoryBefore !== undefined && !Number.isNaN(memoryBefore) && r.target.memory !== memoryBefore;
    if (memoryMoved && !cpuMoved && this.heldCpu !== undefined && cpu < r.target.cpu) {
      this.heldCpu.set(cpu);
      r.target.cpu = cpu;
    }
    if (cpuMoved && !memoryMoved && memoryMayFall && this.heldMemory !== undefined && memory < r.target.memory) {
      this.heldMemory.set(memory);
      r.target.memory = memory;
    }
  }

  /**
   * When the updater will change the requests anyway (the mirror says so), every resource goes to
   * its fresh target in that change: the held targets move, and the bounds are pinned to the
   * targets so that a resource inside its bounds moves too (the replay moves only the resources
   * outside their bounds unless the drift rule holds; the updater moves all of them).
   */
  private coalesce(now: number, cpu: number, memory: number, memoryMayFall: boolean): void {
    const r = this.result;
    const how = this.mirror!.wouldAct(now, r);
    if (how === 'all') {
      r.target.cpu = cpu;
      r.target.memory = memory;
      this.heldCpu?.set(cpu);
      this.heldMemory?.set(memory);
      r.lowerBound.cpu = cpu;
      r.upperBound.cpu = cpu;
      r.lowerBound.memory = memory;
      // Early on memory only goes up (memoryLearnMs): the upper bound stays open.
      if (memoryMayFall) r.upperBound.memory = memory;
    }
    if (how !== undefined) this.mirror!.apply(now, r, how);
  }
}

/**
 * The `tailor` strategy; `overrides` change any default of {@link TailorOptions}. `experiments`
 * turns research knobs on (the benches that explore them, and tests: decision 0286); the product's
 * strategies never do. `updater`: the options of the updater that will apply the recommendations
 * (`tailor run` passes the operator's; default: the updater's defaults, which the replay simulates).
 */
export function tailorStrategy(
  overrides: Partial<TailorOptions> = {},
  name = 'tailor',
  experiments: Partial<TailorExperiments> = {},
  updater: Readonly<ChangeRuleOptions> = DEFAULT_UPDATER_OPTIONS,
): Strategy {
  const options = tailorSettings(overrides, experiments, updater);
  const shared = tailorShared(options);
  return {
    name,
    description: 'Tailor: CPU p90.2 by hour of day or all hours (the better predictor), memory from the tightest trusted peak rule + 12%, fast OOM reaction',
    newModel: () => new TailorModel(options, shared),
    saveModel: (model) => {
      if (!(model instanceof TailorModel)) throw new TypeError('not a tailor model');
      return saveModelState(model, options);
    },
    restoreModel: (state) => restoreModelState(state, new TailorModel(options, shared), options),
    // Hour transitions, surge windows and the after-the-fact checks assume a forward clock.
    timeOrdered: true,
  };
}
