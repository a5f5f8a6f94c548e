/**
 * Options several commands share, defined once so they read and behave the same everywhere:
 * `--format`, `--output FILE`, `--log-level`, `--no-progress`. docs/cli.md lists which command has which.
 */
import { writeFile } from 'node:fs/promises';
import { Option } from 'commander';
import { stringify as toYaml } from 'yaml';
import { LOG_LEVELS, type LogLevel } from '../observability/logger.ts';
import { writeFailure } from './file-errors.ts';

/** `--format <format>`: one of `formats`, `dflt` when not given. */
export function formatOption<F extends string>(formats: readonly F[], dflt: F): Option {
  return new Option('--format <format>', 'output format').choices([...formats]).default(dflt);
}

/** `--output <file>`: the result goes to this file instead of standard output (`-`: standard output). */
export function outputOption(): Option {
  return new Option('--output <file>', 'write the result to this file instead of standard output (- is standard output)');
}

/** The file name that means standard output (`--output -`, `generate-trace --out -`), as `-f -` means standard input. */
export const STANDARD_OUTPUT = '-';

/** `--log-level <level>`: the same levels for every command that logs. */
export function logLevelOption(dflt: LogLevel, what = 'level of the JSON logs on stderr'): Option {
  return new Option('--log-level <level>', what).choices([...LOG_LEVELS]).default(dflt);
}

/** `--no-progress`: a progress bar is drawn only when standard error is a terminal anyway. */
export function noProgressOption(): Option {
  return new Option('--no-progress', 'no progress bar on stderr (there is none when stderr is not a terminal)');
}

/** A data result as JSON (2-space indent) or YAML, ending with a newline. */
export function serialize(value: unknown, format: 'json' | 'yaml'): string {
  return format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : toYaml(value);
}

/** Writes a command's result to `file` (`--output`), or to `stdout` without one or for `-`. */
export async function writeResult(text: string, file: string | undefined, stdout: NodeJS.WritableStream = process.stdout): Promise<void> {
  if (file === undefined || file === STANDARD_OUTPUT) {
    stdout.write(text);
    return;
  }
  try {
    await writeFile(file, text, 'utf8');
  } catch (err) {
    throw writeFailure(file, err);
  }
}
