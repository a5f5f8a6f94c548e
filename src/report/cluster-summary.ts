/**
 * The lines under `tailor recommend`'s table (and in its HTML page): in a run over several
 * clusters: each cluster's savings and, with prices, its monthly saving, as the overall lines say
 * them (report-table.ts), then each cluster left out with its reason. Example:
 *
 *     cluster prod: estimated savings if applied: cpu +900m, memory +512Mi (request - target, x pods)
 *     cluster prod: monthly saving if applied: 21.90 USD (cpu 19.71, memory 2.19) at ...
 *     cluster edge: not reported: --kube-context edge: no such context in kubeconfig ... (has: prod, staging)
 */
import type { Prices } from './money.ts';
import type { ReportRow } from './report-rows.ts';
import { moneySummary, savingsSummary } from './report-table.ts';
import { clusterPrefix, failureLine, groupByCluster, hasClusters, type ClusterFailure } from './clusters.ts';

/**
 * The totals' lines: per cluster, then over all (`all clusters: ...`), then the clusters left out;
 * in a single-cluster run the two lines it always had.
 */
export function summaryLines(rows: readonly ReportRow[], prices: Prices | undefined, failures: readonly ClusterFailure[] = []): string[] {
  const totals = (own: readonly ReportRow[], prefix: string) => [
    `${prefix}${savingsSummary(own)}`,
    ...(prices ? [`${prefix}${moneySummary(own, prices)}`] : []),
  ];
  if (!hasClusters(rows)) return [...totals(rows, ''), ...failures.map(failureLine)];
  const perCluster = [...groupByCluster(rows)].flatMap(([cluster, own]) => totals(own, clusterPrefix(cluster)));
  return [...perCluster, ...totals(rows, 'all clusters: '), ...failures.map(failureLine)];
}
