/**
 * Following a resize to its end (issue 7), from the pod's resize state alone:
 * | state | InPlaceOrRecreate | InPlace |
 * |---|---|---|
 * | Proposed (sent, not yet seen by the kubelet), up to 1h | wait | wait |
 * | Proposed over 1h | evict (FallbackInProgressTimeout) | replan |
 * | InProgress, up to 1h | wait | wait |
 * | InProgress over 1h | evict (FallbackInProgressTimeout) | replan |
 * | Error | evict (FallbackError) | replan |
 * | Deferred, up to 5 min | wait | wait |
 * | Deferred over 5 min | evict (FallbackDeferredTimeout) | replan |
 * | Infeasible | evict at once (FallbackInfeasible) | replan |
 * "replan": InPlace never evicts, so the planner computes the resize again from the actual values
 * and sends it only if it differs from the pending one (say, a smaller recommendation that fits);
 * otherwise it keeps waiting. Timers start at the condition's lastTransitionTime; the legacy
 * `status.resize` has none, so they start at the updater's last change of the pod
 * (pod-timing.ts). Without either, there is no timeout and the planner waits.
 */
import type { UpdateMode } from '../api/vpa.ts';
import type { DecisionReason } from './decision.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import type { ResizeState } from './resize-state.ts';

/** What to do about a resize in flight. */
export type FollowUp =
  | { kind: 'none' }
  | { kind: 'wait'; reason: DecisionReason; message: string }
  | { kind: 'fallback'; reason: DecisionReason; message: string }
  | { kind: 'replan'; waitReason: DecisionReason; message: string };

type FollowOptions = Pick<UpdaterOptions, 'deferredTimeoutMs' | 'inProgressTimeoutMs'>;

function minutes(ms: number): string {
  return ms >= 3_600_000 && ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${Math.round(ms / 60_000)} min`;
}

/** Decides about the pod's resize in flight. `lastUpdate` is the updater's last change of the pod. */
export function followResize(state: ResizeState, mode: UpdateMode, lastUpdate: number | undefined, now: number, options: FollowOptions): FollowUp {
  if (state.phase === 'None') return { kind: 'none' };
  const evictable = mode === 'InPlaceOrRecreate';
  const since = state.since ?? lastUpdate;
  const elapsed = since === undefined ? undefined : Math.max(0, now - since);
  const said = state.message ? `: ${state.message}` : '';
  const giveUp = (reason: DecisionReason, waitReason: DecisionReason, message: string): FollowUp =>
    evictable ? { kind: 'fallback', reason, message: `${message}; evicting` } : { kind: 'replan', waitReason, message };
  switch (state.phase) {
    case 'Proposed':
      if (elapsed !== undefined && elapsed > options.inProgressTimeoutMs) {
        return giveUp(
          'FallbackInProgressTimeout',
          'ResizeStuck',
          `resize not taken up by the kubelet for ${minutes(elapsed)} (limit ${minutes(options.inProgressTimeoutMs)})`,
        );
      }
      return { kind: 'wait', reason: 'ResizeProposed', message: 'resize sent, not yet observed by the kubelet' };
    case 'InProgress':
      if (elapsed !== undefined && elapsed > options.inProgressTimeoutMs) {
        return giveUp('FallbackInProgressTimeout', 'ResizeStuck', `resize in progress for ${minutes(elapsed)} (limit ${minutes(options.inProgressTimeoutMs)})`);
      }
      return { kind: 'wait', reason: 'ResizeInProgress', message: 'resize in progress' };
    case 'Error':
      return giveUp('FallbackError', 'ResizeStuck', `resize failed${said}`);
    case 'Deferred':
      if (elapsed !== undefined && elapsed > options.deferredTimeoutMs) {
        return giveUp(
          'FallbackDeferredTimeout',
          'ResizeDeferred',
          `resize deferred for ${minutes(elapsed)} (limit ${minutes(options.deferredTimeoutMs)})${said}`,
        );
      }
      return { kind: 'wait', reason: 'ResizeDeferred', message: `resize deferred${elapsed === undefined ? '' : ` for ${minutes(elapsed)}`}${said}` };
    case 'Infeasible':
      return giveUp('FallbackInfeasible', 'ResizeInfeasible', `resize infeasible on this node${said}`);
  }
}
