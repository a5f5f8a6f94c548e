/**
 * Prometheus remote write 1.0 by hand, to get fixture series into Cortex with their own (old)
 * timestamps: a `prometheus.WriteRequest` encoded as protobuf (four messages, so written out here
 * rather than generated) and framed as snappy's block format with literals only (valid snappy that
 * does not compress; Cortex only needs to decode it). Nothing in Tailor writes to a backend; this is
 * test infrastructure for test/cortex.
 *
 *   WriteRequest { repeated TimeSeries timeseries = 1; }
 *   TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
 *   Label        { string name = 1; string value = 2; }
 *   Sample       { double value = 1; int64 timestamp = 2; }   // timestamp in ms
 */
import type { FixtureSeries } from '../support/fixture-series.ts';

class Writer {
  private readonly parts: Buffer[] = [];
  private size = 0;

  private push(b: Buffer): void {
    this.parts.push(b);
    this.size += b.length;
  }
  varint(n: number): this {
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`varint out of range: ${n}`);
    const bytes: number[] = [];
    let v = BigInt(n);
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      bytes.push(byte);
    } while (v > 0n);
    this.push(Buffer.from(bytes));
    return this;
  }
  tag(field: number, wireType: 0 | 1 | 2): this {
    return this.varint((field << 3) | wireType);
  }
  double(field: number, v: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    this.tag(field, 1).push(b);
    return this;
  }
  int(field: number, v: number): this {
    return this.tag(field, 0).varint(v);
  }
  bytes(field: number, b: Buffer): this {
    this.tag(field, 2).varint(b.length).push(b);
    return this;
  }
  string(field: number, s: string): this {
    return this.bytes(field, Buffer.from(s, 'utf8'));
  }
  done(): Buffer {
    return Buffer.concat(this.parts, this.size);
  }
}

/** One series to write: labels (the metric name as `__name__`) and samples as [ms, value]. */
export interface WriteSeries {
  labels: Record<string, string>;
  samples: ReadonlyArray<readonly [number, number]>;
}

/** The protobuf `WriteRequest`; labels sorted by name, as the remote-write spec demands. */
export function encodeWriteRequest(series: readonly WriteSeries[]): Buffer {
  const request = new Writer();
  for (const s of series) {
    const ts = new Writer();
    const names = Object.keys(s.labels).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) ts.bytes(1, new Writer().string(1, name).string(2, s.labels[name]!).done());
    for (const [t, v] of s.samples) ts.bytes(2, new Writer().double(1, v).int(2, t).done());
    request.bytes(1, ts.done());
  }
  return request.done();
}

/** Snappy block format, literals only: the length as a varint, then literals of at most 64 KiB. */
export function snappyLiterals(data: Buffer): Buffer {
  const out: Buffer[] = [new Writer().varint(data.length).done()];
  for (let at = 0; at < data.length; at += 65_536) {
    const chunk = data.subarray(at, at + 65_536);
    const n = chunk.length - 1;
    // Tag byte: (len-1) << 2 below 60; else 60 (one length byte) or 61 (two, little-endian).
    if (n < 60) out.push(Buffer.from([n << 2]));
    else if (n < 256) out.push(Buffer.from([60 << 2, n]));
    else out.push(Buffer.from([61 << 2, n & 0xff, n >> 8]));
    out.push(chunk);
  }
  return Buffer.concat(out);
}

/**
 * The fixture as write requests in time order: each request holds every series' samples of one
 * window (`windowMs`), so the head of Cortex's TSDB only ever moves forward. A window must stay
 * under half the TSDB block range (1 h of the default 2 h): the ingester refuses a sample older
 * than its head's newest minus that, and appends a request series by series.
 */
export function* writeRequestsInTimeOrder(series: readonly FixtureSeries[], windowMs: number): Generator<Buffer> {
  const sorted = series.map((s) => ({ labels: { ...s.labels, __name__: s.metric }, samples: [...s.samples].sort((a, b) => a[0] - b[0]), next: 0 }));
  const times = sorted.flatMap((s) => [s.samples[0]?.[0] ?? Infinity, s.samples.at(-1)?.[0] ?? -Infinity]);
  const [min, max] = [Math.min(...times), Math.max(...times)];
  for (let from = Math.floor(min / windowMs) * windowMs; from <= max; from += windowMs) {
    const window: WriteSeries[] = [];
    for (const s of sorted) {
      const start = s.next;
      while (s.next < s.samples.length && s.samples[s.next]![0] < from + windowMs) s.next++;
      if (s.next > start) window.push({ labels: s.labels, samples: s.samples.slice(start, s.next) });
    }
    if (window.length > 0) yield snappyLiterals(encodeWriteRequest(window));
  }
}
