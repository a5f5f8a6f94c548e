/**
 * The usage curves of the Prometheus benches (bench/prometheus.ts writes them into a real
 * Prometheus, bench/synthetic-prometheus.ts serves them): per container i, a daily wave around a
 * per-container base. Pure functions of (i, t), so both benches serve the same history.
 */

const DAY = 24 * 3600_000;
const OMEGA = (2 * Math.PI) / DAY;

/** CPU cores of container i at t (ms): a daily wave around a per-container base, 0.025-2.25 cores. */
export const cores = (i: number, t: number): number => (0.05 + (i % 30) * 0.05) * (1 + 0.5 * Math.sin(OMEGA * t + i));

/** Memory working set of container i at t (ms), bytes. */
export const memory = (i: number, t: number): number => Math.round((100 + (i % 40) * 25) * 2 ** 20 * (1 + 0.2 * Math.sin(OMEGA * t + i)));

/**
 * `container_cpu_usage_seconds_total` of container i at t (ms): the running integral of
 * {@link cores} since `start` (CPU-seconds), plus i so the series do not all start at 0. Strictly
 * increasing (cores > 0), so `rate` sees no counter reset and returns the mean of the curve over its
 * window.
 */
export function cpuSecondsTotal(i: number, t: number, start: number): number {
  const base = 0.05 + (i % 30) * 0.05;
  // integral of base * (1 + 0.5 sin(w u + i)) du over [start, t], u in ms, divided by 1000 for seconds
  const wave = (0.5 / OMEGA) * (Math.cos(OMEGA * start + i) - Math.cos(OMEGA * t + i));
  return i + (base * (t - start + wave)) / 1000;
}
