/**
 * Commander options derived from a configuration table. No defaults are given to commander: a
 * value it reports was typed on the command line, so the resolver can fall back to the
 * environment and then to the table's default, and name the flag in errors. Help lines show the
 * environment variable and the default; options are grouped by the table's `group`.
 */
import { Option, type Command } from 'commander';
import type { AnyOptionSpec, OptionTable } from './option-spec.ts';
import type { CommandLineValues } from './resolve-config.ts';

/** The default as the reference and `--help` show it. */
export function defaultText(spec: AnyOptionSpec): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (spec.default === undefined) return undefined;
  const text = spec.type.format(spec.default);
  return text === '' ? undefined : text;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Adds one commander option per row (two for switches: `--x` and `--no-x`). */
export function addTableOptions(command: Command, table: OptionTable): Command {
  for (const spec of Object.values(table)) {
    const dflt = defaultText(spec);
    const help = `${spec.description} [env ${spec.env}${dflt !== undefined ? `, default ${dflt}` : ''}]`;
    if (spec.type.isSwitch) {
      command.addOption(new Option(`--${spec.flag}`, help).helpGroup(`${spec.group}:`));
      command.addOption(new Option(`--no-${spec.flag}`, `turn --${spec.flag} off`).helpGroup(`${spec.group}:`));
    } else {
      const option = new Option(`--${spec.flag} ${spec.type.placeholder ?? '<value>'}`, help).helpGroup(`${spec.group}:`);
      if (spec.type.repeatable) option.argParser(collect);
      command.addOption(option);
    }
  }
  return command;
}

/** The values typed on the command line, keyed like the table. */
export function commandLineValues(command: Command, table: OptionTable): CommandLineValues {
  const opts = command.opts<Record<string, string | string[] | boolean | undefined>>();
  const out: Record<string, string | string[] | boolean | undefined> = {};
  for (const [key, spec] of Object.entries(table)) {
    // Commander stores a value under the camel-cased flag (`--leader-elect-lease-name` -> leaderElectLeaseName).
    const value = opts[new Option(`--${spec.flag} <x>`).attributeName()];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
