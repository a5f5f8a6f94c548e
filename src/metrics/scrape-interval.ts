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

/** Share of series whose own interval the rate window must cover (a nearest-rank quantile). */
export const SERIES_QUANTILE = 0.9;

/**
 * The interval CPU must be read over: each series' typical gap (the median of its gaps, robust to a
 * missed scrape), then the 90th percentile of those across series, so the sparsest series still get
 * two samples in a window, not only the typical one. The data's interval is not always the scrape
 * interval: cAdvisor stamps its samples with its own housekeeping time (10-15 s, longer on a busy
 * node), so a job scraped every 5 s can hold container series 15 s apart beside a kubelet
 * endpoint's series 5 s apart (seen on the real-cluster lane: with the median of all gaps, 5 s, the
 * 20 s window held one sample of most containers and CPU came out empty for minutes).
 * Example: two series at 5 s and eight at 15 s -> per-series 5, 5, 15 x 8 -> 90th percentile 15 s.
 * Undefined when no series has two samples.
 */
export function typicalInterval(seriesTimes: ReadonlyArray<readonly number[]>): number | undefined {
  const perSeries: number[] = [];
  for (const times of seriesTimes) {
    const gaps: number[] = [];
    for (let i = 1; i < times.length; i++) if (times[i]! > times[i - 1]!) gaps.push(times[i]! - times[i - 1]!);
    if (gaps.length > 0) perSeries.push(lowerMedian(gaps));
  }
  if (perSeries.length === 0) return undefined;
  perSeries.sort((a, b) => a - b);
  return perSeries[Math.ceil(SERIES_QUANTILE * perSeries.length) - 1];
}

function lowerMedian(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor((values.length - 1) / 2)]!;
}
