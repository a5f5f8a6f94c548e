/**
 * The commands of the container image (image-main.ts): `tailor run` and `tailor audit`, what its
 * Deployments and its audit CronJob run. The other commands keep their place in `tailor --help`
 * and, when invoked, say in one line that the image leaves them out (exit code 1) instead of
 * loading kube-sim, the demo or the replay engine (decision 0290).
 */
import type { RegisterCommand } from '../program.ts';
import { registerAudit } from './audit.ts';
import { registerRun } from './run.ts';

/** What a left-out command says when invoked (after `tailor <name>: `). */
export function leftOutMessage(name: string): string {
  return `not in this image, which holds tailor run and tailor audit only; from a checkout of Tailor: npm run tailor -- ${name}`;
}

/** A command the image lists but leaves out: any option or argument, `--help` included, gets the one line. */
function leftOut(name: string): RegisterCommand {
  return (program) => {
    program
      .command(name)
      .description('not in this image (it holds run and audit)')
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        throw new Error(leftOutMessage(name));
      });
  };
}

/** The image's commands, in the order of commands/index.ts (a test keeps them in step). */
export const IMAGE_COMMANDS: readonly RegisterCommand[] = [
  leftOut('demo'),
  leftOut('recommend'),
  registerAudit,
  leftOut('replay'),
  leftOut('generate-trace'),
  leftOut('plan'),
  leftOut('sim'),
  leftOut('validate'),
  registerRun,
];
