/**
 * The audit's figures per cluster, in a run over several clusters (../clusters.ts): for each
 * cluster the counts per verdict and the waste and shortfall of its rows of normal confidence (with
 * prices their monthly saving), as `totals` gives them over all, and the clusters that could not be
 * read with their reason. Absent from a single-cluster report. Pure.
 */
import { moneyJson, monthlyMoney, type MoneyJson, type Prices } from '../money.ts';
import { groupByCluster, type ClusterFailure } from '../clusters.ts';

/** Waste and shortfall of a resource, summed (millicores or bytes). */
export interface Totals {
  waste: number;
  shortfall: number;
}

/** What the totals read of an audited row (audit-report.ts's WorkloadAudit). */
export interface AuditedRow {
  cluster?: string;
  verdict: 'over' | 'under' | 'fit' | 'unknown';
  confidence: 'normal' | 'low';
  cpu: { waste: number | null; shortfall: number | null };
  memory: { waste: number | null; shortfall: number | null };
}

type Verdict = AuditedRow['verdict'];

/** One cluster's totals. */
export interface ClusterAudit {
  name: string;
  workloads: Record<Verdict, number>;
  cpu: Totals;
  memory: Totals;
  /** With prices: (waste - shortfall) x price x 730 h of its rows of normal confidence, in cents. */
  monthlySaving?: MoneyJson;
}

/** A cluster that is not in the report, and why. */
export interface ClusterNotReported {
  name: string;
  reason: string;
}

/** Waste and shortfall summed over `ws`. */
export function sumTotals(ws: readonly AuditedRow[], r: 'cpu' | 'memory'): Totals {
  let waste = 0;
  let shortfall = 0;
  for (const w of ws) {
    waste += w[r].waste ?? 0;
    shortfall += w[r].shortfall ?? 0;
  }
  return { waste, shortfall };
}

/** Counts per verdict of `ws`. */
export function verdictCounts(ws: readonly AuditedRow[]): Record<Verdict, number> {
  const counts = { over: 0, under: 0, fit: 0, unknown: 0 };
  for (const w of ws) counts[w.verdict]++;
  return counts;
}

/** The monthly saving of totals at `prices`, in cents. */
export function totalsMoney(cpu: Totals, memory: Totals, prices: Prices): MoneyJson {
  return moneyJson(monthlyMoney(cpu.waste - cpu.shortfall, memory.waste - memory.shortfall, prices), prices)!;
}

/** The totals of each cluster of the workloads, clusters in the report's order. */
export function clusterAudits(workloads: readonly AuditedRow[], prices: Prices | undefined): ClusterAudit[] {
  return [...groupByCluster(workloads)].map(([name, ws]) => {
    const normal = ws.filter((w) => w.confidence === 'normal');
    const cpu = sumTotals(normal, 'cpu');
    const memory = sumTotals(normal, 'memory');
    return { name, workloads: verdictCounts(ws), cpu, memory, ...(prices ? { monthlySaving: totalsMoney(cpu, memory, prices) } : {}) };
  });
}

/** The clusters left out, as the report names them. */
export function notReported(failures: readonly ClusterFailure[]): ClusterNotReported[] {
  return failures.map((f) => ({ name: f.cluster, reason: f.reason }));
}
