/**
 * The price options of `tailor recommend` and `tailor audit` (docs/cost.md): with both prices the
 * reports carry what each recommendation saves or costs a month; without them no money appears.
 * There are no default prices: a price list is the user's (their provider, region, discounts).
 * Checked once, before anything is read: a bad value is a {@link UsageError} naming its flag.
 */
import type { Command } from 'commander';
import { DEFAULT_CURRENCY, parseCurrency, parsePrice, PriceError, type Prices } from '../report/money.ts';
import { UsageError } from './exit-codes.ts';

/** The price options, as commander gives them. */
export interface PriceOptions {
  cpuHourPrice?: string;
  memoryGibHourPrice?: string;
  currency?: string;
}

/** Adds `--cpu-hour-price`, `--memory-gib-hour-price` and `--currency` to a command. */
export function addPriceOptions(cmd: Command): Command {
  return cmd
    .option('--cpu-hour-price <price>', 'price of one CPU core requested for an hour, e.g. 0.0316; with --memory-gib-hour-price adds the monthly saving (730 h) of each recommendation and the total (default: no money shown)')
    .option('--memory-gib-hour-price <price>', 'price of one GiB of memory requested for an hour, e.g. 0.0042; goes with --cpu-hour-price')
    .option('--currency <label>', `the prices' currency, a label only (default: ${DEFAULT_CURRENCY})`);
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
    throw new UsageError(`${cpu === undefined ? '--memory-gib-hour-price' : '--cpu-hour-price'} needs ${cpu === undefined ? '--cpu-hour-price' : '--memory-gib-hour-price'} too (0 for a resource not to price)`);
  }
  return { cpuHour: cpu, memoryGiBHour: memory, currency: currency ?? DEFAULT_CURRENCY };
}
