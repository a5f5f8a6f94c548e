/**
 * Value types of configuration options: how a flag's or environment variable's text becomes a
 * typed value, and how a value is written in the generated reference. `parse` throws an Error
 * whose message says what is wrong with the text; the caller adds which flag or variable it was.
 */
import cron from 'node-cron';
import { parseDuration } from './duration-option.ts';
import { formatMemory, parseMemory } from 'kube-basics/quantity';

/** One value type. */
export interface OptionType<T> {
  /** Name shown in the reference (`duration`, `integer`, ...). */
  name: string;
  /** Placeholder in `--help` (`<duration>`); absent for on/off switches. */
  placeholder?: string;
  /** A switch: `--flag` / `--no-flag` on the command line, `true`/`false` in the environment. */
  isSwitch?: boolean;
  /** The flag may be given more than once; each occurrence adds comma-separated items. */
  repeatable?: boolean;
  parse(text: string): T;
  format(value: T): string;
}

export const stringType: OptionType<string> = { name: 'string', placeholder: '<string>', parse: (t) => t, format: (v) => v };

export const pathType: OptionType<string> = {
  name: 'path',
  placeholder: '<path>',
  parse: (t) => {
    if (t.trim() === '') throw new Error('empty path');
    return t;
  },
  format: (v) => v,
};

export const urlType: OptionType<string> = {
  name: 'url',
  placeholder: '<url>',
  parse: (t) => {
    let url: URL;
    try {
      url = new URL(t);
    } catch (err) {
      throw new Error('not a URL (expected e.g. http://prometheus:9090)', { cause: err });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported scheme ${url.protocol} (use http or https)`);
    return t.replace(/\/+$/, '');
  },
  format: (v) => v,
};

/** Whole numbers in [min, max]. */
export function integerType(min: number, max: number): OptionType<number> {
  return {
    name: `integer ${min}-${max}`,
    placeholder: '<n>',
    parse: (t) => {
      if (!/^-?\d+$/.test(t.trim())) throw new Error('not a whole number');
      const n = Number(t);
      if (n < min || n > max) throw new Error(`out of range ${min}-${max}`);
      return n;
    },
    format: String,
  };
}

/**
 * Decimal numbers in a range, e.g. shares: `decimalType(0, 1, { minExclusive: true })` accepts
 * 0.9 and 1 but refuses 0 and 1.5.
 */
export function decimalType(min: number, max: number, bounds: { minExclusive?: boolean } = {}): OptionType<number> {
  const range = `${bounds.minExclusive ? '(' : '['}${min}, ${max}]`;
  return {
    name: `number in ${range}`,
    placeholder: '<number>',
    parse: (t) => {
      if (!/^\s*\d+(\.\d+)?\s*$/.test(t)) throw new Error('not a decimal number (e.g. 0.9)');
      const n = Number(t);
      if (n > max || n < min || (bounds.minExclusive && n === min)) throw new Error(`out of range ${range}`);
      return n;
    },
    format: String,
  };
}

/** Memory quantities such as `64Mi`, `1G` -> bytes; shown back as Kubernetes writes them (`64Mi`). */
export const memoryType: OptionType<number> = {
  name: 'memory quantity',
  placeholder: '<quantity>',
  parse: (t) => parseMemory(t),
  format: formatMemory,
};

/** Durations such as `90s`, `1m`, `1h30m` -> ms; shown back in the largest exact unit. */
export const durationType: OptionType<number> = {
  name: 'duration',
  placeholder: '<duration>',
  parse: (t) => {
    const ms = parseDuration(t);
    if (ms <= 0) throw new Error('must be longer than zero');
    return ms;
  },
  format: formatDuration,
};

/** 90_000 -> `90s`, 3_600_000 -> `1h`, 1_500 -> `1500ms`. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export const booleanType: OptionType<boolean> = {
  name: 'boolean',
  isSwitch: true,
  parse: (t) => {
    const v = t.trim().toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    throw new Error('not a boolean (use true or false)');
  },
  format: String,
};

/** One of a fixed set. */
export function enumType<const C extends string>(choices: readonly C[]): OptionType<C> {
  return {
    name: `one of ${choices.join(', ')}`,
    placeholder: `<${choices.join('|')}>`,
    parse: (t) => {
      const v = t.trim();
      if (!(choices as readonly string[]).includes(v)) throw new Error(`must be one of ${choices.join(', ')}`);
      return v as C;
    },
    format: (v) => v,
  };
}

/** Comma-separated items (and repeated flags), each checked by `item`; duplicates removed. */
export function listType<T>(item: OptionType<T>, name = `list of ${item.name}`): OptionType<T[]> {
  return {
    name,
    placeholder: `${item.placeholder ?? '<item>'},...`,
    repeatable: true,
    parse: (t) => {
      const parts = t
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '');
      const values = parts.map((p) => {
        try {
          return item.parse(p);
        } catch (err) {
          throw new Error(`item ${JSON.stringify(p)}: ${(err as Error).message}`, { cause: err });
        }
      });
      return [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
    },
    format: (v) => v.map((x) => item.format(x)).join(','),
  };
}

/** `name=value` pairs (e.g. metric name overrides). */
export const keyValueType: OptionType<[string, string]> = {
  name: 'name=value',
  placeholder: '<name=value>',
  parse: (t) => {
    const i = t.indexOf('=');
    if (i <= 0) throw new Error('expected name=value');
    return [t.slice(0, i).trim(), t.slice(i + 1).trim()];
  },
  format: ([k, v]) => `${k}=${v}`,
};

/** A node-cron expression (5 fields, or 6 with seconds first). */
export const cronType: OptionType<string> = {
  name: 'cron expression',
  placeholder: '<cron>',
  parse: (t) => {
    const v = t.trim();
    if (!cron.validate(v)) throw new Error('not a valid cron expression (e.g. "*/30 * * * * *" or "0 * * * *")');
    return v;
  },
  format: (v) => v,
};
