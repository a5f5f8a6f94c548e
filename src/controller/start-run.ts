/**
 * The composition root of `tailor run` (and of the demo and the dashboard lab, which run the same
 * controller): checks that every requested component exists, connects to the cluster, builds the
 * components and hands everything to the controller runtime.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { RunConfig } from './run-config.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { ControllerMetrics, createRegistry } from './controller-metrics.ts';
import { connectKube } from '../kube/kube-connection.ts';
import { componentFactories } from './component-registry.ts';
import { startController, type RunningController } from './controller-runtime.ts';
import { scheduleFor, scheduleOfCron, type LoopSchedule } from './schedule.ts';
import { systemClock } from '../kube/clock.ts';
import type { Component } from './component.ts';

/** The loop schedule of a validated configuration. */
export function loopSchedule(config: RunConfig): LoopSchedule {
  if (config.schedule !== undefined) return scheduleOfCron(config.schedule);
  const s = scheduleFor(config.interval);
  if ('error' in s) throw new Error(s.error); // unreachable after validation
  return s;
}

/** What {@link startRun} needs from the process (injected so tests can run it in-process). */
export interface RunEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  homeDir?: string;
  /** The component implementations (default: the registry). */
  factories?: Parameters<typeof componentFactories>[1];
  /** Where JSON logs go (default stderr). */
  logDestination?: NodeJS.WritableStream;
}

/**
 * Validates the configuration, checks the components exist, connects to the cluster, builds the
 * components and starts the controller runtime. Every failure before the runtime starts is thrown
 * (and `tailor run` exits 1 with its message).
 */
export async function startRun(config: RunConfig, environment: RunEnvironment): Promise<RunningController & { logger: Logger }> {
  const factories = componentFactories(config.components, environment.factories);
  const logger = createLogger({ level: config.logLevel, destination: environment.logDestination });
  const clock = systemClock;
  const connection = connectKube({ kubeconfig: config.kubeconfig, context: config.kubeContext, env: environment.env, homeDir: environment.homeDir });
  logger.info({ kube: connection.description, components: config.components }, 'starting');
  const metrics = new ControllerMetrics(createRegistry(), clock);
  const components: Component[] = [];
  for (const [name, factory] of factories) {
    components.push(await factory({ config, logger: logger.child({ component: name }), kubeConfig: connection.kubeConfig, metrics, clock }));
  }
  const controller = await startController({
    config,
    components,
    kubeConfig: connection.kubeConfig,
    metrics,
    logger,
    clock,
    schedule: loopSchedule(config),
    identity: config.leaderIdentity ?? `${hostname()}_${randomUUID().slice(0, 8)}`,
  });
  return Object.assign(controller, { logger });
}
