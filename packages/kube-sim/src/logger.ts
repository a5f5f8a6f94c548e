/**
 * kube-sim logs through pino: callers pass their own pino logger (Tailor passes its root logger);
 * without one, kube-sim stays silent.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

/** A logger that drops everything: the default when the caller passes none. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
