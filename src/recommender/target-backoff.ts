/**
 * Per-VPA back-off for a target that cannot be resolved (a Deployment that does not exist, a
 * forbidden read, a kind without a selector): instead of reading it again every cycle, the
 * recommender reports the last problem and reads again 30 s after the first failure, then after
 * 1, 2, 4, ... minutes, at most {@link TARGET_BACKOFF_MAX_MS} apart. A change of the VPA (a new
 * object, a new spec generation, another targetRef) reads at once; so, for the others, does the
 * next read after a success. Pure bookkeeping: the caller gives the time.
 */

/** Why a VPA's target has no pods to offer. */
export interface TargetProblem {
  reason: string;
  message: string;
}

/** The first wait after a failure. */
export const TARGET_BACKOFF_INITIAL_MS = 30_000;
/** The longest wait between two reads of a target that keeps failing. */
export const TARGET_BACKOFF_MAX_MS = 10 * 60_000;

/** A failed target in back-off. */
export interface HeldTarget {
  problem: TargetProblem;
  /** Failed reads in a row (of this key). */
  failures: number;
  /** When the next read is due (ms). */
  retryAt: number;
}

interface Entry extends HeldTarget {
  key: string;
}

/** What identifies a VPA's target read: a change of any of these starts the back-off over. */
export function targetKey(vpa: {
  metadata: { uid?: string; generation?: number };
  spec: { targetRef: { apiVersion?: string; kind: string; name: string } };
}): string {
  const ref = vpa.spec.targetRef;
  return [vpa.metadata.uid ?? '', vpa.metadata.generation ?? '', ref.apiVersion ?? '', ref.kind, ref.name].join('\u0000');
}

/** The back-off state of every VPA whose target failed. */
export class TargetBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs = TARGET_BACKOFF_INITIAL_MS,
    private readonly maxMs = TARGET_BACKOFF_MAX_MS,
  ) {}

  /** The failure to report instead of reading at `now`; undefined when a read is due. */
  held(vpaId: string, key: string, now: number): HeldTarget | undefined {
    const e = this.entries.get(vpaId);
    if (!e || e.key !== key || now >= e.retryAt) return undefined;
    return e;
  }

  /** The last failure of this key, due or not. */
  lastFailure(vpaId: string, key: string): HeldTarget | undefined {
    const e = this.entries.get(vpaId);
    return e && e.key === key ? e : undefined;
  }

  /** Records a failed read at `now`. */
  failed(vpaId: string, key: string, problem: TargetProblem, now: number): HeldTarget {
    const before = this.entries.get(vpaId);
    const failures = before && before.key === key ? before.failures + 1 : 1;
    const wait = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(failures - 1, 30));
    const entry = { key, problem, failures, retryAt: now + wait };
    this.entries.set(vpaId, entry);
    return entry;
  }

  /** Records a successful read: the next failure starts over. */
  succeeded(vpaId: string): void {
    this.entries.delete(vpaId);
  }

  /** Forgets VPAs that are gone. */
  retain(vpaIds: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!vpaIds.has(id)) this.entries.delete(id);
  }
}
