/**
 * Splits a Prometheus range-query answer, as its bytes arrive, into its series: each element of
 * `data.result` is handed over as soon as its closing brace arrives (parsed with `JSON.parse`, one
 * series at a time), and is never part of a whole-answer string or tree. Everything else (status,
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
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
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
          this.element.push(chunk.subarray(this.elementStart, i + 1));
          this.elementStart = -1;
          this.emit();
        } else if (wasResult) skeletonFrom = i; // keep the ']' and what follows
      }
    }
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

  /** root object > object > array: the position of `data.result`'s elements. */
  private inResultArray(): boolean {
    const s = this.stack;
    return s.length === 3 && s[0] === OPEN_OBJECT && s[1] === OPEN_OBJECT && s[2] === OPEN_ARRAY;
  }

  private emit(): void {
    const bytes = this.element.length === 1 ? this.element[0]! : Buffer.concat(this.element);
    this.element = [];
    this.onSeries(JSON.parse(bytes.toString('utf8')) as unknown);
  }
}
