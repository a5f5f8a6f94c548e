/**
 * A self-contained HTML page of the report (no scripts, escaped text); with prices, a monthly saving
 * column and its total. Over several clusters a first column names each row's cluster, and under
 * the table the totals per cluster and over all (cluster-summary.ts) and the clusters left out.
 */
import escapeHtml from 'escape-html';
import { rowsToJson } from './report-json.ts';
import type { ReportRow } from './report-rows.ts';
import { moneySummary } from './report-table.ts';
import { moneyText, type Prices } from './money.ts';
import { hasClusters, type ClusterFailure } from './clusters.ts';
import { summaryLines } from './cluster-summary.ts';

function esc(s: string | number | null): string {
  return escapeHtml(String(s ?? '-'));
}

/** `lower .. upper`; an open upper bound reads "none yet". */
function bounds(status: string, l: { lowerBound: string | null; upperBound: string | null }): string {
  return status === 'ok' ? `${l.lowerBound ?? '-'} .. ${l.upperBound ?? 'none yet'}` : '-';
}

/** Under the table: the money total, or over several clusters every line of {@link summaryLines}. */
function totals(rows: readonly ReportRow[], prices: Prices | undefined, failures: readonly ClusterFailure[]): string {
  if (hasClusters(rows) || failures.length > 0)
    return `\n<div id="clusters">${summaryLines(rows, prices, failures)
      .map((l) => `<p>${esc(l)}</p>`)
      .join('')}</div>`;
  return prices ? `\n<p id="money">${esc(moneySummary(rows, prices))}</p>` : '';
}

export function renderHtml(rows: readonly ReportRow[], title: string, prices?: Prices, failures: readonly ClusterFailure[] = []): string {
  const clusters = hasClusters(rows);
  const body = rowsToJson(rows, prices)
    .map((r) => {
      const money = prices ? [moneyText(r.monthlySaving?.total ?? null)] : [];
      const cells = [
        ...(clusters ? [r.cluster ?? ''] : []),
        r.namespace,
        `${r.workload.kind}/${r.workload.name}`,
        r.container,
        r.pods,
        r.cpu.request,
        r.cpu.target,
        bounds(r.status, r.cpu),
        r.cpu.difference,
        r.memory.request,
        r.memory.target,
        bounds(r.status, r.memory),
        r.memory.difference,
        ...money,
        r.status,
        r.notes.join('; '),
      ];
      return `<tr>${cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`;
    })
    .join('\n');
  const head = [
    ...(clusters ? ['cluster'] : []),
    'namespace',
    'workload',
    'container',
    'pods',
    'cpu request',
    'cpu target',
    'cpu bounds',
    'cpu diff',
    'memory request',
    'memory target',
    'memory bounds',
    'memory diff',
    ...(prices ? [`saving ${prices.currency}/month`] : []),
    'status',
    'notes',
  ];
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}</style></head>
<body><h1>${esc(title)}</h1>
<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${body}
</tbody></table>${totals(rows, prices, failures)}</body></html>
`;
}
