/**
 * The one-line message of an error for the terminal: its message, then each cause's (`cause`
 * chain, as wrapped with `new Error(msg, { cause })`), skipping a cause whose message the line
 * already holds, so `a server component failed to start: admission: listen EADDRINUSE` shows
 * what went wrong and not only where.
 */
const MAX_DEPTH = 8;

/** The longest piece one cause adds to the line. */
const MAX_PIECE = 300;

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > MAX_PIECE ? `${line.slice(0, MAX_PIECE)}...` : line;
}

/**
 * The first line: client-node's errors go on with the HTTP body and headers. A cause that is not
 * an Error (prometheus-query rejects with a plain object around axios' error, its stack and socket
 * state) says only its `message` or `error` text, or nothing: it is never serialised.
 */
function messageOf(value: unknown): string {
  if (value instanceof Error) return firstLine(value.message || value.name);
  if (typeof value === 'string') return firstLine(value);
  if (typeof value === 'object' && value !== null) {
    const { message, error } = value as { message?: unknown; error?: unknown };
    if (typeof message === 'string') return firstLine(message);
    if (typeof error === 'string') return firstLine(error);
    return '';
  }
  return firstLine(String(value));
}

/** `outer: cause: cause of the cause`; AggregateError's errors are listed in brackets. */
export function errorChainMessage(err: unknown): string {
  // The outermost message is kept whole (e.g. every problem of an invalid configuration).
  let line = err instanceof Error ? err.message || err.name : messageOf(err) || 'an error without a message';
  let current: unknown = err;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (current instanceof AggregateError && current.errors.length > 0) {
      const inner = current.errors.map(errorChainMessage).filter((m) => !line.includes(m));
      if (inner.length > 0) line += ` [${inner.join('; ')}]`;
    }
    if (!(current instanceof Error) || current.cause === undefined) break;
    // A file error says its system error in words (`no such file`): `ENOENT: no such file or directory, open 'x'` would repeat it.
    if ((current as { causeInWords?: boolean }).causeInWords === true) break;
    current = current.cause;
    const next = messageOf(current);
    if (next !== '' && !line.includes(next)) line += `: ${next}`;
  }
  return line;
}
