/**
 * The composition root of the `tailor` CLI: the program (program.ts) with every command
 * (commands/index.ts). The container image's CLI is image-main.ts.
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { commands } from './commands/index.ts';
import { buildProgram as programOf, runProgram } from './program.ts';

/** Builds the program; exported so tests can inspect the commands without running them. */
export function buildProgram(): Command {
  return programOf(commands);
}

/**
 * Runs the CLI with node-style argv and returns the process exit code. Started as `kubectl-tailor`
 * (the plugin's name on PATH, bin/kubectl-tailor), it calls itself `kubectl tailor`.
 */
export async function main(argv: readonly string[], err: NodeJS.WritableStream = process.stderr): Promise<number> {
  return runProgram(argv, commands, err, programName(argv[1]));
}

/** `kubectl tailor` when the script was started as `kubectl-tailor`, else `tailor`. */
export function programName(script: string | undefined): string {
  return script !== undefined && basename(script) === 'kubectl-tailor' ? 'kubectl tailor' : 'tailor';
}
