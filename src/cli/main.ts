/**
 * The composition root of the `tailor` CLI: builds the commander program from the command modules
 * and runs it. Each command lives in its own file under `commands/` and registers itself here.
 * Exit codes (exit-codes.ts, docs/cli.md): 0 done, 1 failed or invalid input, 2 usage error.
 */
import { Command, CommanderError } from 'commander';
import { InvalidConfigurationError } from '../config/resolve-config.ts';
import { commands } from './commands/index.ts';
import { errorChainMessage } from './error-message.ts';
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from './exit-codes.ts';
import { configureHelp } from './help-layout.ts';

/** Version printed by `tailor --version`; kept in step with package.json by a test. */
export const VERSION = '0.1.0';

/**
 * Builds the program; exported so tests can inspect the commands without running them. Commander's
 * own messages (usage errors) go to `err`.
 */
export function buildProgram(err: NodeJS.WritableStream = process.stderr): Command {
  const program = configureHelp(
    new Command('tailor')
      .description('Tailor: a vertical pod autoscaler that resizes pods in place from Prometheus history.')
      .version(VERSION)
      .showHelpAfterError()
      .configureOutput({ writeErr: (text) => void err.write(text) })
      .exitOverride(),
  );
  for (const register of commands) register(program);
  for (const command of program.commands) configureHelp(command);
  return program;
}

/** Commander's own endings that are not errors (help, version). */
const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/** Runs the CLI with node-style argv and returns the process exit code. */
export async function main(argv: readonly string[], err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const program = buildProgram(err);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander has printed its message already; a command's own CommanderError carries its code.
      if (COMMANDER_SUCCESS.has(e.code)) return e.exitCode;
      return e.code.startsWith('commander.') ? EXIT_USAGE : e.exitCode;
    }
    err.write(`tailor: ${errorChainMessage(e)}\n`);
    return e instanceof UsageError || e instanceof InvalidConfigurationError ? EXIT_USAGE : EXIT_FAILURE;
  }
}
