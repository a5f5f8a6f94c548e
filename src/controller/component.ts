/**
 * The extension point of `tailor run`: what a component (recommender, updater, admission) gives
 * the runtime, and what it gets from it. A component is built by a {@link ComponentFactory} from
 * the {@link ComponentContext}; the runtime owns scheduling, leader election, health and
 * shutdown.
 *
 * - A {@link LoopComponent} (recommender, updater) runs one cycle per tick, only on the replica
 *   that holds the Lease. `activate` runs before its first cycle after each leadership gain
 *   (restore checkpoints, start informers); a failing `activate` fails that cycle and is tried
 *   again at the next tick. `deactivate` runs when leadership is lost or at shutdown, after the
 *   running cycle has ended.
 * - A {@link ServerComponent} (admission webhook) runs on every replica, without leader election.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { RunConfig } from './run-config.ts';
import type { ComponentName } from './controller-options.ts';
import type { Logger } from '../observability/logger.ts';
import type { ControllerMetrics } from './controller-metrics.ts';
import type { HealthCheck } from './loop-health.ts';
import type { Clock } from '../kube/clock.ts';
import type { CycleContext } from './loop-scheduler.ts';

/** What every component gets. */
export interface ComponentContext {
  config: RunConfig;
  /** A child logger with `component: <name>`. */
  logger: Logger;
  kubeConfig: KubeConfig;
  /** The process's metric set (register extra metrics on `metrics.registry`). */
  metrics: ControllerMetrics;
  clock: Clock;
}

/** Why a loop component is deactivated. */
export type DeactivateReason = 'shutdown' | 'leadershipLost';

/** A component whose work is a cycle on the schedule, on the leader only. */
export interface LoopComponent {
  kind: 'loop';
  name: ComponentName;
  /** Before the first cycle after becoming leader; the signal aborts when leadership ends. */
  activate?(signal: AbortSignal): Promise<void>;
  /** One cycle; throw to have it counted as failed (it runs again at the next tick). */
  runCycle(cycle: CycleContext): Promise<void>;
  /**
   * After the last cycle when leadership ends (`leadershipLost`: another replica may already be
   * writing, so write nothing) or the process stops while leading (`shutdown`: the Lease is still
   * held until this returns, so a last write such as a checkpoint flush is safe).
   */
  deactivate?(reason?: DeactivateReason): Promise<void>;
}

/** A component that serves on every replica (no leader election). */
export interface ServerComponent {
  kind: 'server';
  name: ComponentName;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Its /healthz and /readyz answers. */
  health?: HealthCheck;
}

export type Component = LoopComponent | ServerComponent;

/** Builds a component; may do start-up I/O (e.g. read certificates). */
export type ComponentFactory = (context: ComponentContext) => Component | Promise<Component>;
