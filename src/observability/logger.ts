/**
 * The pino logger factory. Bindings: `component` is bound once, by the composition root, to the
 * part of the program a line comes from (`recommender`, `updater`, `admission`, `runtime`, `http`,
 * `leader-election`; `kube-sim` in the demo); the modules a component uses bind `module`
 * (`usage-feed`, `prometheus-client`, `watch`, ...) and their parts `part`, through `moduleLogger`,
 * never `component` again, so a JSON line holds each key once. Errors are logged as `{ err }` so pino serialises the cause chain.
 * Times are ISO 8601 in UTC (`time`).
 */
import { pino, stdTimeFunctions, type Bindings, type Logger } from 'pino';

export type { Logger };

/** The levels every `--log-level` accepts, most severe first. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Options for {@link createLogger}. */
export interface LoggerOptions {
  level?: LogLevel;
  /** Where JSON lines go; defaults to stderr so stdout stays free for command output. */
  destination?: NodeJS.WritableStream;
}

/** True for a level name `createLogger` accepts. */
export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/** Creates the root JSON logger. Throws on an unknown level, naming the known ones. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  if (!isLogLevel(level)) throw new Error(`unknown log level ${JSON.stringify(level)}: use one of ${LOG_LEVELS.join(', ')}`);
  const destination = options.destination ?? process.stderr;
  // ISO 8601 times (`"time":"2026-12-05T09:22:25.123Z"`), not epoch milliseconds: the lines are read by people too.
  return pino({ level, base: { app: 'tailor' }, timestamp: stdTimeFunctions.isoTime }, destination as pino.DestinationStream);
}

/** The keys that name where a line comes from, outermost first. */
const PLACE_KEYS = ['component', 'module', 'part'] as const;

/**
 * The logger of a module inside a component: binds `name` under the first of `component`,
 * `module`, `part` that `parent` has not bound yet (pino writes a key bound twice twice), so the
 * component's own binding is kept and none is repeated.
 */
export function moduleLogger(parent: Logger, name: string, bindings: Bindings = {}): Logger {
  const bound: Bindings = typeof parent.bindings === 'function' ? parent.bindings() : {};
  const key = PLACE_KEYS.find((k) => bound[k] === undefined);
  return parent.child(key === undefined ? bindings : { ...bindings, [key]: name });
}

/** A logger that drops everything, for tests and pure code paths. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
