/**
 * The clusters one Prometheus (a Thanos, Cortex or Mimir in front of many) holds, told apart by a
 * label (`cluster` by default, `--cluster-label`): `tailor recommend --all-clusters` and `tailor
 * audit --all-clusters` report each value of it. One instant query, over the hour before the
 * evaluation time at most, so its cost does not grow with the history (a `last_over_time` over 8
 * days would load every sample of every cluster):
 *
 *     count by (cluster) (count by (cluster, namespace, pod, container)
 *       (last_over_time(container_cpu_usage_seconds_total{container!="",container!="POD"}[3600s])))
 *
 * answers `{cluster="prod"} 412`, `{cluster="staging"} 57`: containers with CPU usage per cluster.
 * Series without the label are not a cluster and are left out.
 */
import type { QueryConfig } from './metric-names.ts';
import type { PrometheusQueryClient } from './query-client.ts';
import { containerSeriesSelector } from './promql-queries.ts';
import { duration } from './promql-selector.ts';

/** The longest window the discovery looks back over. */
export const CLUSTER_DISCOVERY_WINDOW_MS = 3600_000;

/** A label name as PromQL takes it: `cluster`, `k8s_cluster`. */
export function checkLabelName(name: string): string {
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) throw new Error(`invalid label name ${JSON.stringify(name)}: expected letters, digits and _, e.g. cluster`);
  return name;
}

/** The query counting the containers with CPU usage per value of `clusterLabel` over `windowMs`. */
export function clusterCountsQuery(cfg: QueryConfig, clusterLabel: string, windowMs: number): string {
  const label = checkLabelName(clusterLabel);
  const l = cfg.labels;
  return `count by (${label}) (count by (${label}, ${l.namespace}, ${l.pod}, ${l.container}) (last_over_time(${containerSeriesSelector(cfg)}[${duration(windowMs)}])))`;
}

/** Containers with CPU usage per cluster, in the window before `at` (at most {@link CLUSTER_DISCOVERY_WINDOW_MS}), clusters sorted by name. */
export async function discoverClusters(
  client: Pick<PrometheusQueryClient, 'instant'>,
  cfg: QueryConfig,
  clusterLabel: string,
  at: number,
  windowMs = CLUSTER_DISCOVERY_WINDOW_MS,
): Promise<Map<string, number>> {
  const answer = await client.instant(clusterCountsQuery(cfg, clusterLabel, Math.min(windowMs, CLUSTER_DISCOVERY_WINDOW_MS)), at);
  const found: Array<[string, number]> = [];
  for (const item of answer.result.result as Array<{ metric: { labels: object }; value: { value: number } }>) {
    const name = (item.metric.labels as Record<string, unknown>)[clusterLabel];
    if (typeof name === 'string' && name !== '' && Number.isFinite(item.value.value)) found.push([name, item.value.value]);
  }
  return new Map(found.sort(([a], [b]) => a.localeCompare(b)));
}
