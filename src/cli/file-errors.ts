/**
 * Errors about files named on the command line, in words instead of a raw `ENOENT: no such file
 * or directory, open 'x'`; the system error stays attached as the `cause`.
 */
import { dirname } from 'node:path';

/** An input or output file the command could not use; exit code 1. */
export class FileError extends Error {
  override readonly name = 'FileError';
  /** The message already says the system error in words: the one-line message stops here. */
  readonly causeInWords = true;
}

const READ_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
};

function codeOf(err: unknown): string | undefined {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' ? (err as NodeJS.ErrnoException).code : undefined;
}

/** Why a file could not be read, in words: `no such file`, `permission denied`, ... */
export function readReason(err: unknown): string {
  const code = codeOf(err);
  return (code && READ_REASONS[code]) ?? (err instanceof Error ? err.message : String(err));
}

/** `shop.yaml: cannot read: no such file`. */
export function readFailure(file: string, err: unknown): FileError {
  return new FileError(`${file}: cannot read: ${readReason(err)}`, { cause: err });
}

/** `out/x.csv: cannot write: the folder out does not exist`. */
export function writeFailure(file: string, err: unknown): FileError {
  const code = codeOf(err);
  const reason =
    code === 'ENOENT' ? `the folder ${dirname(file)} does not exist` : ((code && READ_REASONS[code]) ?? (err instanceof Error ? err.message : String(err)));
  return new FileError(`${file}: cannot write: ${reason}`, { cause: err });
}
