/**
 * The ending of `tailor recommend` and `tailor audit` when the report was written without some of
 * its clusters: one line naming each with its reason, exit code 3 (exit-codes.ts), e.g.
 * `tailor recommend: 1 of 3 clusters not reported (the report holds the others): edge: --kube-context edge: no such context in ...`.
 */
import { groupByCluster, type ClusterFailure } from '../report/clusters.ts';
import type { ReportRow } from '../report/report-rows.ts';
import { PartialResultError } from './exit-codes.ts';

/** The error that ends a run whose report left out the `failures`. */
export function notReportedError(failures: readonly ClusterFailure[], rows: readonly ReportRow[]): PartialResultError {
  const total = failures.length + groupByCluster(rows).size;
  return new PartialResultError(
    `${failures.length} of ${total} clusters not reported (the report holds the others): ${failures.map((f) => `${f.cluster}: ${f.reason}`).join('; ')}`,
  );
}
