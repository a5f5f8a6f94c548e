/**
 * The scrape interval of the usage data and the CPU rate window derived from it (decision 0175).
 * `rate` needs at least two samples in its window: a window equal to a 1-minute step holds at most
 * one sample of data scraped every 5 minutes, so every CPU point came out empty. Like Grafana's
 * `$__rate_interval`, the window is four scrape intervals, and never shorter than the step:
 * 15 s data at a 1 min step -> 60 s (unchanged); 30 s -> 2 min; 5 min data -> 20 min.
 */

/** Scrape intervals in a CPU rate window. */
export const RATE_WINDOW_INTERVALS = 4;

/** How far back the detection looks for raw samples (long enough for two 30-minute samples). */
export const DETECTION_WINDOW_MS = 3600_000;

/** max(step, 4 x scrape interval); the step alone while the interval is unknown. */
export function rateWindowMs(stepMs: number, scrapeIntervalMs: number | undefined): number {
  return scrapeIntervalMs === undefined ? stepMs : Math.max(stepMs, RATE_WINDOW_INTERVALS * scrapeIntervalMs);
}

/**
 * The typical gap between consecutive samples: the median of every gap of every series (ms), or
 * undefined when no series has two samples. Example: samples at 0, 300 s, 600 s, 900 s and a
 * missed scrape then 1500 s -> gaps 300, 300, 300, 600 s -> 300 s.
 */
export function typicalInterval(seriesTimes: ReadonlyArray<readonly number[]>): number | undefined {
  const gaps: number[] = [];
  for (const times of seriesTimes) for (let i = 1; i < times.length; i++) if (times[i]! > times[i - 1]!) gaps.push(times[i]! - times[i - 1]!);
  if (gaps.length === 0) return undefined;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor((gaps.length - 1) / 2)];
}
