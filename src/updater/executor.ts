/**
 * The executor: carries out one loop's plan (updater-plan.ts) through the injected
 * {@link UpdaterApi}, in plan order, and tells people: a log line per decision (actions and waits at info, skips at
 * debug), events on the pod and the VPA per action (updater-events.ts), metrics
 * (updater-metrics.ts). What each API answer leads to is in action-outcome.ts; in short, nothing is
 * ever forced or retried within the loop: the next loop re-reads the objects and plans again
 * (timers live in the objects, so nothing is lost).
 *
 * Actions run up to `concurrency` at once, started in plan order (urgent first). After a throttled
 * answer (429 outside a PDB refusal, 5xx, no answer) no further action is started until
 * `backoffUntil`. A resize the API server refuses for the node's capacity (1.36+) is remembered in
 * `refusals` (resize-refusal.ts) for the next loop's plan. These two are all that is kept between loops.
 * Dry-run: decisions are logged and counted, the plan exported as the `planned` gauge, nothing sent.
 */
import type { V1Pod } from '@kubernetes/client-node';
import pLimit from 'p-limit';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { classifyApiError } from '../kube/errors.ts';
import type { Logger } from '../observability/logger.ts';
import { backoffUntil, failureOutcome, type ActionOutcome } from './action-outcome.ts';
import { isAction, type PodDecision } from './decision.ts';
import { describeChange } from './dry-run.ts';
import { resizeRequest, ResizePatchError } from './resize-patch.ts';
import type { ServerCapabilities } from './server-capabilities.ts';
import type { UpdaterApi } from './updater-api.ts';
import { actionEvents } from './updater-events.ts';
import type { UpdaterMetrics } from './updater-metrics.ts';
import { UPDATER_FIELD_MANAGER } from './pod-timing.ts';
import type { ResizeRefusals } from './resize-refusal.ts';

/** What the executor needs. */
export interface ExecutorDeps {
  api: UpdaterApi;
  logger: Logger;
  metrics?: UpdaterMetrics;
  capabilities: ServerCapabilities;
  /** Log and export only. */
  dryRun?: boolean;
  fieldManager?: string;
  /** Who reports the events (the replica's name). */
  instance?: string;
  /** Actions in flight at once (default 16); started in plan order. */
  concurrency?: number;
}

/** Kept between loops: when writes may resume after throttling (ms; 0 = now). */
export interface ExecutorState {
  backoffUntil: number;
  /** The waits of the last loop (`pod reason`): a wait that lasts is a debug line after its first. */
  saidWaits?: Set<string>;
  /** Resizes the API server refused for the node's capacity, read by the next plan. */
  refusals?: ResizeRefusals;
}

/** The result of one action. */
export interface ActionResult {
  decision: PodDecision;
  outcome: ActionOutcome;
  /** The server's message for a failure. */
  detail?: string;
}

/** One loop's input: the plan, the pods and VPAs it was made from (by namespace/name), the time. */
export interface ExecuteInput {
  decisions: readonly PodDecision[];
  pods: ReadonlyMap<string, V1Pod>;
  vpaOf: (decision: PodDecision) => VerticalPodAutoscaler | undefined;
  now: number;
  state: ExecutorState;
}

const FALLBACK = /^Fallback/;

/** Actions in flight at once unless configured: enough to hide API latency (16 x 20 ms round trips). */
export const DEFAULT_CONCURRENCY = 16;

/**
 * Counts and logs every decision (a skip at debug; a wait at info when it starts, then at debug
 * while it lasts), then carries out the actions in order. Never throws for API errors.
 */
export async function executePlan(input: ExecuteInput, deps: ExecutorDeps): Promise<ActionResult[]> {
  const { metrics, logger } = deps;
  metrics?.planned.reset();
  const waits = new Set<string>();
  for (const d of input.decisions) {
    metrics?.decisions.inc({ action: d.action, reason: d.reason });
    metrics?.planned.inc({ action: d.action, reason: d.reason });
    // A resize whose in-place part goes ahead while the rest waits (a closed window) counts under both.
    if (d.waiting) metrics?.planned.inc({ action: 'Wait', reason: d.waiting.reason });
    if (isAction(d) && FALLBACK.test(d.reason)) metrics?.fallbacks.inc({ cause: d.reason });
    const line = {
      pod: `${d.namespace}/${d.podName}`,
      workload: d.workload,
      action: d.action,
      reason: d.reason,
      changes: d.changes.map(describeChange),
      notes: d.notes,
      ...(d.waiting ? { waiting: { reason: d.waiting.reason, changes: d.waiting.changes.map(describeChange) } } : {}),
      ...(deps.dryRun ? { dryRun: true } : {}),
    };
    // Keyed by pod and reason: the message moves on its own (`changed 64 s ago; cooldown 15 min`).
    const wait = d.action === 'Wait' ? `${d.namespace}/${d.podName} ${d.reason}` : undefined;
    if (wait !== undefined) waits.add(wait);
    if (d.action === 'Skip' || (wait !== undefined && input.state.saidWaits?.has(wait))) logger.debug(line, d.message);
    else logger.info(line, d.message);
  }
  input.state.saidWaits = waits;
  const limit = pLimit(deps.concurrency ?? DEFAULT_CONCURRENCY);
  const results = await Promise.all(
    input.decisions.filter(isAction).map((d) =>
      limit(async (): Promise<ActionResult> => {
        if (deps.dryRun) return { decision: d, outcome: 'dryRun' };
        // checked when the action starts, so a throttled answer stops the actions not yet started
        if (input.now < input.state.backoffUntil) return { decision: d, outcome: 'skippedBackoff' };
        return executeOne(d, input, deps);
      }),
    ),
  );
  metrics?.backoffUntil.set(input.state.backoffUntil > input.now ? input.state.backoffUntil / 1000 : 0);
  return results;
}

async function executeOne(d: PodDecision, input: ExecuteInput, deps: ExecutorDeps): Promise<ActionResult> {
  const log = deps.logger.child({ pod: `${d.namespace}/${d.podName}`, action: d.action, reason: d.reason });
  const pod = input.pods.get(`${d.namespace}/${d.podName}`);
  const evict = d.action === 'Evict';
  let outcome: ActionOutcome;
  let detail: string | undefined;
  try {
    if (!pod) throw new ResizePatchError(`pod ${d.namespace}/${d.podName} is not in this loop's objects`);
    if (evict) await deps.api.evict(d.namespace, d.podName, pod.metadata?.uid);
    else await deps.api.resize(resizeRequest(pod, d.changes, deps.capabilities), deps.fieldManager ?? UPDATER_FIELD_MANAGER);
    outcome = 'applied';
    if (!evict) input.state.refusals?.forget(pod);
    log.info({ outcome }, evict ? 'evicted' : 'resize sent');
  } catch (err) {
    if (err instanceof ResizePatchError) {
      outcome = 'conflict';
      log.info({ err }, 'the pod changed since it was read; re-planned next loop');
    } else {
      const classified = classifyApiError(err);
      outcome = failureOutcome(classified, evict);
      detail = classified.message;
      if (outcome === 'throttled') {
        input.state.backoffUntil = backoffUntil(classified, input.now);
        log.warn({ err, until: new Date(input.state.backoffUntil).toISOString() }, 'the API server is throttling or unavailable: no more writes until then');
      } else if (outcome === 'blocked') log.info({ detail }, 'a PodDisruptionBudget refused the eviction; retried next loop, never forced');
      else if (outcome === 'gone') log.debug('the pod is gone; dropped');
      else if (outcome === 'conflict') log.info({ detail }, 'conflict; re-planned next loop');
      else if (outcome === 'infeasible') {
        if (pod) input.state.refusals?.note(pod, d.changes, classified.message, input.now);
        log.warn(
          { detail },
          'the API server refused the resize: it can never fit this node; the next loop treats it as Infeasible (eviction in InPlaceOrRecreate, not resent in InPlace)',
        );
      } else log.error({ err }, outcome === 'invalid' ? 'the server rejected the request as invalid' : 'the request failed');
    }
  }
  if (evict) deps.metrics?.evictions.inc({ outcome });
  else deps.metrics?.resizes.inc({ path: d.action === 'ResizeWithRestart' ? 'restart' : 'in-place', outcome });
  const vpa = input.vpaOf(d);
  if (vpa) {
    const uid = pod?.metadata?.uid;
    const events = actionEvents({
      decision: d,
      outcome,
      vpa,
      now: input.now,
      instance: deps.instance ?? 'tailor',
      ...(uid ? { podUid: uid } : {}),
      ...(detail ? { detail } : {}),
    });
    await Promise.all(
      events.map(async (e) => {
        try {
          await deps.api.recordEvent(e);
        } catch (err) {
          log.warn({ err, reason: e.reason }, 'could not record the event');
        }
      }),
    );
  }
  return { decision: d, outcome, ...(detail ? { detail } : {}) };
}
