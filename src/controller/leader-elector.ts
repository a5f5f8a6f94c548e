/**
 * Leader election on a Lease, as client-go does it: try to acquire every `retryPeriod`; once
 * leading, renew every `retryPeriod`; step down when no renewal has succeeded for
 * `renewDeadline` (or the Lease names someone else); on shutdown, release the Lease so another
 * replica takes over at once instead of after `leaseDuration`. Writes use the resourceVersion read
 * (optimistic concurrency): a 409 means another replica wrote first, so the Lease is re-read.
 *
 * Timeline with the defaults (lease 15 s, renew deadline 10 s, retry 2 s): the leader renews every
 * 2 s; if the API server stops answering at t = 0, the leader steps down at t = 10 s, while the
 * others may take over from t = 15 s after the last renewal they saw - never two writers at once,
 * as long as clocks tick at the same rate.
 *
 * Clock and sleep are injected. Callbacks: `onStartedLeading(signal)` when this replica becomes
 * leader (the signal aborts when it stops), `onStoppedLeading()` (awaited before trying to lead
 * again), `onNewLeader(identity)` when the observed holder changes.
 */
import { moduleLogger, type Logger } from '../observability/logger.ts';
import { realSleep, systemClock, type Clock, type Sleep } from '../kube/clock.ts';
import { leaseAction, releasedRecord, type LeaseSnapshot } from '../kube/lease-decision.ts';
import type { LeaseStore } from '../kube/lease-store.ts';
import { classificationOf } from '../kube/errors.ts';

export interface LeaderElectorOptions {
  store: LeaseStore;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  logger: Logger;
  clock?: Clock;
  sleep?: Sleep;
  /** Jitter of the acquire period, [0, 1) (default Math.random); waits are retryPeriod x (1 + 0.2 x random). */
  random?: () => number;
  onStartedLeading?: (signal: AbortSignal) => void;
  onStoppedLeading?: () => void | Promise<void>;
  onNewLeader?: (identity: string) => void;
}

export class LeaderElector {
  private leading = false;
  private observed: LeaseSnapshot | undefined;
  private observedAt = 0;
  private lastRenew = 0;
  private lastHolder = '';
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly log: Logger;

  constructor(private readonly o: LeaderElectorOptions) {
    if (!(o.retryPeriodMs < o.renewDeadlineMs && o.renewDeadlineMs < o.leaseDurationMs)) {
      throw new Error(
        `leader election needs retryPeriod < renewDeadline < leaseDuration (got ${o.retryPeriodMs}, ${o.renewDeadlineMs}, ${o.leaseDurationMs} ms)`,
      );
    }
    this.clock = o.clock ?? systemClock;
    this.sleep = o.sleep ?? realSleep;
    this.random = o.random ?? Math.random;
    this.log = moduleLogger(o.logger, 'leader-election', { lease: o.store.where, identity: o.identity });
  }

  /** True while this replica holds the Lease. */
  isLeader(): boolean {
    return this.leading;
  }

  /** The holder last seen in the Lease ('' for none). */
  currentLeader(): string {
    return this.lastHolder;
  }

  /**
   * Runs until `signal` aborts; then releases the Lease if leading (unless `release` is false,
   * which simulates a crash in tests) and resolves.
   */
  async run(signal: AbortSignal, options: { release?: boolean } = {}): Promise<void> {
    while (!signal.aborted) {
      if (!(await this.tryAcquireOrRenew())) {
        await this.pause(this.o.retryPeriodMs * (1 + 0.2 * this.random()), signal);
        continue;
      }
      const leadership = new AbortController();
      this.leading = true;
      this.log.info('became leader');
      this.o.onStartedLeading?.(leadership.signal);
      await this.renewWhileLeading(signal);
      this.leading = false;
      leadership.abort(new Error('leadership lost'));
      // Stop the work first, then give the Lease away: no one else writes while ours still may.
      await this.o.onStoppedLeading?.();
      if (signal.aborted && options.release !== false) await this.release();
    }
  }

  /** Renews every retry period until the renew deadline passes without success or `signal` aborts. */
  private async renewWhileLeading(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.pause(this.o.retryPeriodMs, signal);
      if (signal.aborted) return;
      const deadline = this.lastRenew + this.o.renewDeadlineMs;
      const renewed = await this.beforeDeadline(this.tryAcquireOrRenew(), deadline);
      if (renewed) continue;
      if (this.lastHolder !== this.o.identity && this.lastHolder !== '') {
        this.log.warn({ holder: this.lastHolder }, 'the lease names another holder; stepping down');
        return;
      }
      if (this.clock() >= deadline) {
        this.log.error({ renewDeadlineMs: this.o.renewDeadlineMs }, 'could not renew the lease before the renew deadline; stepping down');
        return;
      }
    }
  }

  /** One read-decide-write round; a 409 is answered by re-reading once. True when we hold the Lease after it. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    for (let round = 0; round < 2; round++) {
      try {
        const current = await this.o.store.get();
        const now = this.clock();
        this.observe(current, now);
        const action = leaseAction(current, this.observedAt, this.o.identity, now, this.o.leaseDurationMs);
        if (action.kind === 'held') return false;
        const written =
          action.kind === 'create' ? await this.o.store.create(action.record) : await this.o.store.update(action.record, current!.resourceVersion);
        const after = this.clock();
        this.observe(written, after);
        this.lastRenew = now;
        if (action.kind !== 'renew') this.log.info({ action: action.kind, transitions: action.record.leaseTransitions }, 'acquired the lease');
        return true;
      } catch (err) {
        const c = classificationOf(err);
        if (c.kind === 'conflict' || c.kind === 'alreadyExists') {
          this.log.debug({ err }, 'another replica wrote the lease first; re-reading');
          continue;
        }
        this.log.warn({ err, kind: c.kind }, 'lease request failed');
        return false;
      }
    }
    return false;
  }

  private observe(current: LeaseSnapshot | undefined, now: number): void {
    if (current?.resourceVersion !== this.observed?.resourceVersion || current === undefined) this.observedAt = now;
    this.observed = current;
    const holder = current?.record.holderIdentity ?? '';
    if (holder !== this.lastHolder) {
      this.lastHolder = holder;
      if (holder !== '') this.o.onNewLeader?.(holder);
    }
  }

  /** Gives the Lease up (empty holder, 1 s duration) if it still names us. */
  private async release(): Promise<void> {
    try {
      const current = await this.o.store.get();
      if (!current || current.record.holderIdentity !== this.o.identity) return;
      await this.o.store.update(releasedRecord(current.record, this.clock()), current.resourceVersion);
      this.lastHolder = '';
      this.log.info('released the lease');
    } catch (err) {
      this.log.warn({ err }, 'could not release the lease; others take over when it expires');
    }
  }

  /** Resolves with the attempt's result, or false when the deadline (on our clock) comes first. */
  private async beforeDeadline(attempt: Promise<boolean>, deadline: number): Promise<boolean> {
    const timer = new AbortController();
    const timeout = this.sleep(Math.max(0, deadline - this.clock()), timer.signal).then(
      () => false,
      () => false,
    );
    try {
      return await Promise.race([attempt, timeout]);
    } finally {
      timer.abort();
    }
  }

  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    try {
      await this.sleep(ms, signal);
    } catch {
      // aborted: the caller checks the signal
    }
  }
}
