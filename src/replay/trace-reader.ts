/**
 * Streaming reader for usage traces: CSV with the header `timestamp,container,cpu_cores,memory_bytes`
 * (Unix seconds; one row per container per sample; `memory_bytes` may be empty). It scans the bytes
 * of each chunk as they arrive: no string per row or field (numbers are parsed from bytes, names
 * matched by bytes), so a file of any size needs memory only for its samples (about 20 bytes each).
 * Any malformed row stops the read with a TraceFormatError naming the line.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Trace } from './trace.ts';
import { TraceFormatError, TraceReadError } from './trace-errors.ts';
import { parseDecimal } from './decimal-bytes.ts';
import { SeriesByName } from './series-by-name.ts';

/** The only header accepted. */
export const TRACE_HEADER = 'timestamp,container,cpu_cores,memory_bytes';

/** Shortest sampling interval accepted, seconds (the format allows 10 s to 5 min). */
export const MIN_INTERVAL_SECONDS = 10;

const NEWLINE = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;

/** Parses rows one at a time; keeps the line count and the series. */
class RowParser {
  private readonly source: string;
  private readonly series = new SeriesByName();
  private lineNumber = 0;
  private sawHeader = false;

  constructor(source: string) {
    this.source = source;
  }

  /** Parses the line in `bytes[start, end)` (without its newline). */
  line(bytes: Uint8Array, start: number, end: number): void {
    this.lineNumber++;
    if (end > start && bytes[end - 1] === CR) end--;
    if (!this.sawHeader) {
      const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
      if (text.trim() !== TRACE_HEADER) this.fail(`expected the header "${TRACE_HEADER}", got "${text.slice(0, 80)}"`);
      this.sawHeader = true;
      return;
    }
    if (isBlank(bytes, start, end)) return;
    const c1 = indexOf(bytes, COMMA, start, end);
    const c2 = c1 < 0 ? -1 : indexOf(bytes, COMMA, c1 + 1, end);
    const c3 = c2 < 0 ? -1 : indexOf(bytes, COMMA, c2 + 1, end);
    if (c3 < 0 || indexOf(bytes, COMMA, c3 + 1, end) >= 0) this.fail('expected 4 comma-separated fields');
    const timestamp = parseDecimal(bytes, start, c1);
    const cpu = parseDecimal(bytes, c2 + 1, c3);
    const hasMemory = end > c3 + 1;
    const memory = hasMemory ? parseDecimal(bytes, c3 + 1, end) : NaN;
    if (!Number.isFinite(timestamp) || timestamp < 0) {
      this.fail(`timestamp "${text(bytes, start, c1)}" is not a Unix time in seconds`);
    }
    if (c2 === c1 + 1) this.fail('container name is empty');
    if (!Number.isFinite(cpu) || cpu < 0) this.fail(`cpu_cores "${text(bytes, c2 + 1, c3)}" is not a non-negative number`);
    if (hasMemory && (!Number.isFinite(memory) || memory < 0)) {
      this.fail(`memory_bytes "${text(bytes, c3 + 1, end)}" is not a non-negative number`);
    }
    const builder = this.series.get(bytes, c1 + 1, c2);
    const gap = timestamp - builder.lastTime;
    if (gap <= 0) this.fail(`time ${timestamp} of ${builder.name} is not after its previous sample`);
    if (gap < MIN_INTERVAL_SECONDS) {
      this.fail(`samples of ${builder.name} are ${gap} s apart; the minimum interval is ${MIN_INTERVAL_SECONDS} s`);
    }
    builder.push(timestamp, cpu, memory);
  }

  finish(): Trace {
    if (!this.sawHeader) throw new TraceFormatError(this.source, 1, 'the trace is empty (no header)');
    return { containers: this.series.builders().map((b) => b.build()) };
  }

  private fail(problem: string): never {
    throw new TraceFormatError(this.source, this.lineNumber, problem);
  }
}

function indexOf(bytes: Uint8Array, value: number, from: number, end: number): number {
  for (let i = from; i < end; i++) if (bytes[i] === value) return i;
  return -1;
}

function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/** A field's text, for error messages only. */
function text(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, end - start)).toString('utf8');
}

/**
 * Reads a trace from a stream of CSV bytes (or text). `source` names it in error messages.
 * Rows of one container must come in increasing time order, at least 10 s apart; containers may
 * interleave. Blank lines are ignored.
 */
export async function readTrace(input: Readable, source: string): Promise<Trace> {
  const parser = new RowParser(source);
  let carry: Buffer | undefined;
  for await (const chunk of input) {
    let bytes: Buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
    if (carry !== undefined) {
      bytes = Buffer.concat([carry, bytes]);
      carry = undefined;
    }
    let start = 0;
    for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, start)) {
      parser.line(bytes, start, i);
      start = i + 1;
    }
    if (start < bytes.length) carry = Buffer.from(bytes.subarray(start));
  }
  if (carry !== undefined) parser.line(carry, 0, carry.length);
  return parser.finish();
}

/** Reads a trace file from disk (streamed). */
export async function readTraceFile(path: string): Promise<Trace> {
  const stream = createReadStream(path);
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
