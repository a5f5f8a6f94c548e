/**
 * The human table of `tailor recommend` (cli-table3), memory rounded up to MiB. An open upper bound
 * reads "none yet"; the note column says why a row is not trusted (young history, no upper bound
 * yet, OOM kills), and the savings line counts only rows with normal confidence.
 */
import Table from 'cli-table3';
import type { ReportRow, ResourceLine } from './report-rows.ts';
import { cpuText, memoryHuman, signed } from './report-quantities.ts';

const dash = (s: string | null) => s ?? '-';

function bounds(l: ResourceLine, text: (v: number | undefined) => string | null): string {
  return `${dash(text(l.target))} [${dash(text(l.lowerBound))}, ${l.upperBoundOpen ? 'none yet' : dash(text(l.upperBound))}]`;
}

function note(r: ReportRow): string {
  if (r.status !== 'ok') return r.notes.length > 0 ? r.notes.join('; ') : 'insufficient data';
  return [...(r.ooms > 0 ? [`${r.ooms} OOM kill(s)`] : []), ...r.notes].join('; ');
}

export function renderTable(rows: readonly ReportRow[]): string {
  const table = new Table({
    head: ['namespace', 'workload', 'container', 'pods', 'cpu req/lim', 'cpu target [lower, upper]', 'cpu diff', 'mem req/lim', 'mem target [lower, upper]', 'mem diff', 'note'],
    style: { head: [], border: [] },
  });
  for (const r of rows) {
    const c = r.cpu;
    const m = r.memory;
    table.push([
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
      note(r),
    ]);
  }
  return table.toString();
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
