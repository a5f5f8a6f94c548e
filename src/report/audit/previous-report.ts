/**
 * The previous report the trend compares with: the text of a summary (from `--store`) or of a
 * whole JSON audit report (`--previous FILE`). A text that cannot be read as either gives a
 * warning naming where it came from and what is wrong, and the new report has no trend; it never
 * stops the audit.
 */
import { AUDIT_KIND, AUDIT_SCHEMA_VERSION, type WorkloadAudit } from './audit-report.ts';
import { SUMMARY_KIND, SUMMARY_SCHEMA_VERSION, summaryFromJson, SummaryFormatError, type AuditSummary } from './audit-summary.ts';

export type PreviousOutcome = { summary: AuditSummary; source: string } | { warning: string };

/** A whole report's workloads as summary rows (then checked like a stored summary). */
function reportAsSummary(o: { schemaVersion?: unknown; generatedAt?: unknown; strategy?: unknown; workloads?: unknown }): unknown {
  if (o.schemaVersion !== AUDIT_SCHEMA_VERSION)
    throw new SummaryFormatError(`schemaVersion ${JSON.stringify(o.schemaVersion)} is not supported (this Tailor reads ${AUDIT_SCHEMA_VERSION})`);
  if (!Array.isArray(o.workloads)) throw new SummaryFormatError('workloads is not a list');
  const rows = (o.workloads as Partial<WorkloadAudit>[]).map((w) => [
    w?.namespace,
    w?.workload?.kind,
    w?.workload?.name,
    w?.container,
    w?.pods,
    w?.cpu?.request,
    w?.cpu?.target,
    w?.memory?.request,
    w?.memory?.target,
  ]);
  return { schemaVersion: SUMMARY_SCHEMA_VERSION, kind: SUMMARY_KIND, generatedAt: o.generatedAt, strategy: o.strategy, rows };
}

/** Reads the previous report from `text` found at `source` (e.g. `configmap:tailor-system/tailor-audit`). */
export function readPrevious(text: string, source: string): PreviousOutcome {
  try {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new SummaryFormatError(`not JSON (${err instanceof Error ? err.message : String(err)})`, { cause: err });
    }
    const kind = (value as { kind?: unknown } | null)?.kind;
    const summary = summaryFromJson(kind === AUDIT_KIND ? reportAsSummary(value as object) : value);
    return { summary, source };
  } catch (err) {
    if (!(err instanceof SummaryFormatError)) throw err;
    return { warning: `the previous report in ${source} cannot be read: ${err.message}; this report has no trend` };
  }
}
