/**
 * Usage traces in the replay CSV format `timestamp,container,cpu_cores,memory_bytes` (header
 * required; timestamp as RFC 3339 or Unix seconds/milliseconds). A trace is replayed relative to
 * its first timestamp and loops: with rows at 0s, 60s and 120s the span is 180s (the last row
 * lasts one interval), so at simulated offset 200s the row at 0s applies again (200 mod 180 = 20).
 */
import { UsagePatternError } from './usage-pattern.ts';

export interface TraceRow {
  offsetMs: number;
  cpuMillicores: number;
  memoryBytes: number;
}

export interface UsageTrace {
  /** Rows per container name, sorted by offset. */
  containers: Map<string, TraceRow[]>;
  spanMs: number;
}

const HEADER = ['timestamp', 'container', 'cpu_cores', 'memory_bytes'];

function parseTimestamp(text: string, line: number): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) {
    const n = Number(t);
    return n > 1e11 ? n : n * 1000;
  }
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) throw new UsagePatternError(`trace line ${line}: ${JSON.stringify(text)} is not a timestamp (RFC 3339 or Unix seconds)`);
  return ms;
}

/** Parses a trace CSV; errors name the line. */
export function parseUsageTrace(text: string): UsageTrace {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0 && !l.startsWith('#'));
  const header = lines
    .shift()
    ?.split(',')
    .map((h) => h.trim());
  if (!header || HEADER.some((h, i) => header[i] !== h)) {
    throw new UsagePatternError(`trace must start with the header ${HEADER.join(',')}, got ${JSON.stringify(header?.join(',') ?? '')}`);
  }
  const raw: Array<{ at: number; container: string; cpu: number; memory: number }> = [];
  lines.forEach((l, i) => {
    const cells = l.split(',').map((c) => c.trim());
    const line = i + 2;
    if (cells.length !== 4) throw new UsagePatternError(`trace line ${line}: expected 4 columns, got ${cells.length}`);
    const cpu = Number(cells[2]);
    const memory = Number(cells[3]);
    if (!Number.isFinite(cpu) || cpu < 0) throw new UsagePatternError(`trace line ${line}: cpu_cores ${JSON.stringify(cells[2])} is not a non-negative number`);
    if (!Number.isFinite(memory) || memory < 0)
      throw new UsagePatternError(`trace line ${line}: memory_bytes ${JSON.stringify(cells[3])} is not a non-negative number`);
    raw.push({ at: parseTimestamp(cells[0]!, line), container: cells[1]!, cpu, memory });
  });
  if (raw.length === 0) throw new UsagePatternError('trace has no rows');
  const first = Math.min(...raw.map((r) => r.at));
  const last = Math.max(...raw.map((r) => r.at));
  const containers = new Map<string, TraceRow[]>();
  for (const r of raw) {
    const rows = containers.get(r.container) ?? [];
    rows.push({ offsetMs: r.at - first, cpuMillicores: r.cpu * 1000, memoryBytes: r.memory });
    containers.set(r.container, rows);
  }
  let interval = 60_000;
  for (const rows of containers.values()) {
    rows.sort((a, b) => a.offsetMs - b.offsetMs);
    if (rows.length >= 2) interval = Math.min(interval, rows[rows.length - 1]!.offsetMs - rows[rows.length - 2]!.offsetMs || interval);
  }
  return { containers, spanMs: last - first + interval };
}

/** The row in force at `offsetMs` after the trace start (looping); undefined for an unknown container. */
export function traceRowAt(trace: UsageTrace, container: string, offsetMs: number): TraceRow | undefined {
  const rows = trace.containers.get(container);
  if (!rows || rows.length === 0) return undefined;
  const t = ((offsetMs % trace.spanMs) + trace.spanMs) % trace.spanMs;
  let lo = 0;
  let hi = rows.length - 1;
  if (t < rows[0]!.offsetMs) return rows[rows.length - 1];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (rows[mid]!.offsetMs <= t) lo = mid;
    else hi = mid - 1;
  }
  return rows[lo];
}
