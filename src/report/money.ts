/**
 * What a recommendation is worth in money (`--cpu-hour-price`, `--memory-gib-hour-price`,
 * `--currency`; docs/cost.md). Tailor has no price list of its own: without prices the reports have
 * no money in them at all.
 *
 * Monthly saving = (request - target) x pods x price per unit-hour x 730 h (8,760 h a year / 12),
 * for CPU in cores and memory in GiB (2^30 bytes), summed: positive is money saved by applying the
 * recommendation, negative is what the workload's missing resources cost. Worked example, at 0.03
 * per CPU-hour and 0.004 per GiB-hour: a Deployment of 3 pods requesting 500m CPU and 512Mi whose
 * target is 200m and 256Mi saves 0.9 cores x 0.03 x 730 = 19.71 of CPU and 0.75 GiB x 0.004 x 730 =
 * 2.19 of memory, 21.90 a month; its recommendation raised to 700m CPU instead costs 0.6 cores x
 * 0.03 x 730 = -13.14.
 *
 * Only requests are priced (what the scheduler reserves on a node): not limits, not the nodes the
 * pods leave empty or full (bin-packing), not discounts. Pure.
 */

/** Hours in an average month: 8,760 h a year / 12. */
export const HOURS_PER_MONTH = 730;

/** Bytes in a GiB. */
const GIB = 2 ** 30;

/** Prices of requested resources, in `currency` (a label only: nothing is converted). */
export interface Prices {
  /** Per core and hour. */
  cpuHour: number;
  /** Per GiB (2^30 bytes) and hour. */
  memoryGiBHour: number;
  currency: string;
}

/** The currency label when prices are given without one. */
export const DEFAULT_CURRENCY = 'USD';

/** A monthly amount per resource and in all; null where the resource's figure is unknown. */
export interface MonthlyMoney {
  cpu: number | null;
  memory: number | null;
  /** cpu + memory, the unknown counting as 0; null when both are unknown. */
  total: number | null;
}

/** The monthly money of `cpuMillicores` and `memoryBytes` (each possibly unknown) at `prices`, unrounded. */
export function monthlyMoney(cpuMillicores: number | null | undefined, memoryBytes: number | null | undefined, prices: Prices): MonthlyMoney {
  const cpu = cpuMillicores === null || cpuMillicores === undefined ? null : (cpuMillicores / 1000) * prices.cpuHour * HOURS_PER_MONTH;
  const memory = memoryBytes === null || memoryBytes === undefined ? null : (memoryBytes / GIB) * prices.memoryGiBHour * HOURS_PER_MONTH;
  return { cpu, memory, total: cpu === null && memory === null ? null : (cpu ?? 0) + (memory ?? 0) };
}

/** Rounded to cents (hundredths), without `-0`. */
export function cents(amount: number): number {
  const r = Math.round(amount * 100) / 100;
  return r === 0 ? 0 : r;
}

/** Each figure rounded to cents. */
export function moneyInCents(m: MonthlyMoney): MonthlyMoney {
  const c = (v: number | null) => (v === null ? null : cents(v));
  return { cpu: c(m.cpu), memory: c(m.memory), total: c(m.total) };
}

/** Sums the known figures of `items` (unrounded); a figure stays null only when it is unknown in every item. */
export function sumMoney(items: readonly MonthlyMoney[]): MonthlyMoney {
  const add = (k: keyof MonthlyMoney) => items.reduce<number | null>((s, m) => (m[k] === null ? s : (s ?? 0) + m[k]), null);
  return { cpu: add('cpu'), memory: add('memory'), total: add('total') };
}

/** `21.90`, `-13.14`, `0.00`: two decimals, a minus for a cost, `-` when unknown. */
export function moneyText(amount: number | null): string {
  return amount === null ? '-' : cents(amount).toFixed(2);
}

/** Why a price or currency was refused; the message names no flag (the caller adds it). */
export class PriceError extends Error {
  override readonly name = 'PriceError';
}

/** A price: a plain decimal number of at least 0 (`0.0316`, `2`), no exponent, no sign, no unit. */
export function parsePrice(text: string): number {
  const n = Number(text);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text.trim()) || !Number.isFinite(n))
    throw new PriceError(`${JSON.stringify(text)} is not a price: expected a decimal number of at least 0, e.g. 0.0316`);
  return n;
}

/** A currency label: 1 to 12 characters, no spaces or control characters (`USD`, `EUR`, `€`). */
export function parseCurrency(text: string): string {
  if (!/^[^\s\p{Cc}]{1,12}$/u.test(text))
    throw new PriceError(`${JSON.stringify(text)} is not a currency label: expected 1 to 12 characters without spaces, e.g. USD or EUR`);
  return text;
}

/** The resources of a row that are counted in the savings: `savings` in millicores and bytes, absent for a row of low confidence. */
interface Savings {
  cpu: { savings?: number };
  memory: { savings?: number };
}

/** A report row's monthly saving (negative: a cost), unrounded; null when the row has no savings (low confidence, no request or no recommendation). */
export function rowMonthlySaving(row: Savings, prices: Prices): MonthlyMoney | null {
  if (row.cpu.savings === undefined && row.memory.savings === undefined) return null;
  return monthlyMoney(row.cpu.savings, row.memory.savings, prices);
}

/** The JSON of a monthly amount: each figure in cents, with the currency. */
export interface MoneyJson extends MonthlyMoney {
  currency: string;
}

/** `m` as JSON, rounded to cents; null stays null. */
export function moneyJson(m: MonthlyMoney | null, prices: Prices): MoneyJson | null {
  return m === null ? null : { ...moneyInCents(m), currency: prices.currency };
}

/** `0.03 USD per CPU-hour and 0.004 USD per GiB-hour`. */
export function pricesText(prices: Prices): string {
  return `${prices.cpuHour} ${prices.currency} per CPU-hour and ${prices.memoryGiBHour} ${prices.currency} per GiB-hour`;
}
