/**
 * Streaming reader for usage traces: CSV with the header `timestamp,container,cpu_cores,memory_bytes`
 * (Unix seconds; one row per container per sample; `memory_bytes` may be empty), plain or
 * gzip-compressed (recognised by its first bytes, whatever the file is called). It scans the bytes
 * of each chunk as they arrive: no string per row or field (numbers are parsed from bytes, names
 * matched by bytes), so a file of any size needs memory only for its samples (24 bytes each).
 *
 * Rows come as monitoring data does: in any order, with duplicates, jitter, faster sampling and
 * gaps. Each container is resampled to its step (resample.ts) and the trace says what that changed
 * (`Trace.resampling`). A row with no CPU value (`NaN` or empty) is skipped and counted. What cannot
 * be used stops the read with a TraceFormatError naming the line and why: a wrong header, a
 * malformed row, a negative value, binary data, a file with no rows.
 */
import { open } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Trace } from './trace.ts';
import { TraceFormatError, TraceReadError } from './trace-errors.ts';
import { parseDecimal } from './decimal-bytes.ts';
import { SeriesByName } from './series-by-name.ts';
import { addCounts, emptyCounts } from './resample.ts';

/** The only header accepted. */
export const TRACE_HEADER = 'timestamp,container,cpu_cores,memory_bytes';

/** Longest line accepted, bytes: a longer one means the file is not a CSV trace. */
export const MAX_LINE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses rows one at a time; keeps the line count and the series. */
class RowParser {
  private readonly source: string;
  private readonly series = new SeriesByName();
  private lineNumber = 0;
  private sawHeader = false;
  private skipped = 0;

  constructor(source: string) {
    this.source = source;
  }

  get line(): number {
    return this.lineNumber;
  }

  /** Parses the line in `bytes[start, end)` (without its newline). */
  parse(bytes: Uint8Array, start: number, end: number): void {
    this.lineNumber++;
    if (end > start && bytes[end - 1] === CR) end--;
    if (!this.sawHeader) {
      this.header(bytes, start, end);
      return;
    }
    if (isBlank(bytes, start, end)) return;
    const c1 = indexOf(bytes, COMMA, start, end);
    const c2 = c1 < 0 ? -1 : indexOf(bytes, COMMA, c1 + 1, end);
    const c3 = c2 < 0 ? -1 : indexOf(bytes, COMMA, c2 + 1, end);
    if (c3 < 0 || indexOf(bytes, COMMA, c3 + 1, end) >= 0) this.fail('expected 4 comma-separated fields');
    const timestamp = parseDecimal(bytes, start, c1);
    if (!Number.isFinite(timestamp) || timestamp < 0) {
      this.fail(`timestamp ${quote(bytes, start, c1)} is not a Unix time in seconds`);
    }
    if (c2 === c1 + 1) this.fail('container name is empty');
    if (isMissing(bytes, c2 + 1, c3)) {
      // No CPU value (e.g. a NaN from a PromQL division): nothing to replay at this time.
      this.skipped++;
      return;
    }
    const cpu = parseDecimal(bytes, c2 + 1, c3);
    if (!Number.isFinite(cpu) || cpu < 0) this.fail(`cpu_cores ${quote(bytes, c2 + 1, c3)} is not a non-negative number`);
    const memory = isMissing(bytes, c3 + 1, end) ? NaN : parseDecimal(bytes, c3 + 1, end);
    if (memory < 0 || memory === Infinity || (Number.isNaN(memory) && !isMissing(bytes, c3 + 1, end))) {
      this.fail(`memory_bytes ${quote(bytes, c3 + 1, end)} is not a non-negative number`);
    }
    this.series.get(bytes, c1 + 1, c2).push(timestamp, cpu, memory);
  }

  finish(): Trace {
    if (!this.sawHeader) throw new TraceFormatError(this.source, 1, 'the trace is empty (no header)');
    const counts = emptyCounts();
    counts.skipped = this.skipped;
    counts.rows = this.skipped;
    const containers = this.series.builders().map((raw) => {
      const { series, counts: c } = raw.resample();
      addCounts(counts, c);
      return series;
    });
    if (containers.length === 0) {
      const why = this.skipped > 0 ? `all ${this.skipped} rows have no CPU value` : 'it has a header but no samples';
      throw new TraceFormatError(this.source, this.lineNumber, `nothing to replay: ${why}`);
    }
    return { containers, resampling: counts };
  }

  /** Fails when the line is too long to be a row of a trace (called before its end is seen). */
  tooLong(): never {
    throw new TraceFormatError(this.source, this.lineNumber + 1, `line longer than ${MAX_LINE_BYTES} bytes: not a CSV trace`);
  }

  private header(bytes: Uint8Array, start: number, end: number): void {
    // A UTF-8 byte order mark (as spreadsheet exports write) is not part of the header.
    if (end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
    if (!isText(bytes, start, end)) {
      this.fail(`not a CSV trace: the first line is binary data, not the header "${TRACE_HEADER}"`);
    }
    const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
    if (text.trim() !== TRACE_HEADER) this.fail(`expected the header "${TRACE_HEADER}", got ${quote(bytes, start, end, 80)}`);
    this.sawHeader = true;
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

/** True when the field is empty or `NaN`: no value. */
function isMissing(bytes: Uint8Array, start: number, end: number): boolean {
  if (start >= end) return true;
  if (end - start !== 3) return false;
  return (bytes[start]! | 0x20) === 0x6e && (bytes[start + 1]! | 0x20) === 0x61 && (bytes[start + 2]! | 0x20) === 0x6e;
}

/** True for valid UTF-8 without control characters other than tab. */
function isText(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return false;
  }
  try {
    utf8.decode(bytes.subarray(start, end));
    return true;
  } catch {
    return false;
  }
}

/**
 * A field quoted for an error message: at most `max` characters, control and undecodable
 * characters shown as "?", so an error never echoes binary data.
 */
function quote(bytes: Uint8Array, start: number, end: number, max = 40): string {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, end - start)).toString('utf8');
  // eslint-disable-next-line no-control-regex
  const clean = raw.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\ufffd]/g, '?');
  return JSON.stringify(clean.length > max ? `${clean.slice(0, max)}…` : clean);
}

/**
 * Reads a trace from a stream of CSV bytes (or text). `source` names it in error messages.
 * Containers may interleave; see the file comment for what is merged, skipped or refused.
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
      if (i - start > MAX_LINE_BYTES) parser.tooLong();
      parser.parse(bytes, start, i);
      start = i + 1;
    }
    if (bytes.length - start > MAX_LINE_BYTES) parser.tooLong();
    if (start < bytes.length) carry = Buffer.from(bytes.subarray(start));
  }
  if (carry !== undefined) parser.parse(carry, 0, carry.length);
  return parser.finish();
}

/** True when the bytes start like a gzip stream. */
function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** Reads a trace file from disk (streamed), plain or gzip-compressed. */
export async function readTraceFile(path: string): Promise<Trace> {
  let handle;
  let gzip: boolean;
  try {
    handle = await open(path);
    const head = new Uint8Array(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    gzip = bytesRead === 2 && isGzip(head);
  } catch (err) {
    await handle?.close();
    throw new TraceReadError(`cannot read trace ${path}: ${(err as Error).message}`, { cause: err });
  }
  const file = handle.createReadStream({ start: 0 });
  const input: Readable = gzip ? pipeline(file, createGunzip(), () => {}) : file;
  try {
    return await readTrace(input, path);
  } catch (err) {
    if (err instanceof TraceFormatError) throw err;
    const what = gzip ? 'cannot decompress trace' : 'cannot read trace';
    throw new TraceReadError(`${what} ${path}: ${(err as Error).message}`, { cause: err });
  } finally {
    input.destroy();
    file.destroy();
  }
}
