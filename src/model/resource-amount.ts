/**
 * Upstream's integer resource amounts (millicores, bytes) in plain numbers: every value is truncated
 * towards zero to a whole amount, clamped to [0, max] (upstream's resourceAmountFromFloat and
 * ScaleResource), so estimates match upstream's to the last unit.
 */

/** Truncates to a whole, non-negative amount, saturated at `max`; NaN becomes 0. */
export function toResourceAmount(value: number, max: number): number {
  if (!(value > 0)) return 0;
  if (value > max) return max;
  return Math.floor(value);
}

/** value x factor as a resource amount; 0 stays 0 even for an infinite factor. */
export function scaleResourceAmount(value: number, factor: number, max: number): number {
  if (value === 0) return 0;
  return toResourceAmount(value * factor, max);
}
