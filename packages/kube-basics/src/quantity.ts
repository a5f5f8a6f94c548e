/**
 * Kubernetes resource quantities (`250m`, `1.5`, `512Mi`, `129M`, `1e9`, `128974848000m`).
 *
 * Parsing is exact: the number is read into a BigInt mantissa with a decimal and a binary exponent,
 * so `0.1` and `128974848000m` carry no float error. Like the API server's `MilliValue()` and
 * `Value()`, a fraction smaller than the unit asked for rounds up (`0.5m` CPU is 1 millicore;
 * `1.5` bytes is 2 bytes).
 */

/** A malformed or out-of-range quantity; the message names the value. */
export class QuantityError extends Error {
  constructor(
    message: string,
    readonly value: unknown,
  ) {
    super(message);
    this.name = 'QuantityError';
  }
}

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const PATTERN = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE])|[eE]([+-]?\d+))?$/;

interface Exact {
  negative: boolean;
  mantissa: bigint; // digits without the decimal point
  pow10: number; // decimal exponent applied to the mantissa
  pow2: number; // binary exponent applied to the mantissa
}

function parseExact(input: string): Exact {
  const match = PATTERN.exec(input);
  if (!match)
    throw new QuantityError(
      `quantity ${JSON.stringify(input)} is malformed: expected a number with an optional suffix (m, k, M, G, Ki, Mi, Gi, e3, ...)`,
      input,
    );
  const [, sign, number, binary, decimal, exponent] = match as unknown as [string, string, string, string?, string?, string?];
  const [whole, fraction = ''] = number.split('.');
  const digits = `${whole ?? ''}${fraction}` || '0';
  let pow10 = -fraction.length;
  let pow2 = 0;
  if (binary) pow2 = BINARY[binary]!;
  else if (decimal !== undefined) pow10 += DECIMAL[decimal]!;
  else if (exponent !== undefined) {
    const e = Number(exponent);
    if (Math.abs(e) > 60) throw new QuantityError(`quantity ${JSON.stringify(input)} has an exponent out of range`, input);
    pow10 += e;
  }
  return { negative: sign === '-', mantissa: BigInt(digits), pow10, pow2 };
}

/** ceil(q x 10^scale) as a number, exact for the quantity q. */
function scaledCeil(q: Exact, scale: number): number {
  let num = q.mantissa * 2n ** BigInt(q.pow2);
  let den = 1n;
  const p = q.pow10 + scale;
  if (p >= 0) num *= 10n ** BigInt(p);
  else den = 10n ** BigInt(-p);
  let result = num / den;
  if (num % den !== 0n) result += 1n; // round up, as the API server does
  const value = Number(result);
  if (!Number.isSafeInteger(value)) throw new QuantityError('quantity is too large', q);
  return q.negative ? -value : value;
}

function nonNegative(value: number, input: string, what: string): number {
  if (value < 0) throw new QuantityError(`${what} quantity ${JSON.stringify(input)} is negative`, input);
  return value;
}

function asString(input: unknown, what: string): string {
  if (typeof input === 'number' && Number.isFinite(input)) return String(input);
  if (typeof input !== 'string') throw new QuantityError(`${what} quantity ${JSON.stringify(input)} is not a string`, input);
  return input.trim();
}

/**
 * Values already parsed, by the trimmed text: a cluster uses few distinct quantities, and the
 * updater reads each pod's several times a loop (BigInt arithmetic was the largest cost of
 * planning 20,000 pods). Only valid quantities are kept; the maps are emptied when they reach
 * {@link QUANTITY_CACHE_LIMIT} entries, so memory stays bounded whatever the input.
 */
const parsedCpu = new Map<string, number>();
const parsedMemory = new Map<string, number>();

/** Most distinct quantities remembered per resource. */
export const QUANTITY_CACHE_LIMIT = 4096;

/** How many parsed quantities are remembered now (cpu and memory). */
export function quantityCacheSize(): number {
  return parsedCpu.size + parsedMemory.size;
}

function remembered(cache: Map<string, number>, s: string, parse: () => number): number {
  const known = cache.get(s);
  if (known !== undefined) return known;
  const value = parse();
  if (cache.size >= QUANTITY_CACHE_LIMIT) cache.clear();
  cache.set(s, value);
  return value;
}

/** Parses a CPU quantity into whole millicores (`"250m"` -> 250, `"1.5"` -> 1500, `"0.5m"` -> 1). */
export function parseCpu(input: unknown): number {
  const s = asString(input, 'cpu');
  return remembered(parsedCpu, s, () => nonNegative(scaledCeil(parseExact(s), 3), s, 'cpu'));
}

/** Parses a memory quantity into whole bytes (`"512Mi"` -> 536870912, `"129M"` -> 129000000). */
export function parseMemory(input: unknown): number {
  const s = asString(input, 'memory');
  return remembered(parsedMemory, s, () => nonNegative(scaledCeil(parseExact(s), 0), s, 'memory'));
}

/** Parses any quantity into whole units after scaling by 10^scale (signed; for non-resource use). */
export function parseQuantity(input: string, scale = 0): number {
  return scaledCeil(parseExact(input.trim()), scale);
}

/** Returns true if the string is a well-formed Kubernetes quantity. */
export function isQuantity(input: unknown): boolean {
  return typeof input === 'string' && PATTERN.test(input.trim());
}

/** Formats millicores the way users read them: whole cores as `"2"`, otherwise `"1500m"`. */
export function formatCpu(millicores: number): string {
  if (!Number.isFinite(millicores) || millicores < 0) throw new QuantityError(`cannot format cpu ${millicores}`, millicores);
  const m = Math.ceil(millicores);
  return m % 1000 === 0 ? String(m / 1000) : `${m}m`;
}

/** Formats bytes with the largest binary suffix that is exact: `"1Gi"`, `"512Mi"`, `"129M"` stays decimal-free bytes. */
export function formatMemory(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) throw new QuantityError(`cannot format memory ${bytes}`, bytes);
  const b = Math.ceil(bytes);
  if (b === 0) return '0';
  for (const [suffix, shift] of [
    ['Ti', 40],
    ['Gi', 30],
    ['Mi', 20],
    ['Ki', 10],
  ] as const) {
    const unit = 2 ** shift;
    if (b % unit === 0) return `${b / unit}${suffix}`;
  }
  return String(b);
}

/** Rounds bytes up to a whole number of MiB (what recommendations are expressed in). */
export function roundUpToMiB(bytes: number): number {
  const MiB = 1024 * 1024;
  return Math.ceil(bytes / MiB) * MiB;
}
