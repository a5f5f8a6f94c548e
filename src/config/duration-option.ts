/** Parses CLI durations: `90s`, `30m`, `12h`, `8d`, `1w` (combinations like `1d12h` too) -> ms. */
const UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000, w: 604_800_000 };

/**
 * The longest duration accepted: ten years (3650d). Longer ones are mistakes or hostile (a VPA's
 * `tailor.dev/cooldown: 99999999999999h` is 3.6e20 ms, past what a Date holds), never a setting.
 */
export const MAX_DURATION_MS = 3650 * 86_400_000;

/** A duration that parses but is longer than MAX_DURATION_MS. */
export class DurationTooLongError extends Error {}

export function parseDuration(text: string): number {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.trim())
    throw new Error(`invalid duration ${JSON.stringify(text)}: use e.g. 90s, 30m, 12h, 8d, 1w`);
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * UNIT[p[2]!]!, 0);
  if (!(ms <= MAX_DURATION_MS)) throw new DurationTooLongError(`duration ${JSON.stringify(text)} is too long: at most 3650d (ten years)`);
  return ms;
}
