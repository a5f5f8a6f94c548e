/**
 * The composition root of the `tailor` CLI: the program (program.ts) with every command
 * (commands/index.ts). The container image's CLI is image-main.ts.
 */
import type { Command } from 'commander';
import { commands } from './commands/index.ts';
import { buildProgram as programOf, runProgram } from './program.ts';

/** Builds the program; exported so tests can inspect the commands without running them. */
export function buildProgram(): Command {
  return programOf(commands);
}

/** Runs the CLI with node-style argv and returns the process exit code. */
export async function main(argv: readonly string[], err: NodeJS.WritableStream = process.stderr): Promise<number> {
  return runProgram(argv, commands, err);
}
