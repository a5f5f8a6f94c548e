/** Renders the report in the format asked for on the command line. */
import { stringify as toYaml } from 'yaml';
import { renderCsv } from './report-csv.ts';
import { renderHtml } from './report-html.ts';
import { rowsToJson } from './report-json.ts';
import type { ReportRow } from './report-rows.ts';
import { renderTable } from './report-table.ts';
import type { Prices } from './money.ts';
import { summaryLines } from './cluster-summary.ts';
import type { ClusterFailure } from './clusters.ts';

import type { ReportFormat } from './report-formats.ts';

export { REPORT_FORMATS, type ReportFormat } from './report-formats.ts';

/**
 * The report in `format`; the table fits `width` columns (a terminal's; undefined: whole). With
 * `prices`, every format carries the monthly saving of each row (and the table and HTML their total).
 * Over several clusters every format has the cluster of each row, and the table and HTML the
 * totals per cluster, then over all, and the clusters in `failures` with why they are missing (the
 * list formats leave these to the command's stderr).
 */
export function renderReport(
  rows: readonly ReportRow[],
  format: ReportFormat,
  width?: number,
  prices?: Prices,
  failures: readonly ClusterFailure[] = [],
): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(rowsToJson(rows, prices), null, 2)}\n`;
    case 'yaml':
      return toYaml(rowsToJson(rows, prices));
    case 'csv':
      return renderCsv(rows, prices);
    case 'html':
      return renderHtml(rows, 'Tailor recommendations', prices, failures);
    case 'table':
      return `${renderTable(rows, width, prices)}\n${summaryLines(rows, prices, failures).join('\n')}\n`;
  }
}
