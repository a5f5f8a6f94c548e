/**
 * How the panels' PromQL names the dashboard's variables (the data source, $namespace, $workload and
 * Grafana's $__rate_interval), and the histogram quantile the latency panels share.
 */

/** The data source variable every panel and query variable reads from. */
export const DS = { type: 'prometheus' as const, uid: '${datasource}' };
/** The selected namespace, as a matcher value. */
export const NS = '$namespace';
/** The selected workload (a VPA's target name), as a matcher value. */
export const WL = '$workload';
/** Grafana's rate interval, for `rate` and `increase`. */
export const RI = '$__rate_interval';

/** The `q` quantile of histogram `metric` (without `_bucket`) by the labels `by`, over the rate interval. */
export function quantile(q: number, metric: string, by: string, selector = ''): string {
  return `histogram_quantile(${q}, sum by (${by}, le) (rate(${metric}_bucket${selector}[${RI}])))`;
}
