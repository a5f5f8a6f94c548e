/**
 * The compact summary an audit keeps for the next one's trend: per workload container, the pods,
 * the requests and the recommendation, as one short array each. About 80 bytes a row, so a
 * ConfigMap (1 MiB) holds some 12,000 workload containers. Parsing is strict: anything that is not
 * a summary of this schema version is refused with what is wrong, never half-read. The strategy
 * of its recommendations is kept beside the rows (an optional field, so a summary written before
 * reads as one whose strategy is unknown), for the next trend to say when it changed. Over several
 * clusters each row ends with its cluster (a tenth column, `cluster`); rows of nine columns are those
 * of a single-cluster report.
 */

/** Schema version of the summary; a new version is refused by an older Tailor. */
export const SUMMARY_SCHEMA_VERSION = 1;
export const SUMMARY_KIND = 'TailorAuditSummary';

/** One workload container: CPU in millicores, memory in bytes, null when unknown. */
export interface SummaryRow {
  namespace: string;
  kind: string;
  name: string;
  container: string;
  pods: number;
  cpuRequest: number | null;
  cpuTarget: number | null;
  memoryRequest: number | null;
  memoryTarget: number | null;
  /** Only over several clusters. */
  cluster?: string;
}

export interface AuditSummary {
  /** When the report was made (ISO 8601). */
  generatedAt: string;
  /** The strategy of its recommendations; absent in summaries written before Tailor kept it. */
  strategy?: string;
  rows: SummaryRow[];
}

type Tuple = [string, string, string, string, number, number | null, number | null, number | null, number | null, string?];

/** The summary as compact JSON (one array per row; over several clusters the cluster last). */
export function serializeSummary(summary: AuditSummary): string {
  const clusters = summary.rows.some((r) => r.cluster !== undefined);
  const rows = summary.rows.map((r): Tuple => {
    const row: Tuple = [r.namespace, r.kind, r.name, r.container, r.pods, r.cpuRequest, r.cpuTarget, r.memoryRequest, r.memoryTarget];
    if (clusters) row.push(r.cluster ?? '');
    return row;
  });
  return JSON.stringify({
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    kind: SUMMARY_KIND,
    generatedAt: summary.generatedAt,
    ...(summary.strategy === undefined ? {} : { strategy: summary.strategy }),
    columns: clusters ? [...COLUMNS, 'cluster'] : COLUMNS,
    rows,
  });
}

const COLUMNS = ['namespace', 'kind', 'name', 'container', 'pods', 'cpuRequest', 'cpuTarget', 'memoryRequest', 'memoryTarget'];

/** A summary that cannot be read: `message` says what is wrong. */
export class SummaryFormatError extends Error {
  override readonly name = 'SummaryFormatError';
}

const isNumberOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0);

/** Reads a summary from its JSON value; throws {@link SummaryFormatError}. */
export function summaryFromJson(value: unknown): AuditSummary {
  const o = value as { schemaVersion?: unknown; kind?: unknown; generatedAt?: unknown; strategy?: unknown; rows?: unknown };
  if (typeof o !== 'object' || o === null) throw new SummaryFormatError('not a JSON object');
  if (o.kind !== SUMMARY_KIND) throw new SummaryFormatError(`kind is ${JSON.stringify(o.kind)}, expected ${SUMMARY_KIND}`);
  if (o.schemaVersion !== SUMMARY_SCHEMA_VERSION)
    throw new SummaryFormatError(`schemaVersion ${JSON.stringify(o.schemaVersion)} is not supported (this Tailor reads ${SUMMARY_SCHEMA_VERSION})`);
  if (typeof o.generatedAt !== 'string' || !Number.isFinite(Date.parse(o.generatedAt))) throw new SummaryFormatError('generatedAt is not an ISO time');
  if (o.strategy !== undefined && typeof o.strategy !== 'string') throw new SummaryFormatError('strategy is not a string');
  if (!Array.isArray(o.rows)) throw new SummaryFormatError('rows is not a list');
  const rows = o.rows.map((r: unknown, i): SummaryRow => {
    const t = r as unknown[];
    const ok =
      Array.isArray(t) &&
      (t.length === 9 || (t.length === 10 && typeof t[9] === 'string')) &&
      t.slice(0, 4).every((s) => typeof s === 'string') &&
      typeof t[4] === 'number' &&
      t.slice(5, 9).every(isNumberOrNull);
    if (!ok)
      throw new SummaryFormatError(
        `rows[${i}] is not [namespace, kind, name, container, pods, cpuRequest, cpuTarget, memoryRequest, memoryTarget] (and cluster)`,
      );
    const [namespace, kind, name, container, pods, cpuRequest, cpuTarget, memoryRequest, memoryTarget, cluster] = t as Tuple;
    return { namespace, kind, name, container, pods, cpuRequest, cpuTarget, memoryRequest, memoryTarget, ...(cluster === undefined ? {} : { cluster }) };
  });
  return { generatedAt: o.generatedAt, ...(o.strategy === undefined ? {} : { strategy: o.strategy }), rows };
}

/** Reads a summary from JSON text; throws {@link SummaryFormatError} (with the parse error as cause). */
export function parseSummary(text: string): AuditSummary {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new SummaryFormatError(`not JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return summaryFromJson(value);
}
