/**
 * The CSV form of the report: one row per workload container, quantities as Kubernetes strings,
 * after the notes the history (hours) and the risk columns of the JSON's `risk`; with prices, `monthly_saving` (negative: a cost; empty where the row has no savings) and `currency` last.
 * In a run over several clusters a `cluster` column comes first.
 */
import { stringify } from 'csv-stringify/sync';
import { rowsToJson } from './report-json.ts';
import type { ReportRow } from './report-rows.ts';
import type { Prices } from './money.ts';
import { hasClusters } from './clusters.ts';

const FIELDS = ['request', 'limit', 'target', 'lowerBound', 'upperBound', 'difference', 'savings'] as const;

export function renderCsv(rows: readonly ReportRow[], prices?: Prices): string {
  const clusters = hasClusters(rows);
  const header = [
    ...(clusters ? ['cluster'] : []),
    'namespace',
    'kind',
    'workload',
    'container',
    'status',
    'pods',
    ...FIELDS.map((f) => `cpu_${f}`),
    ...FIELDS.map((f) => `memory_${f}`),
    'confidence',
    'notes',
    'history_hours',
    'cpu_shortfall_pct',
    'memory_days',
    'memory_days_over_target',
    ...(prices ? ['monthly_saving', 'currency'] : []),
  ];
  const records = rowsToJson(rows, prices).map((r) => [
    ...(clusters ? [r.cluster ?? ''] : []),
    ...[
      r.namespace,
      r.workload.kind,
      r.workload.name,
      r.container,
      r.status,
      r.pods,
      ...FIELDS.map((f) => r.cpu[f] ?? ''),
      ...FIELDS.map((f) => r.memory[f] ?? ''),
      r.confidence,
      r.notes.join('; '),
    ],
    ...[r.historyHours, r.risk.cpuShortfallPct ?? '', r.risk.memoryDays, r.risk.memoryDaysOverTarget ?? ''],
    ...(prices ? [r.monthlySaving?.total?.toFixed(2) ?? '', prices.currency] : []),
  ]);
  return stringify([header, ...records]);
}
