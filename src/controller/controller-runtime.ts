/**
 * The runtime of `tailor run`: starts the /metrics /healthz /readyz server, the server components
 * on every replica, and the loop components on a schedule while this replica holds the Lease (or
 * at once with leader election off). It owns the order of things:
 *
 * - gaining leadership: each loop runs a first cycle at once (its `activate` first), then one per
 *   tick from the first tick after it ended;
 * - losing leadership: each loop's running cycle is aborted and awaited, then `deactivate`;
 * - shutdown: the loops finish their running cycle (the Lease is still renewed meanwhile), are
 *   deactivated, and only then is the Lease released, so no other replica writes while ours may;
 *   then the server components and the HTTP server stop.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from '../observability/logger.ts';
import type { ControllerMetrics } from './controller-metrics.ts';
import { LoopHealth, type HealthCheck } from './loop-health.ts';
import { startHealthServer, type RunningHealthServer } from './health-server.ts';
import type { RunConfig } from './run-config.ts';
import { KubeLeaseStore, type LeaseStore } from '../kube/lease-store.ts';
import type { Component, LoopComponent, ServerComponent } from './component.ts';
import { LeaderElector } from './leader-elector.ts';
import { LoopScheduler, cronTicker, type Ticker } from './loop-scheduler.ts';
import { intervalTicker } from './interval-ticker.ts';
import type { LoopSchedule } from './schedule.ts';
import { realSleep, type Clock, type Sleep } from '../kube/clock.ts';

export interface ControllerRuntimeOptions {
  config: RunConfig;
  components: readonly Component[];
  kubeConfig: KubeConfig;
  metrics: ControllerMetrics;
  logger: Logger;
  clock: Clock;
  sleep?: Sleep;
  schedule: LoopSchedule;
  /** This replica's name in the Lease. */
  identity: string;
  /** Default: {@link tickerFor} (plain timers for `--interval`, node-cron for `--schedule`). */
  ticker?: (schedule: LoopSchedule) => Ticker;
  /** Default: the Lease named by the configuration, through client-node. */
  leaseStore?: LeaseStore;
}

/** A started controller. */
export interface RunningController {
  /** The /metrics /healthz /readyz server. */
  http: RunningHealthServer;
  /** The leader elector, when leader election is on and there are loops. */
  elector?: LeaderElector;
  loops: ReadonlyMap<string, LoopScheduler>;
  /** Graceful stop; idempotent. */
  stop(): Promise<void>;
}

/** The default Lease name: one per set of loop components, e.g. `tailor-recommender-updater`. */
export function defaultLeaseName(loops: readonly string[]): string {
  return `tailor-${[...loops].sort().join('-')}`;
}

interface LoopEntry {
  component: LoopComponent;
  scheduler: LoopScheduler;
  health: LoopHealth;
  activated: boolean;
}

/** The ticks of a schedule: plain timers for `--interval` (no ICU time-zone data paged in), node-cron for `--schedule`. */
export function tickerFor(schedule: LoopSchedule): Ticker {
  return schedule.everyMs === undefined ? cronTicker(schedule.cron) : intervalTicker(schedule.everyMs);
}

export async function startController(o: ControllerRuntimeOptions): Promise<RunningController> {
  const log = o.logger.child({ component: 'runtime' });
  const loopComponents = o.components.filter((c): c is LoopComponent => c.kind === 'loop');
  const servers = o.components.filter((c): c is ServerComponent => c.kind === 'server');
  const makeTicker = o.ticker ?? tickerFor;
  const loops = new Map<string, LoopEntry>();

  for (const component of loopComponents) {
    const health = new LoopHealth(component.name, o.schedule.intervalMs, o.config.unhealthyAfterIntervals);
    const entry: LoopEntry = { component, health, activated: false, scheduler: undefined as unknown as LoopScheduler };
    entry.scheduler = new LoopScheduler({
      name: component.name,
      ticker: makeTicker(o.schedule),
      logger: o.logger.child({ component: component.name }),
      clock: o.clock,
      observers: [o.metrics.loopObserver(), health],
      runCycle: async (cycle) => {
        if (!entry.activated) {
          await o.metrics.timePhase(component.name, 'activate', () => component.activate?.(cycle.signal) ?? Promise.resolve());
          entry.activated = true;
        }
        await component.runCycle(cycle);
      },
    });
    loops.set(component.name, entry);
  }

  const checks: HealthCheck[] = [...[...loops.values()].map((l) => l.health), ...servers.flatMap((s) => (s.health ? [s.health] : []))];
  const http = await startHealthServer({
    registry: o.metrics.registry,
    checks: () => checks,
    host: o.config.metricsAddress,
    port: o.config.metricsPort,
    clock: o.clock,
    logger: o.logger,
  });

  const startedServers: ServerComponent[] = [];
  try {
    for (const s of servers) {
      await s.start();
      startedServers.push(s);
    }
  } catch (err) {
    await Promise.allSettled(startedServers.map((s) => s.stop()));
    await http.close();
    throw new Error('a server component failed to start', { cause: err });
  }

  const leaseName = o.config.leaseName ?? defaultLeaseName(loopComponents.map((c) => c.name));
  const leaseLabel = `${o.config.leaseNamespace}/${leaseName}`;

  let shuttingDown = false;
  const startLoops = () => {
    if (shuttingDown) return;
    o.metrics.leader.set({ lease: leaseLabel }, 1);
    for (const l of loops.values()) {
      l.health.setActive(true, o.clock());
      l.activated = false;
      // The ticks start when this first cycle (activation, history) has ended: none is skipped meanwhile.
      void l.scheduler.start({ firstCycleNow: true });
    }
  };
  const stopLoops = async (abort: boolean) => {
    await Promise.all(
      [...loops.values()].map(async (l) => {
        await l.scheduler.stop({ abort });
        l.health.setActive(false, o.clock());
        if (l.activated) {
          l.activated = false;
          try {
            await l.component.deactivate?.(abort ? 'leadershipLost' : 'shutdown');
          } catch (err) {
            log.error({ err, loop: l.component.name }, 'deactivate failed');
          }
        }
      }),
    );
    o.metrics.leader.set({ lease: leaseLabel }, 0);
  };

  let elector: LeaderElector | undefined;
  let electing: Promise<void> | undefined;
  const stopElecting = new AbortController();
  if (loops.size > 0 && o.config.leaderElect) {
    o.metrics.leader.set({ lease: leaseLabel }, 0);
    elector = new LeaderElector({
      store: o.leaseStore ?? new KubeLeaseStore(o.kubeConfig, o.config.leaseNamespace, leaseName),
      identity: o.identity,
      leaseDurationMs: o.config.leaseDuration,
      renewDeadlineMs: o.config.renewDeadline,
      retryPeriodMs: o.config.retryPeriod,
      logger: o.logger,
      clock: o.clock,
      sleep: o.sleep ?? realSleep,
      onStartedLeading: startLoops,
      onStoppedLeading: () => stopLoops(true),
      onNewLeader: (holder) => log.info({ leader: holder, self: holder === o.identity }, 'leader observed'),
    });
    electing = elector.run(stopElecting.signal);
  } else if (loops.size > 0) {
    log.info('leader election is off: running the loops at once');
    startLoops();
  }

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      shuttingDown = true;
      log.info('stopping: finishing running cycles');
      await stopLoops(false);
      stopElecting.abort();
      await electing;
      await Promise.allSettled(startedServers.map((s) => s.stop()));
      await http.close();
      log.info('stopped');
    })());

  const result: RunningController = { http, loops: new Map([...loops].map(([k, v]) => [k, v.scheduler])), stop };
  if (elector) result.elector = elector;
  return result;
}
