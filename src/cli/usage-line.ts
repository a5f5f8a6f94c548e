/**
 * The one line a usage error prints (docs/cli.md): `tailor run: unknown option '--bogus-flag';
 * see tailor run --help`: the command, the cause, and where to read how the command is used.
 * The help itself is printed only when asked for (`--help`).
 */
import { CommanderError } from 'commander';
import { InvalidConfigurationError } from '../config/resolve-config.ts';

/** The usage error's line, ending with a newline; `command` is `tailor` or `tailor <name>`. */
export function usageLine(command: string, cause: string): string {
  return `${command}: ${oneLine(cause).replace(/\.$/, '')}; see ${command} --help\n`;
}

/** Lines joined into one: each line's text after the other, with `; ` between. */
function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ');
}

/**
 * Commander's message as a clause: without its `error: ` prefix, its suggestion on the same line
 * (`unknown option '--histroy' (did you mean --history?)`).
 */
export function commanderClause(err: CommanderError): string {
  return err.message
    .replace(/^error: /, '')
    .replace(/\n\(Did you mean (.*)\?\)/, ' (did you mean $1?)')
    .replace(/\s*\n\s*/g, ' ');
}

/** An invalid configuration (flags and TAILOR_* variables) as one clause naming every problem. */
export function configurationClause(err: InvalidConfigurationError): string {
  return `invalid configuration: ${err.errors.map((e) => e.message).join('; ')}`;
}
