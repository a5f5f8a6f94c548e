/**
 * What /healthz and /readyz mean for a loop, as a pure state fed by the scheduler's events:
 *
 * - live: cycles keep ending. Unhealthy when the loop is active (this replica leads, or there is
 *   no leader election) and no cycle has ended - successfully or not - for N intervals since the
 *   later of the last cycle end and the moment it became active. A cycle stuck for N intervals, or
 *   a scheduler that stopped ticking, makes the pod unhealthy so the kubelet restarts it; a loop
 *   that fails every cycle stays live (failures are counted and alerted on, not restarted away).
 *   Worked example: interval 60 s, N = 3: active since 10:00:00, last cycle ended 10:05:00 -> live
 *   until 10:08:00, unhealthy from then on.
 * - ready: after the first successful cycle. A standby replica (not leading) is ready: it serves
 *   /metrics and is ready to take over, and a Deployment rollout must not wait for the leader.
 */
import type { CycleOutcome, LoopObserver } from './loop-scheduler.ts';

/** A named check: undefined = fine, else the reason it is not. */
export interface HealthCheck {
  name: string;
  live(now: number): string | undefined;
  ready(now: number): string | undefined;
}

export class LoopHealth implements HealthCheck, LoopObserver {
  private active = false;
  private activeSince = 0;
  private lastEnd: number | undefined;
  private succeeded = false;

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly unhealthyAfterIntervals: number,
  ) {}

  /** The loop runs (leadership gained, or started without election) / stops (leadership lost). */
  setActive(active: boolean, at: number): void {
    if (active && !this.active) this.activeSince = at;
    this.active = active;
  }

  cycleEnded(_loop: string, outcome: CycleOutcome): void {
    this.lastEnd = outcome.startedAt + outcome.durationMs;
    if (outcome.ok) this.succeeded = true;
  }

  live(now: number): string | undefined {
    if (!this.active) return undefined;
    const since = Math.max(this.activeSince, this.lastEnd ?? 0);
    const limit = this.intervalMs * this.unhealthyAfterIntervals;
    if (now - since <= limit) return undefined;
    return `${this.name}: no cycle has ended for ${Math.round((now - since) / 1000)} s (limit ${this.unhealthyAfterIntervals} intervals of ${this.intervalMs / 1000} s)`;
  }

  ready(): string | undefined {
    if (!this.active || this.succeeded) return undefined;
    return `${this.name}: no successful cycle yet`;
  }
}
