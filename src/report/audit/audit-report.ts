/**
 * The audit report (decision 0230): what `tailor audit` writes as JSON and draws as HTML. Per
 * workload container: the requests, the recommendation, the waste (request above the
 * recommendation, times the pods) and the shortfall (recommendation above the request, times the
 * pods), a verdict, the usage outline over the window, and the trend since the previous report.
 * CPU is in millicores and memory in bytes throughout; the shape is versioned by `schemaVersion`
 * and documented in docs/audit.md. With prices (`--cpu-hour-price`, `--memory-gib-hour-price`:
 * ../money.ts) the report also carries `prices`, each row's `monthlySaving` ((waste - shortfall) x
 * price x 730 h; negative: a cost), its total and their changes since the previous report, priced
 * at today's prices on both sides; without prices these fields are absent. Over several clusters
 * (../clusters.ts) each row names its `cluster`, rows are grouped by it, and `clusters` and
 * `clustersNotReported` give each cluster's totals and the clusters left out (audit-clusters.ts).
 */
import { HOURS_PER_MONTH, moneyInCents, moneyJson, monthlyMoney, type MoneyJson, type MonthlyMoney, type Prices } from '../money.ts';
import type { ReportRow, ResourceLine } from '../report-rows.ts';
import { clusterRowId, type ClusterFailure } from '../clusters.ts';
import { roundedRisk, type RowRisk } from '../usage-risk.ts';
import type { AuditSummary, SummaryRow } from './audit-summary.ts';
import type { Outline } from './usage-outline.ts';
import type { OutlineLookup } from './cluster-outlines.ts';
import {
  clusterAudits,
  notReported,
  sumTotals,
  totalsMoney,
  verdictCounts,
  type ClusterAudit,
  type ClusterNotReported,
  type Totals,
} from './audit-clusters.ts';

export type { Totals } from './audit-clusters.ts';

export const AUDIT_SCHEMA_VERSION = 1;
export const AUDIT_KIND = 'TailorAuditReport';

/** Within this share of the request a recommendation counts as a fit (neither over nor under). */
export const FIT_TOLERANCE = 0.1;

/** `over`: the recommendation is below 90% of the request; `under`: above 110%; `unknown`: no request or no recommendation. */
export type Verdict = 'over' | 'under' | 'fit' | 'unknown';

export interface ResourceAudit {
  request: number | null;
  limit: number | null;
  target: number | null;
  lowerBound: number | null;
  /** null also when the strategy has no upper bound yet. */
  upperBound: number | null;
  /** (request - target) x pods when the request is higher, else 0; null when unknown. */
  waste: number | null;
  /** (target - request) x pods when the recommendation is higher, else 0; null when unknown. */
  shortfall: number | null;
  verdict: Verdict;
}

/** Changes since the previous report (now minus then); null where either side is unknown. */
export interface ResourceTrend {
  waste: number | null;
  shortfall: number | null;
  target: number | null;
  request: number | null;
}

export interface WorkloadTrend {
  /** Not in the previous report. */
  new: boolean;
  cpu: ResourceTrend;
  memory: ResourceTrend;
  /** With prices: the change of the monthly saving (now minus then, both at this report's prices, in cents); null figures where either side is unknown. */
  monthlySaving?: MonthlyMoney;
}

export interface WorkloadAudit {
  /** Only over several clusters: the row's cluster. */
  cluster?: string;
  namespace: string;
  workload: { kind: string; name: string };
  container: string;
  pods: number;
  /** `under` if either resource is under, else `over` if either is over, else `fit` or `unknown`. */
  verdict: Verdict;
  /** `low`: under a day of history or no upper bound yet; left out of the totals. */
  confidence: 'normal' | 'low';
  notes: string[];
  /** From the first to the last CPU sample, hours (two decimals). */
  historyHours: number;
  samples: { cpu: number; memory: number; ooms: number };
  /** The risk the recommendation takes on the row's own history (usage-risk.ts). */
  risk: RowRisk;
  cpu: ResourceAudit;
  memory: ResourceAudit;
  /** With prices: (waste - shortfall) x price x 730 h, in cents (negative: a cost); null without a request or a recommendation. */
  monthlySaving?: MoneyJson | null;
  /** null when there is no previous report. */
  trend: WorkloadTrend | null;
  /** Peak usage per bucket, the buckets ending at the window's end (null where no sample fell). */
  usage: { start: string; bucketSeconds: number; cpu: (number | null)[]; memory: (number | null)[] } | null;
}

export interface AuditReport {
  schemaVersion: typeof AUDIT_SCHEMA_VERSION;
  kind: typeof AUDIT_KIND;
  generatedAt: string;
  /** The history asked for (`--history` before `--at`). */
  window: { start: string; end: string };
  /**
   * The history the data covered: the oldest and the newest sample read, of any workload
   * container (null without usage outlines). Shorter than `window` when Prometheus holds less.
   */
  data: { start: string; end: string } | null;
  units: { cpu: 'millicores'; memory: 'bytes' };
  strategy: string;
  /**
   * The report the trend compares with; null when there is none (or it could not be read). Its
   * `strategy` is null when it does not say (written before Tailor kept it); `strategyChanged`:
   * known and not this report's, so the trend compares recommendations of two strategies.
   */
  previous: { generatedAt: string; source: string; strategy: string | null; strategyChanged: boolean } | null;
  /** The prices the money figures use (`--cpu-hour-price`, `--memory-gib-hour-price`, `--currency`); absent without prices. */
  prices?: Prices & { hoursPerMonth: number };
  /**
   * Sums over the rows of normal confidence, with their changes since the previous report. With
   * prices also their `monthlySaving` and, in `trend`, its change (the previous rows priced at
   * this report's prices: the change is the workloads', not the prices').
   */
  totals: {
    workloads: { over: number; under: number; fit: number; unknown: number };
    cpu: Totals;
    memory: Totals;
    monthlySaving?: MoneyJson;
    trend: { cpu: Totals; memory: Totals; monthlySaving?: MoneyJson } | null;
  };
  /** Only over several clusters: each cluster's totals (as `totals`, without the trend), in the order of `workloads`. */
  clusters?: ClusterAudit[];
  /** Only over several clusters: those that could not be read, and why. */
  clustersNotReported?: ClusterNotReported[];
  /** Under-provisioned first, then over-provisioned by waste, then the rest (over several clusters: within each cluster, clusters by name). */
  workloads: WorkloadAudit[];
  /** Workload containers of the previous report that are gone. */
  gone: { cluster?: string; namespace: string; workload: { kind: string; name: string }; container: string }[];
}

/** Whole millicores and bytes, null when unknown. */
const known = (v: number | undefined | null): number | null => (v === undefined || v === null || !Number.isFinite(v) ? null : Math.round(v));

/** Waste, shortfall and verdict of one resource. */
export function assess(request: number | null, target: number | null, pods: number): Pick<ResourceAudit, 'waste' | 'shortfall' | 'verdict'> {
  if (request === null || target === null) return { waste: null, shortfall: null, verdict: 'unknown' };
  const verdict: Verdict = target < request * (1 - FIT_TOLERANCE) ? 'over' : target > request * (1 + FIT_TOLERANCE) ? 'under' : 'fit';
  return { waste: Math.max(0, request - target) * pods, shortfall: Math.max(0, target - request) * pods, verdict };
}

function resource(l: ResourceLine, pods: number): ResourceAudit {
  const request = known(l.request);
  const target = known(l.target);
  return { request, limit: known(l.limit), target, lowerBound: known(l.lowerBound), upperBound: known(l.upperBound), ...assess(request, target, pods) };
}

function combined(a: Verdict, b: Verdict): Verdict {
  if (a === 'under' || b === 'under') return 'under';
  if (a === 'over' || b === 'over') return 'over';
  if (a === 'fit' || b === 'fit') return 'fit';
  return 'unknown';
}

const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);

/** Request minus target, times the pods: waste - shortfall; null when unknown. */
const net = (a: Pick<ResourceAudit, 'waste' | 'shortfall'>) => minus(a.waste, a.shortfall);

/** The monthly saving of a row's (or the totals') waste and shortfall at `prices`, unrounded. */
function savingOf(cpu: Pick<ResourceAudit, 'waste' | 'shortfall'>, memory: Pick<ResourceAudit, 'waste' | 'shortfall'>, prices: Prices): MonthlyMoney {
  return monthlyMoney(net(cpu), net(memory), prices);
}

/** Now minus then, figure by figure, in cents. */
function moneyChange(now: MonthlyMoney, then: MonthlyMoney): MonthlyMoney {
  return moneyInCents({ cpu: minus(now.cpu, then.cpu), memory: minus(now.memory, then.memory), total: minus(now.total, then.total) });
}

function resourceTrend(now: ResourceAudit, request: number | null, target: number | null, pods: number): ResourceTrend {
  const then = assess(request, target, pods);
  return {
    waste: minus(now.waste, then.waste),
    shortfall: minus(now.shortfall, then.shortfall),
    target: minus(now.target, target),
    request: minus(now.request, request),
  };
}

function trendOf(w: WorkloadAudit, prev: SummaryRow | undefined, prices: Prices | undefined): WorkloadTrend {
  if (!prev) {
    const unknown = { waste: null, shortfall: null, target: null, request: null };
    return { new: true, cpu: unknown, memory: unknown, ...(prices ? { monthlySaving: { cpu: null, memory: null, total: null } } : {}) };
  }
  const trend: WorkloadTrend = {
    new: false,
    cpu: resourceTrend(w.cpu, prev.cpuRequest, prev.cpuTarget, prev.pods),
    memory: resourceTrend(w.memory, prev.memoryRequest, prev.memoryTarget, prev.pods),
  };
  if (prices) {
    const then = savingOf(assess(prev.cpuRequest, prev.cpuTarget, prev.pods), assess(prev.memoryRequest, prev.memoryTarget, prev.pods), prices);
    trend.monthlySaving = moneyChange(savingOf(w.cpu, w.memory, prices), then);
  }
  return trend;
}

const summaryId = (r: SummaryRow) => clusterRowId(r.cluster, r.namespace, { kind: r.kind, name: r.name }, r.container);
/** The key of a report row or an audited row. */
const idOf = (r: { cluster?: string; namespace: string; workload: { kind: string; name: string }; container: string }) =>
  clusterRowId(r.cluster, r.namespace, r.workload, r.container);

function usageOf(o: Outline | undefined): WorkloadAudit['usage'] {
  if (!o) return null;
  return {
    start: new Date(o.start).toISOString(),
    bucketSeconds: Math.round(o.bucketMs) / 1000,
    cpu: o.cpu.map((v) => (v === null ? null : Math.round(v))),
    memory: o.memory.map((v) => (v === null ? null : Math.round(v))),
  };
}

/** The oldest and newest sample of the rows' outlines. */
function dataSpan(outlines: readonly (Outline | undefined)[]): AuditReport['data'] {
  let first = Infinity;
  let last = -Infinity;
  for (const o of outlines) {
    if (o?.firstSampleAt !== undefined && o.firstSampleAt < first) first = o.firstSampleAt;
    if (o?.lastSampleAt !== undefined && o.lastSampleAt > last) last = o.lastSampleAt;
  }
  return first <= last ? { start: new Date(first).toISOString(), end: new Date(last).toISOString() } : null;
}

const VERDICT_ORDER: Record<Verdict, number> = { under: 0, over: 1, fit: 2, unknown: 3 };
/** Millicores and bytes on one scale, to order rows by waste or shortfall: 1 core ~ 4 GiB. */
const weight = (cpu: number | null, memory: number | null) => (cpu ?? 0) / 1000 + (memory ?? 0) / 4 / 2 ** 30;

function summaryTotals(rows: readonly SummaryRow[], normal: ReadonlySet<string>, r: 'cpu' | 'memory'): Totals {
  let waste = 0;
  let shortfall = 0;
  for (const row of rows) {
    // Compared over the same rows: those of normal confidence now.
    if (!normal.has(summaryId(row))) continue;
    const a = r === 'cpu' ? assess(row.cpuRequest, row.cpuTarget, row.pods) : assess(row.memoryRequest, row.memoryTarget, row.pods);
    waste += a.waste ?? 0;
    shortfall += a.shortfall ?? 0;
  }
  return { waste, shortfall };
}

function previousOf(previous: { summary: AuditSummary; source: string }, strategy: string): NonNullable<AuditReport['previous']> {
  const then = previous.summary.strategy ?? null;
  return { generatedAt: previous.summary.generatedAt, source: previous.source, strategy: then, strategyChanged: then !== null && then !== strategy };
}

/** The sentence a report whose previous one used another strategy carries beside its trend; undefined when it did not. */
export function strategyChangeNote(report: Pick<AuditReport, 'strategy' | 'previous'>): string | undefined {
  const p = report.previous;
  return p?.strategyChanged ? `strategy changed from ${p.strategy} to ${report.strategy}: trend not comparable` : undefined;
}

export interface AuditInput {
  rows: readonly ReportRow[];
  /** The rows' usage outlines by clusterRowId (the rowId in a single-cluster run). */
  outlines?: OutlineLookup;
  now: number;
  historyMs: number;
  strategy: string;
  previous?: { summary: AuditSummary; source: string };
  /** With prices, the money figures (see the top of this file). */
  prices?: Prices;
  /** Over several clusters: those that could not be read. */
  failures?: readonly ClusterFailure[];
}

/** A row's money as JSON; null when both resources are unknown. */
const moneyJsonOrNull = (m: MonthlyMoney, prices: Prices) => (m.total === null ? null : moneyJson(m, prices));

/** Builds the report from recommend's rows, their usage outlines and the previous summary. */
export function buildAudit(input: AuditInput): AuditReport {
  const prevRows = new Map((input.previous?.summary.rows ?? []).map((r) => [summaryId(r), r]));
  const workloads = input.rows.map((row): WorkloadAudit => {
    const cpu = resource(row.cpu, row.pods);
    const memory = resource(row.memory, row.pods);
    const w: WorkloadAudit = {
      ...(row.cluster === undefined ? {} : { cluster: row.cluster }),
      namespace: row.namespace,
      workload: { kind: row.workload.kind, name: row.workload.name },
      container: row.container,
      pods: row.pods,
      verdict: combined(cpu.verdict, memory.verdict),
      confidence: row.confidence,
      notes: row.notes,
      historyHours: Math.round((row.historyMs / 3600_000) * 100) / 100,
      samples: { cpu: row.cpuSamples, memory: row.memorySamples, ooms: row.ooms },
      risk: roundedRisk(row.risk),
      cpu,
      memory,
      ...(input.prices ? { monthlySaving: moneyJsonOrNull(savingOf(cpu, memory, input.prices), input.prices) } : {}),
      trend: null,
      usage: usageOf(input.outlines?.get(idOf(row))),
    };
    if (input.previous) w.trend = trendOf(w, prevRows.get(idOf(row)), input.prices);
    return w;
  });
  workloads.sort(
    (a, b) =>
      (a.cluster ?? '').localeCompare(b.cluster ?? '') ||
      VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict] ||
      (a.verdict === 'under'
        ? weight(b.cpu.shortfall, b.memory.shortfall) - weight(a.cpu.shortfall, a.memory.shortfall)
        : weight(b.cpu.waste, b.memory.waste) - weight(a.cpu.waste, a.memory.waste)) ||
      idOf(a).localeCompare(idOf(b)),
  );
  const current = new Set(input.rows.map(idOf));
  const normal = workloads.filter((w) => w.confidence === 'normal');
  const normalIds = new Set(normal.map(idOf));
  const totals: AuditReport['totals'] = {
    workloads: verdictCounts(workloads),
    cpu: sumTotals(normal, 'cpu'),
    memory: sumTotals(normal, 'memory'),
    trend: null,
  };
  if (input.previous) {
    const rows = input.previous.summary.rows;
    const then = { cpu: summaryTotals(rows, normalIds, 'cpu'), memory: summaryTotals(rows, normalIds, 'memory') };
    const delta = (now: Totals, before: Totals): Totals => ({ waste: now.waste - before.waste, shortfall: now.shortfall - before.shortfall });
    totals.trend = { cpu: delta(totals.cpu, then.cpu), memory: delta(totals.memory, then.memory) };
    if (input.prices) totals.trend.monthlySaving = moneyJson(savingOf(totals.trend.cpu, totals.trend.memory, input.prices), input.prices)!;
  }
  if (input.prices) totals.monthlySaving = totalsMoney(totals.cpu, totals.memory, input.prices);
  const clusters = input.rows.some((r) => r.cluster !== undefined) || (input.failures?.length ?? 0) > 0;
  return {
    schemaVersion: AUDIT_SCHEMA_VERSION,
    kind: AUDIT_KIND,
    generatedAt: new Date(input.now).toISOString(),
    window: { start: new Date(input.now - input.historyMs).toISOString(), end: new Date(input.now).toISOString() },
    data: dataSpan(input.rows.map((r) => input.outlines?.get(idOf(r)))),
    units: { cpu: 'millicores', memory: 'bytes' },
    strategy: input.strategy,
    previous: input.previous ? previousOf(input.previous, input.strategy) : null,
    ...(input.prices ? { prices: { ...input.prices, hoursPerMonth: HOURS_PER_MONTH } } : {}),
    totals,
    ...(clusters ? { clusters: clusterAudits(workloads, input.prices), clustersNotReported: notReported(input.failures ?? []) } : {}),
    workloads,
    gone: [...prevRows.entries()]
      // A cluster not read this time is not gone: its rows are unknown.
      .filter(([id, r]) => !current.has(id) && !(input.failures ?? []).some((f) => f.cluster === r.cluster))
      .map(([, r]) => ({
        ...(r.cluster === undefined ? {} : { cluster: r.cluster }),
        namespace: r.namespace,
        workload: { kind: r.kind, name: r.name },
        container: r.container,
      })),
  };
}

/** The compact summary of a report, kept for the next report's trend. */
export function summaryOf(report: AuditReport): AuditSummary {
  return {
    generatedAt: report.generatedAt,
    strategy: report.strategy,
    rows: report.workloads.map((w) => ({
      ...(w.cluster === undefined ? {} : { cluster: w.cluster }),
      namespace: w.namespace,
      kind: w.workload.kind,
      name: w.workload.name,
      container: w.container,
      pods: w.pods,
      cpuRequest: w.cpu.request,
      cpuTarget: w.cpu.target,
      memoryRequest: w.memory.request,
      memoryTarget: w.memory.target,
    })),
  };
}
