/**
 * `tailor run --components recommender,updater,admission`: the controller. It reads the
 * configuration (flags and TAILOR_* variables from one table, every problem reported at once) and
 * starts the controller (controller/start-run.ts); SIGTERM / SIGINT stop it gracefully.
 */
import { homedir } from 'node:os';
import type { Command } from 'commander';
import { RUN_OPTIONS, resolveRunConfig } from '../../controller/run-config.ts';
import { addTableOptions, commandLineValues } from '../../config/commander-options.ts';
import { untilShutdownSignal } from '../shutdown-signal.ts';

export function registerRun(program: Command): void {
  const command = program
    .command('run')
    .description('Run the controller components (recommender, updater, admission) in a cluster')
    .addHelpText('after', '\nEvery option can also be set by its TAILOR_* environment variable; reference: docs/configuration.md');
  addTableOptions(command, RUN_OPTIONS);
  command.action(async () => {
    const { config } = resolveRunConfig(commandLineValues(command, RUN_OPTIONS), process.env);
    // Loaded here, not at start-up: `tailor --help` and the other commands never load the controller.
    const { startRun } = await import('../../controller/start-run.ts');
    const controller = await startRun(config, { env: process.env, homeDir: homedir() });
    const signal = await untilShutdownSignal();
    controller.logger.info({ signal }, 'shutting down');
    await controller.stop();
  });
}
