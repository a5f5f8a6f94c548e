/**
 * The JSON (and YAML) contract of `tailor recommend`: a list of
 * `{namespace, workload:{kind,name}, container, cpu:{request,limit,target,lowerBound,upperBound},
 * memory:{...}}` with quantities as Kubernetes strings in the units a person reads (null when
 * unknown): CPU in millicores or cores (`"587m"`, `"2"`), memory rounded up to whole MiB
 * (`"1161Mi"`, `"1Gi"`), plus `difference`, `savings`, `pods`, `samples` and `status` for each
 * row, and `risk`: the CPU shortfall and the days of memory above the target on the row's own
 * history (usage-risk.ts; in-sample, a floor on the risk ahead). The exact figures, for scripts,
 * are numbers beside them: `cpu.millicores` and `memory.bytes` (`{request, limit, target,
 * lowerBound, upperBound}`, whole, null when unknown).
 * `confidence` is `low` with less than a day of history or no upper bound yet (`upperBound` null,
 * `notes` say why); such rows have no `savings`. With prices (`--cpu-hour-price`,
 * `--memory-gib-hour-price`) each row also has `monthlySaving: {cpu, memory, total, currency}`
 * (money.ts: (request - target) x pods x price x 730 h, in cents, negative a cost; null where
 * `savings` are); without prices the field is absent. The list carries no total (it would change
 * the list into an object): the table's last line has it, and `jq '[.[].monthlySaving.total // 0] | add'`.
 * In a run over several clusters each row starts with `cluster` (its name); per cluster:
 * `jq 'group_by(.cluster) | map({cluster: .[0].cluster, total: (map(.monthlySaving.total // 0) | add)})'`.
 */
import type { ReportRow, ResourceLine } from './report-rows.ts';
import { roundedRisk } from './usage-risk.ts';
import { cpuText, memoryHuman, signed } from './report-quantities.ts';
import { moneyJson, rowMonthlySaving, type MoneyJson, type Prices } from './money.ts';

/** The exact figures of a resource: whole millicores or bytes, null when unknown. */
export interface ExactJson {
  request: number | null;
  limit: number | null;
  target: number | null;
  lowerBound: number | null;
  upperBound: number | null;
}

export interface ResourceJson {
  request: string | null;
  limit: string | null;
  target: string | null;
  lowerBound: string | null;
  upperBound: string | null;
  difference: string | null;
  savings: string | null;
}

export interface RowJson {
  /** Only in a run over several clusters (clusters.ts): the row's cluster. */
  cluster?: string;
  namespace: string;
  workload: { kind: string; name: string };
  container: string;
  status: ReportRow['status'];
  confidence: ReportRow['confidence'];
  historyHours: number;
  notes: string[];
  pods: number;
  samples: { cpu: number; memory: number; ooms: number };
  /** The risk the targets take on the row's own history (usage-risk.ts): CPU shortfall percent (one decimal), memory days over the target. */
  risk: { cpuShortfallPct: number | null; memoryDays: number; memoryDaysOverTarget: number | null };
  cpu: ResourceJson & { millicores: ExactJson };
  memory: ResourceJson & { bytes: ExactJson };
  /** With prices only: the row's monthly saving (negative: a cost), null when it has no savings. */
  monthlySaving?: MoneyJson | null;
}

function resource(l: ResourceLine, text: (v: number | undefined) => string | null): ResourceJson {
  const fmt = (v: number) => text(v);
  return {
    request: text(l.request),
    limit: text(l.limit),
    target: text(l.target),
    lowerBound: text(l.lowerBound),
    upperBound: text(l.upperBound),
    difference: signed(l.difference, fmt),
    savings: signed(l.savings, fmt),
  };
}

/** Whole units (rounded up, as the quantity strings are), null when not a finite, non-negative number. */
const whole = (v: number | undefined): number | null => (v === undefined || !Number.isFinite(v) || v < 0 ? null : Math.ceil(v));

function exact(l: ResourceLine): ExactJson {
  return { request: whole(l.request), limit: whole(l.limit), target: whole(l.target), lowerBound: whole(l.lowerBound), upperBound: whole(l.upperBound) };
}

/** The contract objects of the rows; with `prices`, each with its `monthlySaving`. */
export function rowsToJson(rows: readonly ReportRow[], prices?: Prices): RowJson[] {
  return rows.map((r) => ({
    ...(r.cluster === undefined ? {} : { cluster: r.cluster }),
    namespace: r.namespace,
    workload: { kind: r.workload.kind, name: r.workload.name },
    container: r.container,
    status: r.status,
    confidence: r.confidence,
    historyHours: Math.round((r.historyMs / 3600_000) * 10) / 10,
    notes: r.notes,
    pods: r.pods,
    samples: { cpu: r.cpuSamples, memory: r.memorySamples, ooms: r.ooms },
    risk: roundedRisk(r.risk),
    cpu: { ...resource(r.cpu, cpuText), millicores: exact(r.cpu) },
    memory: { ...resource(r.memory, memoryHuman), bytes: exact(r.memory) },
    ...(prices ? { monthlySaving: moneyJson(rowMonthlySaving(r, prices), prices) } : {}),
  }));
}
