/** The CSV form of the report: one row per workload container, quantities as Kubernetes strings. */
import { stringify } from 'csv-stringify/sync';
import { rowsToJson } from './report-json.ts';
import type { ReportRow } from './report-rows.ts';

const FIELDS = ['request', 'limit', 'target', 'lowerBound', 'upperBound', 'difference', 'savings'] as const;

export function renderCsv(rows: readonly ReportRow[]): string {
  const header = ['namespace', 'kind', 'workload', 'container', 'status', 'pods', ...FIELDS.map((f) => `cpu_${f}`), ...FIELDS.map((f) => `memory_${f}`), 'confidence', 'notes'];
  const records = rowsToJson(rows).map((r) => [r.namespace, r.workload.kind, r.workload.name, r.container, r.status, r.pods, ...FIELDS.map((f) => r.cpu[f] ?? ''), ...FIELDS.map((f) => r.memory[f] ?? ''), r.confidence, r.notes.join('; ')]);
  return stringify([header, ...records]);
}
