/**
 * The demo's terminal view, pure: the pod table (cli-table3), the action log lines and the
 * closing summary. On a terminal the shell redraws {@link renderScreen} in place; elsewhere it
 * appends {@link formatActivity} lines as they happen and prints the table once at the end.
 */
import Table from 'cli-table3';
import type { Activity, ActivityKind } from './activity.ts';
import { countByKind } from './activity.ts';
import type { PodRow } from './demo-snapshot.ts';

/** The table of pods with their requests and recommendations. */
export function renderTable(rows: readonly PodRow[]): string {
  const table = new Table({
    head: ['workload', 'pod', 'node', 'state', 'restarts', 'cpu req', 'cpu target [lower, upper]', 'mem req', 'mem target [lower, upper]'],
    style: { head: [], border: [] },
  });
  for (const r of rows) table.push([r.workload, r.pod, r.node, r.state, String(r.restarts), r.cpu, r.cpuRecommendation, r.memory, r.memoryRecommendation]);
  return table.toString();
}

/** Seconds since the start: `+75s`. */
export function elapsed(at: number, startedAt: number): string {
  return `+${Math.max(0, Math.round((at - startedAt) / 1000))}s`;
}

/** One log line: `+12s  in-place        web     web-6d4-x: ResizedInPlace: ...`. */
export function formatActivity(a: Activity, startedAt: number): string {
  return `${elapsed(a.at, startedAt).padStart(6)}  ${a.kind.padEnd(14)}  ${a.subject.padEnd(8)}  ${a.text}`;
}

const SUMMARY_ORDER: readonly [ActivityKind, string][] = [
  ['recommendation', 'recommendations'],
  ['in-place', 'in-place resizes'],
  ['restart', 'restarting resizes'],
  ['infeasible', 'infeasible resizes'],
  ['fallback', 'fallback evictions'],
  ['eviction', 'evictions'],
  ['admitted', 'pods admitted with the recommendation'],
  ['oom', 'OOM kills'],
  ['scale-up', 'nodes added'],
  ['refused', 'refused or failed actions'],
];

/** `summary: 4 recommendations, 3 in-place resizes, ...` (every kind, zeros included). */
export function renderSummary(log: readonly Activity[]): string {
  const counts = countByKind(log);
  return `summary: ${SUMMARY_ORDER.map(([k, label]) => `${counts[k]} ${label}`).join(', ')}`;
}

export interface Screen {
  /** Lines above the table (where things are, how long it runs). */
  header: readonly string[];
  rows: readonly PodRow[];
  log: readonly Activity[];
  startedAt: number;
  /** How many of the latest log lines to show. */
  logLines: number;
}

/** The whole screen for a terminal (redrawn in place). */
export function renderScreen(s: Screen): string {
  const latest = s.log.slice(-s.logLines).map((a) => formatActivity(a, s.startedAt));
  return [...s.header, '', renderTable(s.rows), '', 'actions (newest last):', ...(latest.length > 0 ? latest : ['  (waiting for the first recommendations)']), ''].join('\n');
}
