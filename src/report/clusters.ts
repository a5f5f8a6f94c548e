/**
 * Several clusters in one report (`tailor recommend` and `tailor audit` with `--context` repeated,
 * `--all-contexts`, `--all-clusters` or `--cluster`): rows carry their cluster's name, every format
 * shows it as a column or field and groups by it, and a cluster that could not be read is named
 * with its reason while the others are reported. A run over one cluster without these flags has no
 * cluster anywhere (the report looks as it always did). Pure.
 */
import type { ReportRow } from './report-rows.ts';
import { rowId } from './report-rows.ts';
import type { WorkloadRef } from '../metrics/owner-resolution.ts';

/** A cluster that is not in the report, and why (one line). */
export interface ClusterFailure {
  cluster: string;
  reason: string;
}

/** The rows of one cluster's run, each tagged with `cluster`. */
export function withCluster(rows: readonly ReportRow[], cluster: string): ReportRow[] {
  return rows.map((r) => ({ cluster, ...r }));
}

/** Whether the rows come from a run over clusters (then every format shows the cluster). */
export function hasClusters(rows: readonly { cluster?: string }[]): boolean {
  return rows.some((r) => r.cluster !== undefined);
}

/** The rows per cluster, clusters in the order they first appear. */
export function groupByCluster<R extends { cluster?: string }>(rows: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const name = r.cluster ?? '';
    const list = out.get(name) ?? [];
    list.push(r);
    out.set(name, list);
  }
  return out;
}

/** A row's key across clusters: the cluster, then {@link rowId}; {@link rowId} alone in a single-cluster run. */
export function clusterRowId(cluster: string | undefined, namespace: string, workload: WorkloadRef, container: string): string {
  const id = rowId(namespace, workload, container);
  return cluster === undefined ? id : `${cluster}\u0000${id}`;
}

/** `cluster prod: ` before a line about one cluster, nothing when there is no cluster. */
export function clusterPrefix(cluster: string | undefined): string {
  return cluster === undefined || cluster === '' ? '' : `cluster ${cluster}: `;
}

/** The line naming a cluster left out of the report: `cluster b: not reported: <reason>`. */
export function failureLine(f: ClusterFailure): string {
  return `cluster ${f.cluster}: not reported: ${f.reason}`;
}
