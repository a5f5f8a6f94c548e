/**
 * Parsers of the value formats the per-workload annotations share: percentages (`50%`),
 * durations (`5m`, `90s`, `1h30m`) and booleans (`true` / `false`). Each throws
 * {@link AnnotationValueError} with what is expected. Pure.
 */
import { DurationTooLongError, parseDuration } from '../../config/duration-option.ts';
import { AnnotationValueError } from './annotation-key.ts';

/** `50%` -> 0.5; `12.5%` -> 0.125. The share must lie in [min, max] (as fractions), with `%`. */
export function parsePercentage(text: string, min: number, max: number, { minExclusive = false, maxExclusive = false } = {}): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (!m) throw new AnnotationValueError('not a percentage (write e.g. 50%)');
  const share = Number(m[1]) / 100;
  const low = minExclusive ? share <= min : share < min;
  const high = maxExclusive ? share >= max : share > max;
  if (low || high)
    throw new AnnotationValueError(`must be ${minExclusive ? 'above' : 'at least'} ${min * 100}% and ${maxExclusive ? 'below' : 'at most'} ${max * 100}%`);
  return share;
}

/** `5m` -> 300000 (ms); `0s` is allowed. */
export function parseDurationValue(text: string): number {
  try {
    return parseDuration(text);
  } catch (error) {
    if (error instanceof DurationTooLongError) throw new AnnotationValueError('too long: at most 3650d (ten years)');
    throw new AnnotationValueError('not a duration (write e.g. 90s, 5m, 1h30m)');
  }
}

/** `true` / `false` (any case). */
export function parseBooleanValue(text: string): boolean {
  const v = text.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new AnnotationValueError('must be "true" or "false"');
}
