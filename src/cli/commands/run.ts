/**
 * `tailor run --components recommender,updater,admission`: the controller. This file is the
 * composition root: it reads the configuration (flags and TAILOR_* variables from one table),
 * checks that every requested component exists, connects to the cluster, and hands everything to
 * the controller runtime; SIGTERM / SIGINT stop it gracefully.
 */
import { hostname, homedir } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { RUN_OPTIONS, resolveRunConfig, type RunConfig } from '../../config/run-config.ts';
import { addTableOptions, commandLineValues } from '../../config/commander-options.ts';
import { createLogger } from '../../observability/logger.ts';
import { ControllerMetrics, createRegistry } from '../../observability/controller-metrics.ts';
import { connectKube } from '../../kube/kube-connection.ts';
import { componentFactories } from '../../controller/component-registry.ts';
import { startController } from '../../controller/controller-runtime.ts';
import { scheduleFor, scheduleOfCron, type LoopSchedule } from '../../controller/schedule.ts';
import { systemClock } from '../../controller/clock.ts';
import type { Component } from '../../controller/component.ts';

/** The loop schedule of a validated configuration. */
export function loopSchedule(config: RunConfig, now: number): LoopSchedule {
  if (config.schedule !== undefined) return scheduleOfCron(config.schedule, now);
  const s = scheduleFor(config.interval);
  if ('error' in s) throw new Error(s.error); // unreachable after validation
  return s;
}

export function registerRun(program: Command): void {
  const command = program
    .command('run')
    .description('Run the controller components (recommender, updater, admission) in a cluster')
    .addHelpText('after', '\nEvery option can also be set by its TAILOR_* environment variable; reference: docs/configuration.md');
  addTableOptions(command, RUN_OPTIONS);
  command.action(async () => {
    const { config } = resolveRunConfig(commandLineValues(command, RUN_OPTIONS), process.env);
    const factories = componentFactories(config.components);
    const logger = createLogger({ level: config.logLevel });
    const clock = systemClock;
    const connection = connectKube({ kubeconfig: config.kubeconfig, context: config.kubeContext, env: process.env, homeDir: homedir() });
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
      schedule: loopSchedule(config, clock()),
      identity: config.leaderIdentity ?? `${hostname()}_${randomUUID().slice(0, 8)}`,
    });
    await new Promise<void>((resolve) => {
      const onSignal = (signal: NodeJS.Signals) => {
        logger.info({ signal }, 'shutting down');
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        resolve();
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    });
    await controller.stop();
  });
}
