/**
 * The entry of the container image's CLI (`node scripts/build.mjs --image`): the program with the
 * image's commands (commands/image-commands.ts), so its bundle holds `tailor run`, `tailor audit`
 * and what they load, and no kube-sim, demo or replay engine (decision 0290).
 */
import { IMAGE_COMMANDS } from './commands/image-commands.ts';
import { runProgram } from './program.ts';

/** Runs the image's CLI with node-style argv and returns the process exit code. */
export async function main(argv: readonly string[], err: NodeJS.WritableStream = process.stderr): Promise<number> {
  return runProgram(argv, IMAGE_COMMANDS, err);
}
