/**
 * The exit codes of every `tailor` command (docs/cli.md):
 * 0 done; 1 failed: the input is invalid (an invalid VPA, a malformed or missing file) or an
 * operation failed (Prometheus or the cluster unreachable); 2 usage error: the command line or a
 * TAILOR_* variable is wrong (unknown command or option, a missing or bad value), nothing was done;
 * 3 partial: `recommend` or `audit` over several clusters wrote its report, but some cluster could
 * not be read (each is named, with why, on stderr and in the report).
 */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_PARTIAL = 3;

/**
 * The result was written, but without part of what was asked for (a cluster that could not be
 * read): reported as one line, `tailor <command>: message`, and exit code {@link EXIT_PARTIAL}.
 */
export class PartialResultError extends Error {
  override readonly name = 'PartialResultError';
}

/**
 * A bad command-line value found by a command itself (after commander parsed it), or commander's
 * own usage error: reported as one line, `tailor <command>: message; see tailor <command> --help`
 * (usage-line.ts), and exit code {@link EXIT_USAGE}. `command` is set when the command is known
 * where the error is made; main() fills in the running command otherwise.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly command?: string;
  constructor(message: string, options?: { cause?: unknown; command?: string }) {
    super(message, options);
    this.command = options?.command;
  }
}
