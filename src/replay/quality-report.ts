/**
 * Renders quality figures: the JSON contract of `tailor replay` and a fixed-width table, with an
 * optional ratio of each figure to a reference strategy (the bench compares everything to `vpa`) and
 * each strategy's slack as a multiple of a floor strategy's (`oracle-rules`: the least slack reachable
 * under the updater's rules).
 */
import type { QualityFigures } from './quality-tally.ts';

/** One strategy's figures, with its containers' figures when asked for. */
export interface StrategyReport extends QualityFigures {
  perContainer?: QualityFigures[];
}

/** The JSON document `tailor replay --format json` prints. */
export interface ReplayReport {
  strategies: StrategyReport[];
}

function fmt(value: number | null, digits: number): string {
  return value === null ? '-' : value.toFixed(digits);
}

function ratio(value: number | null, reference: number | null): string {
  if (value === null || reference === null) return '-';
  if (reference === 0) return value === 0 ? '1.00' : 'inf';
  return (value / reference).toFixed(2);
}

const HEADERS = ['strategy', 'containers', 'days', 'cpu slack %', 'cpu short %', 'mem slack %', 'OOMs', 'OOM-free days %', 'changes/day', 'restarts/day'];

function cells(f: QualityFigures): string[] {
  return [
    f.name,
    String(f.containers),
    f.days.toFixed(1),
    fmt(f.cpu.slackPct, 1),
    fmt(f.cpu.shortfallPct, 2),
    fmt(f.memory.slackPct, 1),
    String(f.memory.ooms),
    fmt(f.memory.oomFreeDaysPct, 2),
    f.changesPerDay.toFixed(2),
    f.restartsPerDay.toFixed(3),
  ];
}

function ratioCells(f: QualityFigures, ref: QualityFigures): string[] {
  return [
    `  / ${ref.name}`,
    '',
    '',
    ratio(f.cpu.slackPct, ref.cpu.slackPct),
    ratio(f.cpu.shortfallPct, ref.cpu.shortfallPct),
    ratio(f.memory.slackPct, ref.memory.slackPct),
    ratio(f.memory.ooms, ref.memory.ooms),
    ratio(f.memory.oomFreeDaysPct, ref.memory.oomFreeDaysPct),
    ratio(f.changesPerDay, ref.changesPerDay),
    ratio(f.restartsPerDay, ref.restartsPerDay),
  ];
}

/** The strategy whose slack the table divides by when it is in the rows (see `formatTable`). */
export const SLACK_FLOOR = 'oracle-rules';

/**
 * A text table, one row per figures entry; with `reference`, a ratio row under each other row.
 * When the rows include `floor` (default {@link SLACK_FLOOR}), two more columns give every
 * strategy's CPU and memory slack as a multiple of the floor's.
 */
export function formatTable(rows: readonly QualityFigures[], reference?: string, floor: string = SLACK_FLOOR): string {
  const ref = reference === undefined ? undefined : rows.find((r) => r.name === reference);
  const low = rows.find((r) => r.name === floor);
  const headers = low === undefined ? HEADERS : [...HEADERS, `cpu slack x ${floor}`, `mem slack x ${floor}`];
  const lines: string[][] = [headers];
  for (const row of rows) {
    const main = cells(row);
    if (low !== undefined) main.push(ratio(row.cpu.slackPct, low.cpu.slackPct), ratio(row.memory.slackPct, low.memory.slackPct));
    lines.push(main);
    if (ref !== undefined && row !== ref) lines.push(ratioCells(row, ref));
  }
  const widths = headers.map((_, c) => Math.max(...lines.map((l) => (l[c] ?? '').length)));
  return lines.map((l) => l.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ')).join('\n');
}
