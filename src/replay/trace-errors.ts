/** Errors raised while reading a trace file. */

/** A row of the trace that does not follow the format; `line` is 1-based (the header is line 1). */
export class TraceFormatError extends Error {
  override readonly name = 'TraceFormatError';
  readonly source: string;
  readonly line: number;

  constructor(source: string, line: number, problem: string, options?: ErrorOptions) {
    super(`${source}:${line}: ${problem}`, options);
    this.source = source;
    this.line = line;
  }
}

/** The trace could not be read at all (missing file, I/O error). */
export class TraceReadError extends Error {
  override readonly name = 'TraceReadError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
