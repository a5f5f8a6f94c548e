/**
 * A tailor model's state as bytes, and a model restored from them: so a restarted recommender
 * resumes where it stopped (decision 0261) instead of re-reading the whole history, held CPU and
 * memory targets included (a restart publishes what the model would have published).
 *
 * What is saved: every number, boolean, typed array and array of numbers the model's objects hold
 * (TailorModel, CpuTarget, MemoryTarget, their histograms, windows and held targets), found by
 * walking the objects in their fields' order. Settings (`o`, `options`) and what the models of a
 * strategy share (`result`, `halfLivesMs`) are not state and are skipped. Walking the objects
 * rather than listing fields means a field added to any part is saved without a change here; the
 * shape (every field's path and kind) is hashed into the header, so a state from a build whose
 * model has other fields is refused (a restart then reads the history, as before).
 *
 * Format (little-endian): "TLMS", format version (1 byte), 3 bytes 0, shape hash (u32), settings
 * hash (u32), then the values in walk order (number: f64; boolean: u8; typed array: u32 length +
 * its bytes; array: u32 length + f64 each), then a CRC-32 of everything before it. Worked number:
 * a model after 8 days of 1-minute samples holds ~2.2 KB (bench/model-bytes.ts prints it).
 */
import type { TailorSettings } from './experiments.ts';

export const MODEL_STATE_FORMAT = 1;
const MAGIC = [0x54, 0x4c, 0x4d, 0x53]; // "TLMS"
/** Fields that are settings or shared by every model of a strategy, not state. */
const SKIPPED = new Set(['o', 'options', 'result', 'halfLivesMs']);

/** A state that cannot be restored: corrupt, from another format, model shape or settings. */
export class ModelStateError extends Error {
  override readonly name = 'ModelStateError';
}

type TypedArray = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Uint8Array;
const TYPED: Record<string, new (buffer: ArrayBuffer) => TypedArray> = {
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Uint8Array,
};

/** One field of the walk: where it lives and its kind. */
interface Field {
  holder: Record<string, unknown>;
  key: string;
  kind: string;
}

/** The model's fields in walk order (each object once, aliases skipped), and its shape string. */
function fieldsOf(root: object): { fields: Field[]; shape: string } {
  const fields: Field[] = [];
  const seen = new Set<object>();
  const parts: string[] = [];
  const visit = (object: Record<string, unknown>, path: string): void => {
    seen.add(object);
    for (const key of Object.keys(object)) {
      if (SKIPPED.has(key)) continue;
      const value = object[key];
      const kind = kindOf(value);
      if (kind === 'function' || (kind === 'object' && seen.has(value as object))) continue;
      parts.push(`${path}.${key}:${kind}`);
      if (kind === 'object') visit(value as Record<string, unknown>, `${path}.${key}`);
      else fields.push({ holder: object, key, kind });
    }
  };
  visit(root as Record<string, unknown>, (root as object).constructor.name);
  return { fields, shape: parts.join('\n') };
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'function') return 'function';
  if (ArrayBuffer.isView(value)) {
    const name = value.constructor.name;
    if (!(name in TYPED)) throw new ModelStateError(`a ${name} cannot be saved`);
    return name;
  }
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  throw new ModelStateError(`a ${typeof value} cannot be saved`);
}

/** Hash of the settings (every option, research knob and rule of the updater; Infinity and NaN included). */
function settingsHash(options: TailorSettings): number {
  return crc32(new TextEncoder().encode(settingsText(options as unknown as Record<string, unknown>)));
}

/** `settings` as text, keys sorted; a nested object (the updater's rules) as its own text. */
function settingsText(settings: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(settings)
      .sort()
      .map((k) => {
        const value = settings[k];
        return [k, value !== null && typeof value === 'object' && !Array.isArray(value) ? settingsText(value as Record<string, unknown>) : String(value)];
      }),
  );
}

/** The bytes of `model`'s state (built with `options`). */
export function saveModelState(model: object, options: TailorSettings): Uint8Array {
  const { fields, shape } = fieldsOf(model);
  const out = new Writer();
  for (const b of MAGIC) out.u8(b);
  out.u8(MODEL_STATE_FORMAT);
  out.u8(0);
  out.u8(0);
  out.u8(0);
  out.u32(crc32(new TextEncoder().encode(shape)));
  out.u32(settingsHash(options));
  for (const { holder, key, kind } of fields) {
    const value = holder[key];
    if (kind === 'number') out.f64(value as number);
    else if (kind === 'boolean') out.u8(value ? 1 : 0);
    else if (kind === 'array') {
      const array = value as unknown[];
      out.u32(array.length);
      for (const item of array) {
        if (typeof item !== 'number') throw new ModelStateError(`${key} holds a ${typeof item}; only numbers can be saved`);
        out.f64(item);
      }
    } else if (kind in TYPED) {
      const array = value as TypedArray;
      out.u32(array.length);
      out.bytes(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    }
  }
  out.u32(crc32(out.view()));
  return out.view().slice();
}

/**
 * `model` (fresh from the strategy: built with `options`) given the state in `bytes`. Throws
 * {@link ModelStateError} saying why for a state that is corrupt, truncated, of another format, or
 * saved by a model of another shape or with other settings; the model is then half-restored: drop it.
 */
export function restoreModelState<M extends object>(bytes: Uint8Array, model: M, options: TailorSettings): M {
  if (bytes.length < 20) throw new ModelStateError(`${bytes.length} bytes are too few for a model state`);
  const body = bytes.subarray(0, bytes.length - 4);
  const stored = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(0, true);
  if (crc32(body) !== stored) throw new ModelStateError('the checksum does not match: the state is corrupt');
  const input = new Reader(body);
  for (const b of MAGIC) if (input.u8() !== b) throw new ModelStateError('not a tailor model state');
  const format = input.u8();
  if (format !== MODEL_STATE_FORMAT) throw new ModelStateError(`format ${format}; this build reads format ${MODEL_STATE_FORMAT}`);
  input.skip(3);
  const { fields, shape } = fieldsOf(model);
  if (input.u32() !== crc32(new TextEncoder().encode(shape))) throw new ModelStateError('saved by a model with other fields (another version of Tailor)');
  if (input.u32() !== settingsHash(options)) throw new ModelStateError('saved with other tailor settings');
  const values: unknown[] = fields.map(({ kind }) => {
    if (kind === 'number') return input.f64();
    if (kind === 'boolean') return input.u8() === 1;
    if (kind === 'array') return Array.from({ length: input.u32() }, () => input.f64());
    if (kind in TYPED) {
      const Type = TYPED[kind]!;
      const length = input.u32();
      const size = (new Type(new ArrayBuffer(0)) as TypedArray).BYTES_PER_ELEMENT;
      return new Type(input.bytes(length * size).slice().buffer);
    }
    return undefined;
  });
  if (!input.done) throw new ModelStateError(`${input.left} bytes left over`);
  // Typed arrays of parts with their own checks go through them (a store that does not fit is refused).
  fields.forEach(({ holder, key, kind }, i) => {
    if (kind === 'undefined' || kind === 'null') return;
    const value = values[i];
    const restore = (holder as { restoreField?: (key: string, value: unknown) => void }).restoreField;
    try {
      if (restore) restore.call(holder, key, value);
      else holder[key] = value;
    } catch (err) {
      throw new ModelStateError(`${holder.constructor.name}.${key}: ${(err as Error).message}`, { cause: err });
    }
  });
  return model;
}

class Writer {
  private buffer = new Uint8Array(4096);
  private data = new DataView(this.buffer.buffer);
  private at = 0;

  private room(n: number): void {
    if (this.at + n <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(2 * this.buffer.length, this.at + n));
    grown.set(this.buffer);
    this.buffer = grown;
    this.data = new DataView(grown.buffer);
  }

  u8(v: number): void {
    this.room(1);
    this.data.setUint8(this.at++, v);
  }

  u32(v: number): void {
    this.room(4);
    this.data.setUint32(this.at, v, true);
    this.at += 4;
  }

  f64(v: number): void {
    this.room(8);
    this.data.setFloat64(this.at, v, true);
    this.at += 8;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buffer.set(b, this.at);
    this.at += b.length;
  }

  view(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }
}

class Reader {
  private readonly data: DataView;
  private at = 0;

  constructor(private readonly buffer: Uint8Array) {
    this.data = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  private need(n: number): void {
    if (this.at + n > this.buffer.length) throw new ModelStateError('the state is truncated');
  }

  get done(): boolean {
    return this.at === this.buffer.length;
  }

  get left(): number {
    return this.buffer.length - this.at;
  }

  skip(n: number): void {
    this.need(n);
    this.at += n;
  }

  u8(): number {
    this.need(1);
    return this.data.getUint8(this.at++);
  }

  u32(): number {
    this.need(4);
    const v = this.data.getUint32(this.at, true);
    this.at += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.data.getFloat64(this.at, true);
    this.at += 8;
    return v;
  }

  bytes(n: number): Uint8Array {
    this.need(n);
    const b = this.buffer.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }
}

/** CRC-32 (IEEE), for the checksum and the hashes. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
