/**
 * Writes a trace in the CSV format that `readTrace` reads. Rows go out in time order across
 * containers (as a scraper would write them), in chunks, so large traces stream to disk.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { Trace } from './trace.ts';
import { TRACE_HEADER } from './trace-reader.ts';

/** CPU is written with 4 decimals (0.1 millicore), memory as whole bytes. */
function formatRow(time: number, name: string, cpu: number, memory: number): string {
  const memoryText = Number.isNaN(memory) ? '' : String(Math.round(memory));
  return `${time},${name},${Number(cpu.toFixed(4))},${memoryText}\n`;
}

/** Writes `trace` to a writable stream, respecting back-pressure. */
export async function writeTrace(trace: Trace, out: Writable): Promise<void> {
  const cursors = new Int32Array(trace.containers.length);
  let chunk = `${TRACE_HEADER}\n`;
  for (;;) {
    // The earliest pending time across containers; ties go in container order.
    let next = Infinity;
    for (let c = 0; c < trace.containers.length; c++) {
      const s = trace.containers[c];
      const i = cursors[c] ?? 0;
      if (s !== undefined && i < s.length) next = Math.min(next, s.times[i] ?? Infinity);
    }
    if (next === Infinity) break;
    for (let c = 0; c < trace.containers.length; c++) {
      const s = trace.containers[c];
      const i = cursors[c] ?? 0;
      if (s === undefined || i >= s.length || s.times[i] !== next) continue;
      chunk += formatRow(next, s.name, s.cpu[i] ?? 0, s.memory[i] ?? NaN);
      cursors[c] = i + 1;
    }
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  if (chunk.length > 0 && !out.write(chunk)) await once(out, 'drain');
}

/**
 * Writes `trace` to a file. Rejects with the file's error (e.g. ENOENT for a missing folder),
 * which a stream reports as an event: waiting only for 'close' would never settle.
 */
export async function writeTraceFile(trace: Trace, path: string): Promise<void> {
  const out = createWriteStream(path, { encoding: 'utf8' });
  const done = finished(out);
  done.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  try {
    await Promise.race([writeTrace(trace, out), done]);
  } finally {
    out.end();
  }
  await done;
}
