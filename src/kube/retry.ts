/**
 * Retries for API calls: p-retry runs the attempts; which errors are retried and how long to wait
 * are decided here, on the error's classification (errors.ts). By default those whose action is
 * `backoff` (429, 5xx, network); {@link retryConflicts} adds 409 Conflict for callers whose
 * function re-reads the object on each attempt. Not found, invalid, forbidden: thrown at once,
 * for the caller to drop or report.
 *
 * Delay before retry n (1-based): d = min(maxDelayMs, baseDelayMs x 2^(n-1)), drawn uniformly
 * from [d/2, d]; never less than the server's Retry-After. Worked numbers with the defaults
 * (base 200 ms, max 10 s): retry 1 waits 100-200 ms, retry 3 waits 400-800 ms, retry 7 and later
 * 5-10 s; a 429 with `Retry-After: 2` waits at least 2 s.
 *
 * p-retry's own delay is off (`minTimeout: 0`): the wait is taken in `onFailedAttempt` through the
 * injected sleep (tests; the shutdown signal aborts it), since it comes from the classified error
 * (Retry-After), which p-retry's timeouts cannot express. The same delay rule paces the watch
 * cache's restarts ({@link backoffDelay}).
 */
import pRetry from 'p-retry';
import { realSleep, type Sleep } from './clock.ts';
import { classificationOf, type ClassifiedApiError } from './errors.ts';

export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  attempts?: number;
  /** Backoff base in ms (default 200). */
  baseDelayMs?: number;
  /** Backoff cap in ms (default 10,000). */
  maxDelayMs?: number;
  /** Source of jitter in [0, 1) (default Math.random). */
  random?: () => number;
  sleep?: Sleep;
  /** Aborts the waits (shutdown); the abort reason is thrown. */
  signal?: AbortSignal;
  /** Which errors to retry (default: action `backoff`). */
  retryOn?: (error: ClassifiedApiError) => boolean;
  /** Told before each wait, e.g. to log or count. */
  onRetry?: (info: { attempt: number; delayMs: number; error: ClassifiedApiError; cause: unknown }) => void;
}

export const RETRY_DEFAULTS = { attempts: 5, baseDelayMs: 200, maxDelayMs: 10_000 } as const;

/** The default predicate: throttling, unavailability and network failures. */
export const retryTransient = (e: ClassifiedApiError): boolean => e.action === 'backoff';

/** Transient failures and 409 Conflicts (the function must re-read what it writes). */
export const retryConflicts = (e: ClassifiedApiError): boolean => e.action === 'backoff' || e.kind === 'conflict';

/** The wait before retry `retry` (1-based) for `error`; see the module comment for the formula. */
export function backoffDelay(retry: number, error: ClassifiedApiError, random: number, options: { baseDelayMs?: number; maxDelayMs?: number } = {}): number {
  const base = options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs;
  const max = options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs;
  const ceiling = Math.min(max, base * 2 ** (retry - 1));
  const jittered = ceiling / 2 + random * (ceiling / 2);
  return Math.round(Math.max(jittered, error.retryAfterMs ?? 0));
}

/** What p-retry sees of a failed attempt: the error inside a plain Error (p-retry has rules of its own for TypeErrors and non-Errors). */
class AttemptFailed extends Error {
  constructor(readonly error: unknown) {
    super('attempt failed');
  }
}

/** Calls `fn` until it succeeds, a non-retryable error occurs or the attempts run out; rethrows the last error unchanged. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? RETRY_DEFAULTS.attempts;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const retryOn = options.retryOn ?? retryTransient;
  try {
    return await pRetry(
      async (attempt) => {
        try {
          return await fn(attempt);
        } catch (err) {
          throw new AttemptFailed(err);
        }
      },
      {
        retries: Math.max(0, attempts - 1),
        minTimeout: 0,
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
          const cause = (error as AttemptFailed).error;
          const classified = classificationOf(cause);
          // Throwing here ends the retries: p-retry rejects with what is thrown.
          if (retriesLeft <= 0 || !retryOn(classified) || options.signal?.aborted) throw cause;
          const delayMs = backoffDelay(attemptNumber, classified, random(), options);
          options.onRetry?.({ attempt: attemptNumber, delayMs, error: classified, cause });
          await sleep(delayMs, options.signal);
        },
      },
    );
  } catch (err) {
    throw err instanceof AttemptFailed ? err.error : err;
  }
}
