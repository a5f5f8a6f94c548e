/**
 * Streaming reader for usage traces: CSV with the header `timestamp,container,cpu_cores,memory_bytes`
 * (Unix seconds; one row per container per sample; `memory_bytes` may be empty). Reads line by line,
 * so a file of any size needs memory only for its samples (about 20 bytes each), never its text.
 * Any malformed row stops the read with a TraceFormatError naming the line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { SeriesBuilder, type Trace } from './trace.ts';
import { TraceFormatError, TraceReadError } from './trace-errors.ts';

/** The only header accepted. */
export const TRACE_HEADER = 'timestamp,container,cpu_cores,memory_bytes';

/** Shortest sampling interval accepted, seconds (the format allows 10 s to 5 min). */
export const MIN_INTERVAL_SECONDS = 10;

/** Parses a number field strictly: empty, `1abc`, `Infinity` and hex are rejected. */
function parseField(text: string): number {
  if (text.length === 0 || text.charCodeAt(0) === 48 /* 0 */ && (text[1] === 'x' || text[1] === 'X')) return NaN;
  return Number(text);
}

/**
 * Reads a trace from a stream of CSV text. `source` names it in error messages.
 * Rows of one container must come in increasing time order, at least 10 s apart; containers may
 * interleave. Blank lines are ignored.
 */
export async function readTrace(input: Readable, source: string): Promise<Trace> {
  const builders = new Map<string, SeriesBuilder>();
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  let sawHeader = false;
  try {
    for await (const raw of lines) {
      lineNumber++;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (!sawHeader) {
        if (line.trim() !== TRACE_HEADER) {
          throw new TraceFormatError(source, lineNumber, `expected the header "${TRACE_HEADER}", got "${line.slice(0, 80)}"`);
        }
        sawHeader = true;
        continue;
      }
      if (line.trim().length === 0) continue;
      const c1 = line.indexOf(',');
      const c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
      const c3 = c2 < 0 ? -1 : line.indexOf(',', c2 + 1);
      if (c3 < 0 || line.indexOf(',', c3 + 1) >= 0) {
        throw new TraceFormatError(source, lineNumber, 'expected 4 comma-separated fields');
      }
      const timestamp = parseField(line.slice(0, c1));
      const container = line.slice(c1 + 1, c2);
      const cpu = parseField(line.slice(c2 + 1, c3));
      const memoryText = line.slice(c3 + 1);
      const memory = memoryText.length === 0 ? NaN : parseField(memoryText);
      if (!Number.isFinite(timestamp) || timestamp < 0) {
        throw new TraceFormatError(source, lineNumber, `timestamp "${line.slice(0, c1)}" is not a Unix time in seconds`);
      }
      if (container.length === 0) throw new TraceFormatError(source, lineNumber, 'container name is empty');
      if (!Number.isFinite(cpu) || cpu < 0) {
        throw new TraceFormatError(source, lineNumber, `cpu_cores "${line.slice(c2 + 1, c3)}" is not a non-negative number`);
      }
      if (memoryText.length > 0 && (!Number.isFinite(memory) || memory < 0)) {
        throw new TraceFormatError(source, lineNumber, `memory_bytes "${memoryText}" is not a non-negative number`);
      }
      let builder = builders.get(container);
      if (builder === undefined) {
        builder = new SeriesBuilder(container);
        builders.set(container, builder);
      }
      const gap = timestamp - builder.lastTime;
      if (gap <= 0) {
        throw new TraceFormatError(source, lineNumber, `time ${timestamp} of ${container} is not after its previous sample`);
      }
      if (gap < MIN_INTERVAL_SECONDS) {
        throw new TraceFormatError(source, lineNumber, `samples of ${container} are ${gap} s apart; the minimum interval is ${MIN_INTERVAL_SECONDS} s`);
      }
      builder.push(timestamp, cpu, memory);
    }
  } finally {
    lines.close();
  }
  if (!sawHeader) throw new TraceFormatError(source, 1, 'the trace is empty (no header)');
  return { containers: [...builders.values()].map((b) => b.build()) };
}

/** Reads a trace file from disk (streamed). */
export async function readTraceFile(path: string): Promise<Trace> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('ready', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (err) {
    throw new TraceReadError(`cannot read trace ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return await readTrace(stream, path);
  } finally {
    stream.destroy();
  }
}
