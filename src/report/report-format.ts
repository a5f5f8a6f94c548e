/** Renders the report in the format asked for on the command line. */
import { stringify as toYaml } from 'yaml';
import { renderCsv } from './report-csv.ts';
import { renderHtml } from './report-html.ts';
import { rowsToJson } from './report-json.ts';
import type { ReportRow } from './report-rows.ts';
import { renderTable, savingsSummary } from './report-table.ts';

import type { ReportFormat } from './report-formats.ts';

export { REPORT_FORMATS, type ReportFormat } from './report-formats.ts';

/** The report in `format`; the table fits `width` columns (a terminal's; undefined: whole). */
export function renderReport(rows: readonly ReportRow[], format: ReportFormat, width?: number): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(rowsToJson(rows), null, 2)}\n`;
    case 'yaml':
      return toYaml(rowsToJson(rows));
    case 'csv':
      return renderCsv(rows);
    case 'html':
      return renderHtml(rows, 'Tailor recommendations');
    case 'table':
      return `${renderTable(rows, width)}\n${savingsSummary(rows)}\n`;
  }
}
