/**
 * Comparing strategies at equal risk (issue 33 item 1): vpa's swept settings give points (risk,
 * slack); their lower frontier is the least slack vpa reaches at each risk; a strategy's slack is
 * set against the frontier's slack at the strategy's own risk, interpolated linearly between the two
 * frontier points either side, never extrapolated. And the noise of such a difference: a paired
 * bootstrap over containers.
 */

/** One point of a slack-versus-risk plane, with the setting that gave it. */
export interface RiskPoint {
  risk: number;
  slack: number;
  label: string;
}

/**
 * The lower (Pareto) frontier of `points`: the points no other point beats on both risk and slack
 * (at most as much of each, less of one), by increasing risk and so strictly decreasing slack.
 * Worked numbers: (1, 50) (2, 40) (2, 45) (3, 42) (4, 30) give (1, 50) (2, 40) (4, 30): (2, 45) has
 * more slack at the same risk, (3, 42) more slack than (2, 40) at more risk.
 */
export function lowerFrontier(points: readonly RiskPoint[]): RiskPoint[] {
  const sorted = points.filter((p) => Number.isFinite(p.risk) && Number.isFinite(p.slack)).sort((a, b) => a.risk - b.risk || a.slack - b.slack);
  const frontier: RiskPoint[] = [];
  for (const p of sorted) {
    const last = frontier[frontier.length - 1];
    if (last === undefined || p.slack < last.slack) frontier.push(p);
  }
  return frontier;
}

/** vpa's slack at a risk: on its frontier, or why there is none. */
export type SlackAtRisk =
  /** Between two frontier points (or on one: `below` and `above` are then the same point). */
  | { kind: 'interpolated'; slack: number; below: RiskPoint; above: RiskPoint }
  /**
   * Beyond the frontier's riskiest point but within the swept risks: more risk bought vpa no less
   * slack there, so its slack is the riskiest frontier point's (a point that takes less risk).
   */
  | { kind: 'flat'; slack: number; below: RiskPoint; above: RiskPoint }
  /**
   * Outside the risks the sweep reached: no figure (no extrapolation). `least` is vpa's least-risk
   * frontier point: a strategy below the sweep with less slack than it beats it on both.
   */
  | { kind: 'outside'; side: 'below' | 'above'; min: number; max: number; least?: RiskPoint };

/**
 * vpa's slack at `risk`, from all its swept `points`. Worked numbers, points (1, 50) (2, 40)
 * (4, 30) (6, 35): at 3, 35 (halfway from 40 to 30); at 1, 50; at 5, 30 (flat: (6, 35) took more
 * risk for more slack); at 0.5, outside below; at 7, outside above.
 */
export function slackAtRisk(points: readonly RiskPoint[], risk: number): SlackAtRisk {
  const frontier = lowerFrontier(points);
  const first = frontier[0];
  const last = frontier[frontier.length - 1];
  const max = Math.max(...points.filter((p) => Number.isFinite(p.risk) && Number.isFinite(p.slack)).map((p) => p.risk));
  if (first === undefined || last === undefined) return { kind: 'outside', side: 'below', min: NaN, max: NaN };
  if (risk < first.risk) return { kind: 'outside', side: 'below', min: first.risk, max, least: first };
  if (risk > max) return { kind: 'outside', side: 'above', min: first.risk, max, least: first };
  const on = frontier.find((p) => p.risk === risk);
  if (on !== undefined) return { kind: 'interpolated', slack: on.slack, below: on, above: on };
  if (risk > last.risk) return { kind: 'flat', slack: last.slack, below: last, above: last };
  for (let i = 0; i + 1 < frontier.length; i++) {
    const a = frontier[i]!;
    const b = frontier[i + 1]!;
    if (risk < a.risk || risk > b.risk) continue;
    const slack = a.slack + ((risk - a.risk) / (b.risk - a.risk)) * (b.slack - a.slack);
    return { kind: 'interpolated', slack, below: a, above: b };
  }
  return { kind: 'outside', side: 'above', min: first.risk, max, least: first };
}

/** A deterministic uniform source in [0, 1) (mulberry32 from `seed`). */
export function uniformSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A bootstrap interval: the 2.5th and 97.5th percentiles of a statistic, and in how many resamples it was defined. */
export interface Interval {
  low: number;
  high: number;
  defined: number;
  resamples: number;
}

/**
 * A paired bootstrap over `n` containers: `resamples` times, draw n container indices with
 * replacement (the same draw for every strategy: paired) and compute the named `statistics` on
 * them; each interval holds the middle 95% of that statistic's defined results (null: undefined in
 * that resample). A statistic defined in fewer than 95% of the resamples gets null.
 */
export function bootstrapIntervals(
  n: number,
  statistics: (indices: readonly number[]) => ReadonlyMap<string, number | null>,
  resamples = 1000,
  seed = 33,
): Map<string, Interval | null> {
  const next = uniformSource(seed);
  const values = new Map<string, number[]>();
  for (let r = 0; r < resamples; r++) {
    const indices = Array.from({ length: n }, () => Math.floor(next() * n));
    for (const [key, v] of statistics(indices)) {
      const list = values.get(key) ?? [];
      values.set(key, list);
      if (v !== null && Number.isFinite(v)) list.push(v);
    }
  }
  const out = new Map<string, Interval | null>();
  for (const [key, list] of values) {
    list.sort((a, b) => a - b);
    out.set(key, list.length < 0.95 * resamples ? null : { low: quantile(list, 0.025), high: quantile(list, 0.975), defined: list.length, resamples });
  }
  return out;
}

/** The q-quantile of sorted `values`, linear between order statistics. Worked number: [1, 2, 3, 4] at 0.5 gives 2.5. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (at - lo) * (sorted[hi]! - sorted[lo]!);
}
