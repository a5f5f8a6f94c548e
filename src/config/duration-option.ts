/** Parses CLI durations: `90s`, `30m`, `12h`, `8d`, `1w` (combinations like `1d12h` too) -> ms. */
const UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000, w: 604_800_000 };

export function parseDuration(text: string): number {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.trim())
    throw new Error(`invalid duration ${JSON.stringify(text)}: use e.g. 90s, 30m, 12h, 8d, 1w`);
  return parts.reduce((ms, p) => ms + Number(p[1]) * UNIT[p[2]!]!, 0);
}
