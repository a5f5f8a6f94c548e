/**
 * Splits a Prometheus range-query answer, as its bytes arrive, into its series: each element of
 * `data.result` is handed over once the chunk holding its closing brace is scanned (the chunk's
 * whole series parsed with one `JSON.parse`, a series begun in an earlier chunk alone), and is
 * never part of a whole-answer string or tree. Everything else (status,
 * resultType, warnings, error) is kept as a small "skeleton" document whose `result` is empty.
 *
 * Why not a streaming JSON library: `@streamparser/json` decoded an 8 MB matrix 4.4x slower than
 * `JSON.parse` here (decision 0224); only the series boundaries need finding, and structural
 * characters are ASCII, so bytes are scanned directly (UTF-8 continuation bytes are >= 0x80).
 *
 * A series is an object opening at depth 3 inside root object > object > array, which in the API's
 * answers is `data.result[i]` and nothing else (`warnings` is an array of strings at depth 1).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

export class MatrixStreamSplitter {
  /** Container kinds from the root down: '{' or '['. */
  private readonly stack: number[] = [];
  private inString = false;
  private escaped = false;
  /** Bytes outside the series elements (and outside the commas between them). */
  private readonly skeleton: Buffer[] = [];
  /** Parts of the series element being read (it may span chunks), and where it started in the chunk. */
  private element: Buffer[] = [];
  private elementStart = -1;

  constructor(private readonly onSeries: (item: unknown) => void) {}

  /** Feeds the next chunk of the answer's bytes. */
  write(chunk: Buffer): void {
    const stack = this.stack;
    let skeletonFrom = this.inResultArray() || this.elementStart >= 0 || this.element.length > 0 ? -1 : 0;
    if (this.element.length > 0) this.elementStart = 0;
    let batchFrom = -1;
    let batchTo = -1;
    const length = chunk.length;
    // A string begun in an earlier chunk: read on to its closing quote.
    let i = this.inString ? this.stringEnd(chunk, 0) + 1 : 0;
    for (; i < length; i++) {
      const c = chunk[i]!;
      if (c === QUOTE) {
        i = this.stringEnd(chunk, i + 1);
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (c === OPEN_OBJECT && stack.length === 3 && this.inResultArray()) this.elementStart = i;
        stack.push(c);
        // The result array opens: the skeleton keeps its '[' and then skips to its ']'.
        if (this.inResultArray() && skeletonFrom >= 0) {
          this.skeleton.push(Buffer.from(chunk.subarray(skeletonFrom, i + 1)));
          skeletonFrom = -1;
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        const wasResult = this.inResultArray();
        stack.pop();
        if (stack.length === 3 && this.elementStart >= 0 && c === CLOSE_OBJECT) {
          if (this.element.length > 0) {
            // The element began in an earlier chunk: it goes alone, before this chunk's own.
            this.element.push(chunk.subarray(this.elementStart, i + 1));
            this.emit();
          } else {
            // Whole in this chunk: parsed with the chunk's other whole elements in one go, below.
            if (batchFrom < 0) batchFrom = this.elementStart;
            batchTo = i + 1;
          }
          this.elementStart = -1;
        } else if (wasResult) skeletonFrom = i; // keep the ']' and what follows
      }
    }
    // Between whole elements there are only commas (and blanks): one JSON.parse of `[...]` for all
    // of them costs far less than one per element when the series are short (an incremental cycle).
    if (batchFrom >= 0) this.emitAll(chunk, batchFrom, batchTo);
    if (this.elementStart >= 0) {
      // Copy: the chunk's buffer may be reused by the stream once this returns.
      this.element.push(Buffer.from(chunk.subarray(this.elementStart)));
      this.elementStart = -1;
    }
    if (skeletonFrom >= 0) this.skeleton.push(Buffer.from(chunk.subarray(skeletonFrom)));
  }

  /** The answer without its series (`data.result` empty), once every byte was written. */
  end(): unknown {
    if (this.stack.length !== 0 || this.inString || this.element.length > 0) throw new Error('the answer ended in the middle of its JSON');
    return JSON.parse(Buffer.concat(this.skeleton).toString('utf8')) as unknown;
  }

  /**
   * The index of the quote closing the string whose content starts at `from`, or the chunk's
   * length when the string goes on in the next chunk (`inString` and `escaped` then say where the
   * scan stopped). Strings are most of the bytes: a tight loop of their own.
   */
  private stringEnd(chunk: Buffer, from: number): number {
    let escaped = this.inString && this.escaped;
    for (let j = from; j < chunk.length; j++) {
      const d = chunk[j]!;
      if (escaped) escaped = false;
      else if (d === BACKSLASH) escaped = true;
      else if (d === QUOTE) {
        this.inString = false;
        this.escaped = false;
        return j;
      }
    }
    this.inString = true;
    this.escaped = escaped;
    return chunk.length;
  }

  /** root object > object > array: the position of `data.result`'s elements. */
  private inResultArray(): boolean {
    const s = this.stack;
    return s.length === 3 && s[0] === OPEN_OBJECT && s[1] === OPEN_OBJECT && s[2] === OPEN_ARRAY;
  }

  private emitAll(chunk: Buffer, from: number, to: number): void {
    const items = JSON.parse(`[${chunk.toString('utf8', from, to)}]`) as unknown[];
    for (const item of items) this.onSeries(item);
  }

  private emit(): void {
    const bytes = this.element.length === 1 ? this.element[0]! : Buffer.concat(this.element);
    this.element = [];
    this.onSeries(JSON.parse(bytes.toString('utf8')) as unknown);
  }
}
