/**
 * How far V8 lets its heap grow past what survived the last full collection (decision 0265). By
 * default V8 grows the next collection's threshold by up to 4x the live heap when the heap's
 * limit is large (4 GiB on a big machine): during the history bootstrap, where the model grows
 * while answers are decoded and dropped, the room left for garbage grows with the model
 * (100,000 containers: peak 791.5 MiB, 1.98x the steady 399.3 MiB). A fixed 25% keeps that room
 * in proportion to what the process really holds, for a few more full collections.
 * `--heap-growing-percent` is a V8 flag read at each collection, so it can be set after start.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's growth of the heap between full collections, in percent of the live heap. */
export const HEAP_GROWING_PERCENT = 25;

const FLAG = /(^|\s)--heap[-_]growing[-_]percent(=|\s|$)/;

/**
 * The V8 flag to set, or undefined when the operator already chose one on node's command line
 * (`execArgv`) or in `NODE_OPTIONS`: theirs stands.
 */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  if (execArgv.some((arg) => FLAG.test(arg)) || FLAG.test(nodeOptions ?? '')) return undefined;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Sets {@link heapGrowthFlag} for this process (process-wide, idempotent); returns the flag set, if any. */
export function limitHeapGrowth(): string | undefined {
  const flag = heapGrowthFlag(process.execArgv, process.env['NODE_OPTIONS']);
  if (flag) setFlagsFromString(flag);
  return flag;
}
