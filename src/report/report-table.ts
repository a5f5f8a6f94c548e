/** The human table of `tailor recommend` (cli-table3), memory rounded up to MiB. */
import Table from 'cli-table3';
import type { ReportRow } from './report-rows.ts';
import { cpuText, memoryHuman, signed } from './report-quantities.ts';

const dash = (s: string | null) => s ?? '-';

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
      r.status === 'ok' ? `${dash(cpuText(c.target))} [${dash(cpuText(c.lowerBound))}, ${dash(cpuText(c.upperBound))}]` : '-',
      dash(signed(c.difference, cpuText)),
      `${dash(memoryHuman(m.request))}/${dash(memoryHuman(m.limit))}`,
      r.status === 'ok' ? `${dash(memoryHuman(m.target))} [${dash(memoryHuman(m.lowerBound))}, ${dash(memoryHuman(m.upperBound))}]` : '-',
      dash(signed(m.difference, memoryHuman)),
      r.status === 'ok' ? (r.ooms > 0 ? `${r.ooms} OOM kill(s)` : '') : 'insufficient data',
    ]);
  }
  return table.toString();
}

/** One line with the total savings: CPU and memory (negative: more is needed than requested). */
export function savingsSummary(rows: readonly ReportRow[]): string {
  const cpu = rows.reduce((s, r) => s + (r.cpu.savings ?? 0), 0);
  const memory = rows.reduce((s, r) => s + (r.memory.savings ?? 0), 0);
  return `estimated savings if applied: cpu ${signed(Math.round(cpu), cpuText)}, memory ${signed(memory, memoryHuman)} (request - target, x pods)`;
}
