/**
 * What stops `tailor demo`: Ctrl-C (SIGINT), SIGTERM, SIGHUP (its terminal closed) or the end of
 * `--duration`. The first one aborts {@link StopSignal.signal} (start-up steps give up on it) and
 * resolves {@link StopSignal.stopped}; a later one only calls `onRepeat`, so a second Ctrl-C does
 * not cut the closing audit short. Worked example: SIGINT during start-up -> `signal.aborted`,
 * `signal.reason` a {@link DemoStopped} saying `SIGINT`, `stopped` resolves with `SIGINT`.
 */

/** The signals the demo stops on (it handles them: the Prometheus child is out of the terminal's group). */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The reason of the aborted signal: why the demo stops (`SIGINT`, `--duration 90s`). */
export class DemoStopped extends Error {
  override readonly name = 'DemoStopped';
  constructor(readonly why: string) {
    super(`stopped (${why})`);
  }
}

export interface StopSignal {
  /** Aborted with a {@link DemoStopped} at the first stop. */
  signal: AbortSignal;
  /** Resolves with why, at the first stop. */
  stopped: Promise<string>;
  /** Starts the `--duration` timer (the running time, start-up not counted). */
  startTimer(): void;
  /** Removes the handlers and the timer. */
  cancel(): void;
}

/** Listens for the stop signals from now on; `onRepeat` hears each signal after the first stop. */
export function stopSignal(durationMs: number | undefined, onRepeat: (signal: NodeJS.Signals) => void = () => {}): StopSignal {
  const abort = new AbortController();
  let resolveStop!: (why: string) => void;
  const stopped = new Promise<string>((r) => (resolveStop = r));
  const stop = (why: string) => {
    abort.abort(new DemoStopped(why));
    resolveStop(why);
  };
  const onSignal = (signal: NodeJS.Signals) => (abort.signal.aborted ? onRepeat(signal) : stop(signal));
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  let timer: NodeJS.Timeout | undefined;
  return {
    signal: abort.signal,
    stopped,
    startTimer: () => {
      if (durationMs !== undefined && !abort.signal.aborted) timer = setTimeout(() => stop(`--duration ${Math.round(durationMs / 1000)}s`), durationMs);
    },
    cancel: () => {
      for (const s of STOP_SIGNALS) process.off(s, onSignal);
      if (timer) clearTimeout(timer);
    },
  };
}
