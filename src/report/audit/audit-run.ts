/**
 * One audit after the history was read: find the previous report (`--previous`, else the store),
 * build the report with its trend, hand it to `emit` (which writes the HTML and JSON), and only
 * then keep the new summary in the store. Problems with the previous report are warnings; a store
 * that cannot take the new summary fails the audit after the report was written, with the stored
 * summary untouched (docs/audit.md).
 */
import type { Prices } from '../money.ts';
import type { ReportRow } from '../report-rows.ts';
import { buildAudit, strategyChangeNote, summaryOf, type AuditReport } from './audit-report.ts';
import { serializeSummary } from './audit-summary.ts';
import { readPrevious } from './previous-report.ts';
import type { SummaryStore } from './summary-store.ts';
import type { OutlineLookup } from './cluster-outlines.ts';
import type { ClusterFailure } from '../clusters.ts';

export interface AuditRunInput {
  rows: readonly ReportRow[];
  outlines?: OutlineLookup;
  /** Over several clusters: those that could not be read (named in the report). */
  failures?: readonly ClusterFailure[];
  now: number;
  historyMs: number;
  strategy: string;
  /** `--previous FILE`, already read: it wins over the store for the trend. */
  previousFile?: { text: string; source: string };
  store?: SummaryStore;
  /** With prices, the report carries the money figures. */
  prices?: Prices;
  /** Writes the report (HTML, JSON, or both). */
  emit: (report: AuditReport) => Promise<void>;
  warn: (line: string) => void;
}

/** `what: why: why that`, the messages of an error and its causes. */
function causeChain(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e !== undefined && parts.length < 5; e = e instanceof Error ? e.cause : undefined)
    parts.push(e instanceof Error ? e.message : String(e));
  return parts.join(': ');
}

/** Runs the audit; returns the report. Throws only when the report or the summary cannot be written. */
export async function completeAudit(input: AuditRunInput): Promise<AuditReport> {
  let previous: { text: string; source: string } | undefined = input.previousFile;
  if (!previous && input.store) {
    try {
      const text = await input.store.read();
      if (text === undefined) input.warn(`no previous report in ${input.store.location} (the first audit): this report has no trend`);
      else previous = { text, source: input.store.location };
    } catch (err) {
      input.warn(`the previous report in ${input.store.location} cannot be read: ${causeChain(err)}; this report has no trend`);
    }
  }
  let found: ReturnType<typeof readPrevious> | undefined;
  if (previous) {
    found = readPrevious(previous.text, previous.source);
    if ('warning' in found) input.warn(found.warning);
  }
  const report = buildAudit({
    rows: input.rows,
    ...(input.outlines ? { outlines: input.outlines } : {}),
    now: input.now,
    historyMs: input.historyMs,
    strategy: input.strategy,
    ...(found && 'summary' in found ? { previous: found } : {}),
    ...(input.prices ? { prices: input.prices } : {}),
    ...(input.failures && input.failures.length > 0 ? { failures: input.failures } : {}),
  });
  const changed = strategyChangeNote(report);
  if (changed)
    input.warn(`${changed} (the previous report, ${report.previous!.source}, recommended with ${report.previous!.strategy}; this one with ${report.strategy})`);
  await input.emit(report);
  await input.store?.write(serializeSummary(summaryOf(report)));
  return report;
}
