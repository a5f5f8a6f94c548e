/**
 * The demo's terminal view, pure: the pod table (cli-table3, fitted to a terminal's width), the
 * action log lines and the closing summary. On a terminal the shell redraws {@link renderScreen} in place; elsewhere it
 * appends {@link formatActivity} lines as they happen and prints the table once at the end.
 */
import { layoutTable, renderFittedTable, type FitColumn } from '../report/fit-table.ts';
import type { Activity, ActivityKind } from './activity.ts';
import { countByKind } from './activity.ts';
import type { PodRow } from './demo-snapshot.ts';

/** A pod's name without its workload's prefix: `web-5w5fg9q249-7j6kr` of `web` -> `7j6kr`. */
export function shortPodName(pod: string, workload: string): string {
  return pod.startsWith(`${workload}-`) ? (pod.split('-').pop() ?? pod) : pod;
}

/** No line between rows, so a terminal holds the whole table. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** `296m [246m, 430m]` -> `296m`. */
const targetOnly = (text: string) => text.replace(/ \[.*\]$/, '');

/** The pod table's columns, and how they give way on a narrow terminal (fit-table.ts). */
const COLUMNS: readonly FitColumn[] = [
  { head: 'workload' },
  { head: 'pod', dropOrder: 3 },
  { head: 'node', dropOrder: 2 },
  { head: 'state', dropOrder: 4 },
  { head: 'restarts', dropOrder: 1 },
  { head: 'cpu req' },
  { head: 'cpu target [lower, upper]', shortHead: 'cpu target [lo, hi]', abbreviated: { head: 'cpu target', cell: targetOnly } },
  { head: 'mem req' },
  { head: 'mem target [lower, upper]', shortHead: 'mem target [lo, hi]', abbreviated: { head: 'mem target', cell: targetOnly } },
];

/** The table of pods with their requests and recommendations, fitted to `width` (a terminal's; undefined: whole). */
export function renderTable(rows: readonly PodRow[], width?: number): string {
  const cells = rows.map((r) => [
    r.workload,
    shortPodName(r.pod, r.workload),
    r.node,
    r.state,
    String(r.restarts),
    r.cpu,
    r.cpuRecommendation,
    r.memory,
    r.memoryRecommendation,
  ]);
  return renderFittedTable(COLUMNS, cells, layoutTable(COLUMNS, cells, width), { chars: COMPACT });
}

/** Seconds since the start: `+75s`. */
export function elapsed(at: number, startedAt: number): string {
  return `+${Math.max(0, Math.round((at - startedAt) / 1000))}s`;
}

/** One log line: `+12s  in-place        web     web-6d4-x: ResizedInPlace: ...`. */
export function formatActivity(a: Activity, startedAt: number): string {
  return `${elapsed(a.at, startedAt).padStart(6)}  ${a.kind.padEnd(14)}  ${a.subject.padEnd(8)}  ${a.text}`;
}

/** `1 OOM kill`, `2 OOM kills`. */
export function counted(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** Each kind of the summary with its words; evictions are said once, with the fallbacks among them. */
const SUMMARY_ORDER: readonly [ActivityKind, string, string][] = [
  ['recommendation', 'recommendation', 'recommendations'],
  ['in-place', 'in-place resize', 'in-place resizes'],
  ['restart', 'restarting resize', 'restarting resizes'],
  ['infeasible', 'infeasible resize', 'infeasible resizes'],
  ['eviction', 'eviction', 'evictions'],
  ['admitted', 'pod admitted with the recommendation', 'pods admitted with the recommendation'],
  ['boosted', 'pod admitted with a start-up cpu boost', 'pods admitted with a start-up cpu boost'],
  ['oom', 'OOM kill', 'OOM kills'],
  ['scale-up', 'node added', 'nodes added'],
  ['refused', 'refused or failed action', 'refused or failed actions'],
];

/**
 * `summary: 4 recommendations, 3 in-place resizes, 1 infeasible resize, 1 eviction (1 after an
 * infeasible resize), ...`: every kind, zeros included; the evictions count the updater's
 * fallbacks from an infeasible resize too, and say how many of them were.
 */
export function renderSummary(log: readonly Activity[]): string {
  const counts = countByKind(log);
  const parts = SUMMARY_ORDER.map(([k, one, many]) => {
    if (k !== 'eviction') return counted(counts[k], one, many);
    const evictions = counted(counts.eviction + counts.fallback, one, many);
    return counts.fallback > 0 ? `${evictions} (${counts.fallback} after an infeasible resize)` : evictions;
  });
  return `summary: ${parts.join(', ')}`;
}

/**
 * The header's clock: the running time (start-up not counted, as `--duration`), never past the
 * duration: once it is over the demo is finishing (the last refresh, the stop, the audit).
 */
export function runningClock(runningMs: number, durationMs?: number): string {
  const secs = (ms: number) => Math.max(0, Math.round(ms / 1000));
  if (durationMs === undefined) return `running ${secs(runningMs)}s; Ctrl-C to stop`;
  if (runningMs >= durationMs) return `running ${secs(durationMs)}s of ${secs(durationMs)}s, finishing`;
  return `running ${secs(runningMs)}s of ${secs(durationMs)}s; Ctrl-C to stop`;
}

export interface Screen {
  /** Lines above the table (where things are, how long it runs). */
  header: readonly string[];
  rows: readonly PodRow[];
  log: readonly Activity[];
  startedAt: number;
  /** How many of the latest log lines to show. */
  logLines: number;
  /** The terminal's width, which the table fits (undefined: the whole table). */
  width?: number;
}

/** The whole screen for a terminal (redrawn in place). */
export function renderScreen(s: Screen): string {
  const latest = s.log.slice(-s.logLines).map((a) => formatActivity(a, s.startedAt));
  return [
    ...s.header,
    '',
    renderTable(s.rows, s.width),
    '',
    'actions (newest last):',
    ...(latest.length > 0 ? latest : ['  (waiting for the first recommendations)']),
    '',
  ].join('\n');
}

/**
 * One terminal frame: cursor home, each line cut to the terminal's width (a wrapped line would
 * shift the next redraw) and cleared to its end, then the rest of the screen cleared, so the
 * redraw does not flicker. Worked example: `ttyFrame('abcdef\nxy', 4)` ->
 * `ESC[H abcd ESC[K \n xy ESC[K ESC[J` (without the spaces).
 */
export function ttyFrame(screen: string, columns?: number): string {
  const lines = screen.replace(/\n$/, '').split('\n');
  const fit = (l: string) => (columns !== undefined && columns > 0 && l.length > columns ? l.slice(0, columns) : l);
  return `\x1b[H${lines.map((l) => `${fit(l)}\x1b[K`).join('\n')}\n\x1b[J`;
}
