/**
 * The composition root of the `tailor` CLI: builds the commander program from the command modules
 * and runs it. Each command lives in its own file under `commands/` and registers itself here.
 */
import { Command, CommanderError } from 'commander';
import { commands } from './commands/index.ts';

/** Version printed by `tailor --version`; kept in step with package.json by a test. */
export const VERSION = '0.1.0';

/** Builds the program; exported so tests can inspect the commands without running them. */
export function buildProgram(): Command {
  const program = new Command('tailor')
    .description('Tailor: a vertical pod autoscaler that resizes pods in place from Prometheus history.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();
  for (const register of commands) register(program);
  return program;
}

/** Runs the CLI with node-style argv and returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through exitOverride with exit code 0.
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`tailor: ${message}\n`);
    return 1;
  }
}
