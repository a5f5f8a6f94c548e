/**
 * What became of one executed action, from the API's answer (classified by src/kube/errors.ts):
 *
 * | answer | outcome | what the executor does |
 * |---|---|---|
 * | 2xx | `applied` | count it, events on the pod and the VPA |
 * | 404 | `gone` | drop quietly: the pod was deleted meanwhile |
 * | 409 | `conflict` | nothing now: the next loop re-reads and re-plans |
 * | 422 / 400 | `invalid` | report (Warning events, error log); not resent unchanged |
 * | 403 on a resize with the cause `NodeCapacity` (1.36+) | `infeasible` | remembered as an Infeasible resize (resize-refusal.ts): the next loop falls back as for the kubelet's Infeasible |
 * | 429 on an eviction with a DisruptionBudget cause (or message) | `blocked` | a PDB said no: retried in a later loop, never forced |
 * | other 429, 5xx, no answer | `throttled` | back off: no more writes until Retry-After (at least) has passed |
 * | 401 / 403 / other | `failed` | error log, Warning event attempt; the loop goes on |
 */
import type { ClassifiedApiError } from '../kube/errors.ts';
import { isNodeCapacityRefusal } from './resize-refusal.ts';

/** The outcome of one action. */
export type ActionOutcome = 'applied' | 'dryRun' | 'gone' | 'conflict' | 'invalid' | 'infeasible' | 'blocked' | 'throttled' | 'failed' | 'skippedBackoff';

/** True if a 429 is the eviction API refusing because of a PodDisruptionBudget. */
export function isDisruptionBudgetRefusal(error: ClassifiedApiError): boolean {
  if (error.code !== 429) return false;
  return error.causes.some((c) => c.reason === 'DisruptionBudget') || /disruption budget/i.test(error.message);
}

/** The outcome of a failed action. `eviction` tells a PDB refusal from throttling, and a resize's capacity refusal from RBAC's 403. */
export function failureOutcome(error: ClassifiedApiError, eviction: boolean): ActionOutcome {
  if (eviction && isDisruptionBudgetRefusal(error)) return 'blocked';
  if (!eviction && isNodeCapacityRefusal(error)) return 'infeasible';
  switch (error.kind) {
    case 'notFound':
      return 'gone';
    case 'conflict':
    case 'alreadyExists':
    case 'gone':
      return 'conflict';
    case 'invalid':
      return 'invalid';
    case 'throttled':
    case 'unavailable':
    case 'network':
      return 'throttled';
    default:
      return 'failed';
  }
}

/** Minimum pause after a throttled answer when the server gave no Retry-After. */
export const DEFAULT_BACKOFF_MS = 5_000;

/**
 * When writes may resume after a throttled answer at `now`: now + max(Retry-After, 5 s).
 * Example: 429 with `Retry-After: 2` at t -> t + 5 s; with `Retry-After: 30` -> t + 30 s.
 */
export function backoffUntil(error: ClassifiedApiError, now: number): number {
  return now + Math.max(error.retryAfterMs ?? 0, DEFAULT_BACKOFF_MS);
}
