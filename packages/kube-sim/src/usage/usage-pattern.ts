/**
 * The usage pattern language of kube-sim (annotation `tailor.dev/sim-usage`, scenario files).
 * A pattern is a quantity (steady) or `name(arg, ..., key=value)`; CPU values are CPU quantities
 * (`250m`, `1.5`), memory values memory quantities (`256Mi`), durations `30s` `10m` `2h` `1d`,
 * rates a quantity per duration unit (`10Mi/h`, `50m/h`). See docs/kube-sim.md for the table.
 *
 * | pattern | meaning |
 * |---|---|
 * | `300m` or `steady(300m)` | constant |
 * | `diurnal(low, high, period=24h, peak=14h)` | cosine day curve, `high` at `peak` into each period |
 * | `spiky(base, peak, p=0.05, len=1m)` | `base`, and in each `len` slot `peak` with probability `p` |
 * | `leak(start, rate, max=)` | grows from `start` by `rate` since the container (re)started |
 * | `sawtooth(low, high, period)` | rises linearly from `low` to `high`, drops back, repeats |
 * | `startup(peak, steady, duration=2m)` | `peak` for `duration` after each container start, then `steady` |
 * | `step(before, after, at)` | `before` until `at` after the simulation started, then `after` |
 * | `trace(file.csv)` | replays a CSV `timestamp,container,cpu_cores,memory_bytes`, looping |
 * Every pattern but `trace` takes `noise=0.1`: a deterministic +/-10% jitter per minute.
 */
import { isQuantity, parseCpu, parseMemory } from 'kube-basics/quantity';

export type UsageResource = 'cpu' | 'memory';

/** A parsed pattern; values in millicores (cpu) or bytes (memory), times in ms, rates per ms. */
export type UsagePattern =
  | { kind: 'steady'; value: number; noise: number }
  | { kind: 'diurnal'; low: number; high: number; periodMs: number; peakMs: number; noise: number }
  | { kind: 'spiky'; base: number; peak: number; probability: number; slotMs: number; noise: number }
  | { kind: 'leak'; start: number; perMs: number; max?: number; noise: number }
  | { kind: 'sawtooth'; low: number; high: number; periodMs: number; noise: number }
  | { kind: 'startup'; peak: number; steady: number; durationMs: number; noise: number }
  | { kind: 'step'; before: number; after: number; atMs: number; noise: number }
  | { kind: 'trace'; path: string };

/** A pattern that cannot be parsed; the message says what is wrong and how it should look. */
export class UsagePatternError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UsagePatternError';
  }
}

interface Spec {
  positional: string[];
  optional: Record<string, 'value' | 'duration' | 'probability' | 'rate'>;
  usage: string;
}

const SPECS: Record<Exclude<UsagePattern['kind'], 'trace'>, Spec> = {
  steady: { positional: ['value'], optional: {}, usage: 'steady(value)' },
  diurnal: { positional: ['low', 'high'], optional: { period: 'duration', peak: 'duration' }, usage: 'diurnal(low, high, period=24h, peak=14h)' },
  spiky: { positional: ['base', 'peak'], optional: { p: 'probability', len: 'duration' }, usage: 'spiky(base, peak, p=0.05, len=1m)' },
  leak: { positional: ['start', 'rate'], optional: { max: 'value' }, usage: 'leak(start, rate per s|m|h|d, max=value)' },
  sawtooth: { positional: ['low', 'high', 'period'], optional: {}, usage: 'sawtooth(low, high, period)' },
  startup: { positional: ['peak', 'steady'], optional: { duration: 'duration' }, usage: 'startup(peak, steady, duration=2m)' },
  step: { positional: ['before', 'after', 'at'], optional: {}, usage: 'step(before, after, at)' },
};

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `30s`, `10m`, `2h`, `1d`, `500ms` into milliseconds. */
export function parseDuration(text: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new UsagePatternError(`${JSON.stringify(text)} is not a duration (expected e.g. 30s, 10m, 2h, 1d)`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

function parseValue(text: string, resource: UsageResource): number {
  const t = text.trim();
  if (!isQuantity(t))
    throw new UsagePatternError(`${JSON.stringify(text)} is not a ${resource} quantity (expected e.g. ${resource === 'cpu' ? '250m or 1.5' : '256Mi or 1Gi'})`);
  return resource === 'cpu' ? parseCpu(t) : parseMemory(t);
}

function parseRate(text: string, resource: UsageResource): number {
  const [amount, unit, ...rest] = text.split('/');
  if (amount === undefined || unit === undefined || rest.length > 0 || !UNIT_MS[unit.trim()] || unit.trim() === 'ms') {
    throw new UsagePatternError(
      `${JSON.stringify(text)} is not a rate (expected a quantity per s, m, h or d, e.g. ${resource === 'cpu' ? '50m/h' : '10Mi/h'})`,
    );
  }
  return parseValue(amount, resource) / UNIT_MS[unit.trim()]!;
}

function parseProbability(text: string): number {
  const p = Number(text);
  if (!Number.isFinite(p) || p < 0 || p > 1) throw new UsagePatternError(`${JSON.stringify(text)} is not a probability between 0 and 1`);
  return p;
}

/** Parses one pattern for a resource; throws UsagePatternError with the expected form. */
export function parseUsagePattern(input: string, resource: UsageResource): UsagePattern {
  const text = input.trim();
  if (isQuantity(text)) return { kind: 'steady', value: parseValue(text, resource), noise: 0 };
  const call = /^([a-z]+)\s*\((.*)\)$/s.exec(text);
  if (!call) {
    throw new UsagePatternError(
      `${JSON.stringify(input)} is not a usage pattern: expected a quantity or one of ${[...Object.keys(SPECS), 'trace'].map((k) => `${k}(...)`).join(', ')}`,
    );
  }
  const name = call[1]!;
  const args = call[2]!
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
  if (name === 'trace') {
    if (args.length !== 1) throw new UsagePatternError(`trace takes one file path: trace(file.csv), got ${JSON.stringify(input)}`);
    return { kind: 'trace', path: args[0]! };
  }
  const spec = SPECS[name as keyof typeof SPECS];
  if (!spec) throw new UsagePatternError(`unknown usage pattern ${JSON.stringify(name)}: expected one of ${[...Object.keys(SPECS), 'trace'].join(', ')}`);
  const positional = args.filter((a) => !a.includes('='));
  const keyword = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=').map((s) => s.trim()) as [string, string]));
  if (args.findIndex((a) => a.includes('=')) >= 0 && args.slice(args.findIndex((a) => a.includes('='))).some((a) => !a.includes('='))) {
    throw new UsagePatternError(`${JSON.stringify(input)}: positional values must come before key=value options; usage: ${spec.usage}`);
  }
  if (positional.length !== spec.positional.length) {
    throw new UsagePatternError(
      `${name} needs ${spec.positional.length} value${spec.positional.length === 1 ? '' : 's'} (${spec.positional.join(', ')}), got ${positional.length} in ${JSON.stringify(input)}; usage: ${spec.usage}`,
    );
  }
  for (const key of Object.keys(keyword)) {
    if (key !== 'noise' && !(key in spec.optional)) {
      throw new UsagePatternError(`${name} has no option ${JSON.stringify(key)}; usage: ${spec.usage} (every pattern also takes noise=0..1)`);
    }
  }
  const v = (i: number) => parseValue(positional[i]!, resource);
  const opt = <T>(key: string, fallback: T, parse: (s: string) => T): T => (keyword[key] === undefined ? fallback : parse(keyword[key]!));
  const noise = opt('noise', 0, parseProbability);
  try {
    switch (name) {
      case 'steady':
        return { kind: 'steady', value: v(0), noise };
      case 'diurnal': {
        const pattern = {
          kind: 'diurnal' as const,
          low: v(0),
          high: v(1),
          periodMs: opt('period', 86_400_000, parseDuration),
          peakMs: opt('peak', 14 * 3_600_000, parseDuration),
          noise,
        };
        if (pattern.high < pattern.low) throw new UsagePatternError(`diurnal: high (${positional[1]}) is below low (${positional[0]})`);
        return pattern;
      }
      case 'spiky':
        return { kind: 'spiky', base: v(0), peak: v(1), probability: opt('p', 0.05, parseProbability), slotMs: opt('len', 60_000, parseDuration), noise };
      case 'leak':
        return {
          kind: 'leak',
          start: v(0),
          perMs: parseRate(positional[1]!, resource),
          ...(keyword.max ? { max: parseValue(keyword.max, resource) } : {}),
          noise,
        };
      case 'sawtooth':
        return { kind: 'sawtooth', low: v(0), high: v(1), periodMs: parseDuration(positional[2]!), noise };
      case 'startup':
        return { kind: 'startup', peak: v(0), steady: v(1), durationMs: opt('duration', 120_000, parseDuration), noise };
      default:
        return { kind: 'step', before: v(0), after: v(1), atMs: parseDuration(positional[2]!), noise };
    }
  } catch (err) {
    if (err instanceof UsagePatternError) throw new UsagePatternError(`${err.message} in ${JSON.stringify(input)}; usage: ${spec.usage}`, { cause: err });
    throw err;
  }
}
