/**
 * The price options of `tailor recommend` and `tailor audit` (docs/cost.md): with both prices the
 * reports carry what each recommendation saves or costs a month; without them no money appears.
 * There are no default prices: a price list is the user's (their provider, region, discounts).
 * Checked once, before anything is read: a bad value is a {@link UsageError} naming its flag.
 * `--prices FILE` gives the same three in a small YAML or JSON file (`cpuHour`, `memoryGiBHour`,
 * `currency`), e.g. one kept beside the CronJob; a flag wins over the file. A file that cannot be
 * read, or holds anything else, is an input error (exit 1) naming the file and the field.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { readFailure } from './file-errors.ts';
import { DEFAULT_CURRENCY, parseCurrency, parsePrice, PriceError, type Prices } from '../report/money.ts';
import { UsageError } from './exit-codes.ts';

/** The price options, as commander gives them. */
export interface PriceOptions {
  cpuHourPrice?: string;
  memoryGibHourPrice?: string;
  currency?: string;
  prices?: string;
}

/** Adds `--cpu-hour-price`, `--memory-gib-hour-price` and `--currency` to a command. */
export function addPriceOptions(cmd: Command): Command {
  return cmd
    .option(
      '--cpu-hour-price <price>',
      'price of one CPU core requested for an hour, e.g. 0.0316; with --memory-gib-hour-price adds the monthly saving (730 h) of each recommendation and the total (default: no money shown)',
    )
    .option('--memory-gib-hour-price <price>', 'price of one GiB of memory requested for an hour, e.g. 0.0042; goes with --cpu-hour-price')
    .option('--currency <label>', `the prices' currency, a label only (default: ${DEFAULT_CURRENCY})`)
    .option('--prices <file>', 'a YAML or JSON file with cpuHour, memoryGiBHour and currency (the flags above win over it)');
}

function checked<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof PriceError) throw new UsageError(`${flag}: ${err.message}`, { cause: err });
    throw err;
  }
}

/** The prices of the options; undefined when none is given. Throws {@link UsageError}. */
export function pricesOf(o: PriceOptions): Prices | undefined {
  const cpu = o.cpuHourPrice === undefined ? undefined : checked('--cpu-hour-price', () => parsePrice(o.cpuHourPrice!));
  const memory = o.memoryGibHourPrice === undefined ? undefined : checked('--memory-gib-hour-price', () => parsePrice(o.memoryGibHourPrice!));
  const currency = o.currency === undefined ? undefined : checked('--currency', () => parseCurrency(o.currency!));
  if (cpu === undefined && memory === undefined) {
    if (currency !== undefined) throw new UsageError('--currency needs --cpu-hour-price and --memory-gib-hour-price');
    return undefined;
  }
  if (cpu === undefined || memory === undefined) {
    throw new UsageError(
      `${cpu === undefined ? '--memory-gib-hour-price' : '--cpu-hour-price'} needs ${cpu === undefined ? '--cpu-hour-price' : '--memory-gib-hour-price'} too (0 for a resource not to price)`,
    );
  }
  return { cpuHour: cpu, memoryGiBHour: memory, currency: currency ?? DEFAULT_CURRENCY };
}

/** The fields a prices file may hold. */
const FILE_FIELDS = ['cpuHour', 'memoryGiBHour', 'currency'] as const;

/** A prices file that is not what it should be; exit 1. */
export class PriceFileError extends Error {
  override readonly name = 'PriceFileError';
}

/** The options a prices file stands for (strings, as the flags give them); throws {@link PriceFileError} naming the file. */
export function priceFileOptions(text: string, file: string): PriceOptions {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    throw new PriceFileError(`${file}: not YAML or JSON: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, { cause: err });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new PriceFileError(`${file}: expected an object with ${FILE_FIELDS.join(', ')}`);
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !(FILE_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new PriceFileError(`${file}: unknown field ${unknown.join(', ')}: expected ${FILE_FIELDS.join(', ')}`);
  const field = (name: (typeof FILE_FIELDS)[number], parse: (text: string) => unknown): string | undefined => {
    const v = o[name];
    if (v === undefined) return undefined;
    const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : JSON.stringify(v);
    try {
      parse(text);
    } catch (err) {
      if (err instanceof PriceError) throw new PriceFileError(`${file}: ${name}: ${err.message}`, { cause: err });
      throw err;
    }
    return text;
  };
  const cpu = field('cpuHour', parsePrice);
  const memory = field('memoryGiBHour', parsePrice);
  const currency = field('currency', parseCurrency);
  if (cpu === undefined || memory === undefined) throw new PriceFileError(`${file}: needs both cpuHour and memoryGiBHour (0 for a resource not to price)`);
  return { cpuHourPrice: cpu, memoryGibHourPrice: memory, ...(currency === undefined ? {} : { currency }) };
}

/**
 * The prices of the options and, with `--prices`, of the file (each flag wins over the file's
 * field). The flags are checked first, so a bad flag is exit 2 before the file is read.
 */
export async function loadPrices(o: PriceOptions): Promise<Prices | undefined> {
  if (o.prices === undefined) return pricesOf(o);
  // Each flag given is checked now (exit 2), before the file is read; with the file they need not come in pairs.
  if (o.cpuHourPrice !== undefined) checked('--cpu-hour-price', () => parsePrice(o.cpuHourPrice!));
  if (o.memoryGibHourPrice !== undefined) checked('--memory-gib-hour-price', () => parsePrice(o.memoryGibHourPrice!));
  if (o.currency !== undefined) checked('--currency', () => parseCurrency(o.currency!));
  let text: string;
  try {
    text = await readFile(o.prices, 'utf8');
  } catch (err) {
    throw readFailure(o.prices, err);
  }
  const file = priceFileOptions(text, o.prices);
  return pricesOf({
    cpuHourPrice: o.cpuHourPrice ?? file.cpuHourPrice,
    memoryGibHourPrice: o.memoryGibHourPrice ?? file.memoryGibHourPrice,
    currency: o.currency ?? file.currency,
  });
}
