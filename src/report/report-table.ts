/**
 * The human table of `tailor recommend` (cli-table3), memory rounded up to MiB. An open upper bound
 * reads "none yet"; the note column says why a row is not trusted (young history, no upper bound
 * yet, OOM kills, memory above the target on some days), a column gives the history and the risk
 * the targets take on it (usage-risk.ts), and the savings line counts only rows with normal
 * confidence. On a terminal the table fits its width (fit-table.ts). With prices (money.ts) a column gives each row's monthly
 * saving (negative: a cost) and a line under the table their total. In a run over several clusters
 * a first column names each row's cluster (never dropped: rows of two clusters may differ only there).
 */
import { layoutTable, renderFittedTable, type FitColumn } from './fit-table.ts';
import type { ReportRow, ResourceLine } from './report-rows.ts';
import { cpuText, memoryHuman, signed } from './report-quantities.ts';
import { HOURS_PER_MONTH, moneyText, pricesText, rowMonthlySaving, sumMoney, type Prices } from './money.ts';
import { hasClusters } from './clusters.ts';

const dash = (s: string | null) => s ?? '-';

function bounds(l: ResourceLine, text: (v: number | undefined) => string | null): string {
  return `${dash(text(l.target))} [${dash(text(l.lowerBound))}, ${l.upperBoundOpen ? 'none yet' : dash(text(l.upperBound))}]`;
}

function note(r: ReportRow): string {
  if (r.status !== 'ok') return r.notes.length > 0 ? r.notes.join('; ') : 'insufficient data';
  const over = r.risk.memoryDaysOverTarget;
  const daysOver = over ? [`memory peaked above the target on ${over} of ${r.risk.memoryDays} day(s)`] : [];
  return [...(r.ooms > 0 ? [`${r.ooms} OOM kill(s)`] : []), ...daysOver, ...r.notes].join('; ');
}

/**
 * The row's history and the risk its targets take on it (usage-risk.ts): `8 d · 0.4% · 0/8 d` is
 * eight days of history, 0.4% of the CPU used above the CPU target, no day of memory above the target.
 */
function historyAndRisk(r: ReportRow): string {
  const history = r.historyMs >= 86_400_000 ? `${Math.round(r.historyMs / 86_400_000)} d` : `${Math.round(r.historyMs / 3600_000)} h`;
  const cpu = r.risk.cpuShortfallPct === null ? '-' : `${r.risk.cpuShortfallPct.toFixed(1)}%`;
  const memory = r.risk.memoryDaysOverTarget === null ? '-' : `${r.risk.memoryDaysOverTarget}/${r.risk.memoryDays} d`;
  return `${history} · ${cpu} · ${memory}`;
}

/** kubectl's short names of the workload kinds, for a narrow terminal. */
const KIND_SHORT_NAMES: Record<string, string> = {
  Deployment: 'deploy',
  StatefulSet: 'sts',
  DaemonSet: 'ds',
  ReplicaSet: 'rs',
  CronJob: 'cj',
  Job: 'job',
  ReplicationController: 'rc',
  Pod: 'pod',
};

/** `Deployment/api` -> `deploy/api`. */
const shortKind = (text: string) => text.replace(/^([A-Za-z]+)\//, (all, kind: string) => (KIND_SHORT_NAMES[kind] ? `${KIND_SHORT_NAMES[kind]}/` : all));
/** `296m [246m, 430m]` -> `296m`. */
const targetOnly = (text: string) => text.replace(/ \[.*\]$/, '');

/** The table's columns, and how they give way on a narrow terminal (fit-table.ts): the note moves under its row first. */
const COLUMNS: readonly FitColumn[] = [
  { head: 'namespace', dropOrder: 3 },
  { head: 'workload', abbreviated: { head: 'workload', cell: shortKind } },
  { head: 'container', dropOrder: 4 },
  { head: 'pods', dropOrder: 1 },
  { head: 'cpu req/lim' },
  { head: 'cpu target [lower, upper]', shortHead: 'cpu target [lo, hi]', abbreviated: { head: 'cpu target', cell: targetOnly } },
  { head: 'cpu diff', dropOrder: 2 },
  { head: 'mem req/lim' },
  { head: 'mem target [lower, upper]', shortHead: 'mem target [lo, hi]', abbreviated: { head: 'mem target', cell: targetOnly } },
  { head: 'mem diff', dropOrder: 2 },
  { head: 'history · cpu short · mem days over', shortHead: 'history · risk', dropOrder: 1 },
  { head: 'note', ownLine: true },
];

/** The first column in a run over several clusters. */
const CLUSTER_COLUMN: FitColumn = { head: 'cluster' };

/** The money column, before the note: kept on any terminal (it is short). */
const moneyColumn = (prices: Prices): FitColumn => ({ head: `saving ${prices.currency}/month`, shortHead: `${prices.currency}/mo` });

/**
 * The table, fitted to `width` columns (a terminal's; undefined: the whole table, as for a file
 * or a pipe); with `prices`, the monthly saving of each row.
 */
export function renderTable(rows: readonly ReportRow[], width?: number, prices?: Prices): string {
  const clusters = hasClusters(rows);
  const columns = [...(clusters ? [CLUSTER_COLUMN] : []), ...(prices ? [...COLUMNS.slice(0, -1), moneyColumn(prices), COLUMNS[COLUMNS.length - 1]!] : COLUMNS)];
  const cells = rows.map((r) => {
    const c = r.cpu;
    const m = r.memory;
    const money = prices ? [moneyText(rowMonthlySaving(r, prices)?.total ?? null)] : [];
    return [
      ...(clusters ? [r.cluster ?? ''] : []),
      r.namespace,
      `${r.workload.kind}/${r.workload.name}`,
      r.container,
      String(r.pods),
      `${dash(cpuText(c.request))}/${dash(cpuText(c.limit))}`,
      r.status === 'ok' ? bounds(c, cpuText) : '-',
      dash(signed(c.difference, cpuText)),
      `${dash(memoryHuman(m.request))}/${dash(memoryHuman(m.limit))}`,
      r.status === 'ok' ? bounds(m, memoryHuman) : '-',
      dash(signed(m.difference, memoryHuman)),
      historyAndRisk(r),
      ...money,
      note(r),
    ];
  });
  return renderFittedTable(columns, cells, layoutTable(columns, cells, width), { ownLinePrefix: 'note: ' });
}

/**
 * The total savings of the rows with normal confidence: CPU and memory (negative: more is needed
 * than requested), and how many rows with low confidence were left out.
 */
export function savingsSummary(rows: readonly ReportRow[]): string {
  const counted = rows.filter((r) => r.status === 'ok' && r.confidence === 'normal');
  const cpu = counted.reduce((s, r) => s + (r.cpu.savings ?? 0), 0);
  const memory = counted.reduce((s, r) => s + (r.memory.savings ?? 0), 0);
  const left = rows.length - counted.length;
  const total = `estimated savings if applied: cpu ${signed(Math.round(cpu), cpuText)}, memory ${signed(memory, memoryHuman)} (request - target, x pods)`;
  if (counted.length === 0) return `no estimated savings: none of the ${rows.length} row(s) has enough history yet (a day, and an upper bound)`;
  return left === 0 ? total : `${total}; ${left} row(s) with low confidence or no estimate left out`;
}

/**
 * The line of the total monthly saving of the rows with normal confidence (those of
 * {@link savingsSummary}), e.g. `monthly saving if applied: 21.90 USD (cpu 19.71, memory 2.19) at
 * 0.03 USD per CPU-hour and 0.004 USD per GiB-hour, 730 h a month; negative is a cost`.
 */
export function moneySummary(rows: readonly ReportRow[], prices: Prices): string {
  const counted = rows.filter((r) => r.status === 'ok' && r.confidence === 'normal');
  const total = sumMoney(counted.flatMap((r) => rowMonthlySaving(r, prices) ?? []));
  return `monthly saving if applied: ${moneyText(total.total ?? 0)} ${prices.currency} (cpu ${moneyText(total.cpu ?? 0)}, memory ${moneyText(total.memory ?? 0)}) at ${pricesText(prices)}, ${HOURS_PER_MONTH} h a month; negative is a cost`;
}
