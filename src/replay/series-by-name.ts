/**
 * Finds a container's series builder from the name's bytes in a CSV row, without decoding a string
 * per row: names are hashed (FNV-1a) and compared byte for byte; a name is decoded once, when its
 * container is first seen. The previous row's container is checked first (files grouped by
 * container hit it every time).
 */
import { RawSeries } from './resample.ts';

interface Entry {
  bytes: Buffer;
  builder: RawSeries;
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] ?? 0), 0x01000193);
  return h >>> 0;
}

function sameBytes(a: Buffer, bytes: Uint8Array, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== bytes[start + i]) return false;
  return true;
}

export class SeriesByName {
  private readonly byHash = new Map<number, Entry[]>();
  private readonly order: RawSeries[] = [];
  private last: Entry | undefined;

  /** The builder for the name in `bytes[start, end)`, created on first sight. */
  get(bytes: Uint8Array, start: number, end: number): RawSeries {
    const last = this.last;
    if (last !== undefined && sameBytes(last.bytes, bytes, start, end)) return last.builder;
    const hash = hashBytes(bytes, start, end);
    let bucket = this.byHash.get(hash);
    if (bucket !== undefined) {
      for (const entry of bucket) {
        if (sameBytes(entry.bytes, bytes, start, end)) {
          this.last = entry;
          return entry.builder;
        }
      }
    } else {
      bucket = [];
      this.byHash.set(hash, bucket);
    }
    const copy = Buffer.from(bytes.subarray(start, end));
    const entry: Entry = { bytes: copy, builder: new RawSeries(copy.toString('utf8')) };
    bucket.push(entry);
    this.order.push(entry.builder);
    this.last = entry;
    return entry.builder;
  }

  /** Every builder, in order of first appearance. */
  builders(): readonly RawSeries[] {
    return this.order;
  }
}
