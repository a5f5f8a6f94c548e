/**
 * What the strategy believes the container's requests are: the updater's rules
 * (src/policy/change-rules.ts, with the updater's options as configured) run on the strategy's own
 * estimates. The recommender never sees the requests; with this mirror it knows when the updater
 * will change them anyway (a request outside the bounds, drift, memory pressure, an OOM kill), so
 * a pending change of the other resource can ride along in the same resize (decision 0250).
 * Pure: time is passed in. The mirror is a belief; when it is wrong the cost is at most one
 * change the updater would not otherwise have made.
 * Example: memory request 1 GiB, the memory need rises to 1.1 GiB (below the lower bound): the
 * updater will raise memory now, so a CPU cut that is still waiting for its price goes with it.
 */
import type { ResourceEstimate } from '../types.ts';
import { SlidingMax } from '../sliding-max.ts';
import {
  coolingDown,
  anyShortOfLowerBound,
  isDrift,
  limitStep,
  memoryLimitFloor,
  oldEnoughToDrift,
  relativeChange,
  safeMemoryLimit,
  type ChangeRuleOptions,
} from '../../policy/change-rules.ts';

export class UpdaterMirror {
  /** The updater's options (settings, not state: the model-state walk skips `o`). */
  private readonly o: Readonly<ChangeRuleOptions>;
  /** The believed requests (NaN before the first estimate: the first one is taken as applied). */
  cpu = NaN;
  memory = NaN;
  private lastChangeAt = -Infinity;
  private startedAt = NaN;
  private hasMemory = false;
  private pressureSince = NaN;
  private pressurePending = false;
  private readonly recentPeak: SlidingMax;
  /** Times of the believed changes of the last day, oldest first (for a change budget). */
  private readonly changeTimes: number[] = [];

  /** `rules`: the updater's options, as the operator set them. */
  constructor(rules: Readonly<ChangeRuleOptions>) {
    this.o = rules;
    this.recentPeak = new SlidingMax(rules.memoryPeakWindowMs);
  }

  /** A memory sample: the safety floor's recent peak, and the pressure guard (working set near the limit). */
  addMemorySample(bytes: number, at: number): void {
    if (Number.isNaN(this.startedAt)) this.startedAt = at;
    this.hasMemory = true;
    this.recentPeak.add(bytes, at);
    if (!(bytes >= this.memory * this.o.memoryPressureRatio)) {
      this.pressureSince = NaN;
      return;
    }
    if (Number.isNaN(this.pressureSince)) this.pressureSince = at;
    if (at - this.pressureSince >= this.o.memoryPressureWindowMs) this.pressurePending = true;
  }

  /** A CPU sample: only the container's start matters here. */
  addCpuSample(at: number): void {
    if (Number.isNaN(this.startedAt)) this.startedAt = at;
  }

  /** An OOM kill: the container restarts and the updater raises memory at once. */
  recordOom(at: number): void {
    this.startedAt = at;
    this.pressurePending = true;
  }

  /** Believed changes in (now - windowMs, now]. */
  changesWithin(now: number, windowMs: number): number {
    let n = 0;
    for (const t of this.changeTimes) if (t > now - windowMs) n++;
    return n;
  }

  /**
   * Would the updater change the requests now, given `estimate`? 'urgent': an OOM kill or memory
   * pressure, memory alone is raised (no cooldown); 'all': outside the bounds or drift (the cooldown
   * held, unless a request is short of its lowerBound by the drift threshold), every
   * resource goes to its target (the updater's rule, src/updater/policy-targets.ts). A trigger
   * that leaves the requests as they are (the target is the request) is no change.
   */
  wouldAct(now: number, e: ResourceEstimate): 'urgent' | 'all' | undefined {
    if (Number.isNaN(this.cpu)) return 'all';
    if (this.pressurePending && this.hasMemory) return 'urgent';
    if (coolingDown(now - this.lastChangeAt, this.o) && !anyShortOfLowerBound(this.cpu, this.memory, e.lowerBound, this.hasMemory, this.o)) return undefined;
    const outside =
      this.cpu < e.lowerBound.cpu ||
      this.cpu > e.upperBound.cpu ||
      (this.hasMemory && (this.memory < e.lowerBound.memory || this.memory > e.upperBound.memory));
    if (!outside && !this.drifted(now, e)) return undefined;
    return this.nextCpu(e) !== this.cpu || (this.hasMemory && this.nextMemory(e, 'all') !== this.memory) ? 'all' : undefined;
  }

  /**
   * The updater changed the requests toward `estimate`, one step: both resources ('all'), or
   * memory alone, raised by at least the pressure factor ('urgent'); memory never below the safety floor.
   */
  apply(now: number, e: ResourceEstimate, how: 'urgent' | 'all'): void {
    this.memory = this.nextMemory(e, how);
    if (how === 'all') this.cpu = this.nextCpu(e);
    this.pressurePending = false;
    this.pressureSince = NaN;
    this.lastChangeAt = now;
    this.changeTimes.push(now);
    while (this.changeTimes.length > 0 && this.changeTimes[0]! <= now - 86_400_000) this.changeTimes.shift();
  }

  private drifted(now: number, e: ResourceEstimate): boolean {
    if (!oldEnoughToDrift(now - this.startedAt, this.o)) return false;
    let diff = relativeChange(this.cpu, e.target.cpu);
    if (this.hasMemory) diff += relativeChange(this.memory, e.target.memory);
    return isDrift(diff, this.o);
  }

  private nextCpu(e: ResourceEstimate): number {
    return Number.isNaN(this.cpu) ? e.target.cpu : limitStep(this.cpu, e.target.cpu, this.o, e.lowerBound.cpu);
  }

  private nextMemory(e: ResourceEstimate, how: 'urgent' | 'all'): number {
    const o = this.o;
    if (Number.isNaN(this.memory)) return e.target.memory;
    let memory = e.target.memory;
    if (how === 'urgent') memory = Math.max(memory, this.memory * o.memoryPressureRaiseFactor);
    memory = limitStep(this.memory, memory, o, e.lowerBound.memory);
    if (memory < this.memory) memory = safeMemoryLimit(this.memory, memory, memoryLimitFloor(this.recentPeak.value(), o));
    return how === 'urgent' ? Math.max(memory, this.memory) : memory;
  }
}
