/**
 * The `tailor` program for a list of commands: builds the commander program from the commands'
 * register functions and runs it. The list is the entry's: every command (main.ts) or the image's
 * (image-main.ts), so an entry bundles only the commands it names.
 * Exit codes (exit-codes.ts, docs/cli.md): 0 done, 1 failed or invalid input, 2 usage error, 3 partial.
 * Every error is one line on stderr, `tailor <command>: ...` (a usage error ends with where to read
 * the command's help: usage-line.ts); the help is printed only for `--help`.
 */
import { Command, CommanderError } from 'commander';
import { InvalidConfigurationError } from '../config/resolve-config.ts';
import { errorChainMessage } from './error-message.ts';
import { EXIT_FAILURE, EXIT_PARTIAL, EXIT_USAGE, PartialResultError, UsageError } from './exit-codes.ts';
import { configureHelp } from './help-layout.ts';
import { commanderClause, configurationClause, usageLine } from './usage-line.ts';

/** Version printed by `tailor --version`; kept in step with package.json by a test. */
export const VERSION = '0.1.0';

/** A function that adds one subcommand to the program. */
export type RegisterCommand = (program: Command) => void;

/** Commander's own endings that are not errors (help, version). */
const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.version']);

/** `tailor` or `tailor <name>`. */
function commandPath(command: Command): string {
  return command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name();
}

/**
 * Turns commander's usage errors into {@link UsageError}s naming the command; help and version
 * pass through. Commander calls this instead of process.exit.
 */
function usageErrorOf(command: Command): (err: CommanderError) => never {
  return (err) => {
    if (COMMANDER_SUCCESS.has(err.code) || (err.code === 'commander.help' && err.exitCode === 0)) throw err;
    // `commander.help` with a non-zero code: `tailor` (or `tailor help x`) without a command.
    const clause = err.code === 'commander.help' ? `name a command: ${command.commands.map((c) => c.name()).join(', ')}` : commanderClause(err);
    throw new UsageError(clause, { cause: err, command: commandPath(command) });
  };
}

/**
 * Builds the program with `commands`, in their order. Commander prints nothing for a usage error
 * (runProgram() prints its one line); help goes to stdout on --help.
 */
export function buildProgram(commands: readonly RegisterCommand[], name = 'tailor'): Command {
  const program = configureHelp(
    new Command(name)
      .description('Tailor: a vertical pod autoscaler that resizes pods in place from Prometheus history.')
      .version(VERSION)
      // Commander writes to stderr only its error messages and, after a usage slip, the help: main()
      // says it in one line instead.
      .configureOutput({ writeErr: () => undefined, outputError: () => undefined }),
  );
  for (const register of commands) register(program);
  for (const command of [program, ...program.commands]) configureHelp(command).exitOverride(usageErrorOf(command));
  return program;
}

/**
 * Runs the program of `commands` with node-style argv and returns the process exit code. `name` is
 * what help and errors call it: `tailor`, or `kubectl tailor` when kubectl runs it as a plugin.
 */
export async function runProgram(argv: readonly string[], commands: readonly RegisterCommand[], err: NodeJS.WritableStream, name = 'tailor'): Promise<number> {
  const program = buildProgram(commands, name);
  // The command whose action runs: its name starts every error line.
  let running = program.name();
  program.hook('preAction', (_program, action) => {
    running = commandPath(action);
  });
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (e) {
    // Help, version, or a command's own exit code (validate's 1) with its output already written.
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof UsageError) {
      err.write(usageLine(e.command ?? running, e.message));
      return EXIT_USAGE;
    }
    if (e instanceof InvalidConfigurationError) {
      err.write(usageLine(running, configurationClause(e)));
      return EXIT_USAGE;
    }
    err.write(`${running}: ${errorChainMessage(e)}\n`);
    return e instanceof PartialResultError ? EXIT_PARTIAL : EXIT_FAILURE;
  }
}
