/**
 * The pino logger factory. Components take a logger as an argument and make child loggers with
 * `logger.child({ component: 'updater' })`; errors are logged as `{ err }` so pino serialises the
 * cause chain.
 */
import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

/** Options for {@link createLogger}. */
export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Where JSON lines go; defaults to stderr so stdout stays free for command output. */
  destination?: NodeJS.WritableStream;
}

/** Creates the root JSON logger. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? process.stderr;
  return pino({ level: options.level ?? 'info', base: { app: 'tailor' } }, destination as pino.DestinationStream);
}

/** A logger that drops everything, for tests and pure code paths. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
