/**
 * The mutating webhook's handling of one pod review: only CREATE is mutated; before the cluster
 * view has synced, and on any unexpected error, the pod is admitted unchanged (the webhook must
 * never be the reason a pod cannot start). Returns the response, the outcome for the metric and
 * the log line to write. Pure apart from reading the injected view.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isPlainObject } from '../api/field-errors.ts';
import { allow, type AdmissionRequest, type AdmissionResponse } from './admission-review.ts';
import { admitPod, type PodAdmissionDecision, type PodAdmissionView } from './pod-admission.ts';

/** What the pod review reads. */
export interface PodReviewSource {
  /** Collections not listed yet; non-empty = not ready. */
  notSynced(): string[];
  namespaceView(namespace: string): PodAdmissionView;
}

/** How to log the outcome: level and fields. */
export interface ReviewLog {
  level: 'debug' | 'info' | 'warn';
  fields: Record<string, unknown>;
  message: string;
}

/** The answer for one pod review. */
export interface PodReviewResult {
  response: AdmissionResponse;
  outcome: string;
  log: ReviewLog;
  /** True when the patch gives the pod a start-up CPU boost (counted in /metrics). */
  startupBoost?: boolean;
}

/** Outcomes where Tailor could not decide: logged as warnings. */
const UNDECIDED = new Set(['invalid-vpa', 'not-ready', 'error']);

function podLabel(pod: V1Pod, request: AdmissionRequest): string {
  const name = pod.metadata?.name ?? request.name ?? (pod.metadata?.generateName ? `${pod.metadata.generateName}<generated>` : '<unnamed>');
  return `${request.namespace ?? pod.metadata?.namespace ?? ''}/${name}`;
}

/** Reviews one pod request. Never throws. */
export function reviewPod(request: AdmissionRequest, source: PodReviewSource): PodReviewResult {
  const uid = request.uid;
  if (request.operation !== 'CREATE' || !isPlainObject(request.object)) {
    return {
      response: allow(uid),
      outcome: 'unchanged',
      log: { level: 'debug', fields: { operation: request.operation }, message: 'not a pod creation; admitted unchanged' },
    };
  }
  const pod = request.object as V1Pod;
  const fields: Record<string, unknown> = { pod: podLabel(pod, request) };
  const namespace = request.namespace ?? pod.metadata?.namespace ?? '';
  const missing = source.notSynced();
  if (missing.length > 0) {
    return {
      response: allow(uid),
      outcome: 'not-ready',
      log: { level: 'warn', fields, message: `admitted unchanged: the watch cache is not synced yet (${missing.join(', ')})` },
    };
  }
  let decision: PodAdmissionDecision;
  try {
    decision = admitPod(pod, namespace, source.namespaceView(namespace));
  } catch (err) {
    return { response: allow(uid), outcome: 'error', log: { level: 'warn', fields: { ...fields, err }, message: 'admitted unchanged: the decision failed' } };
  }
  if (decision.owner) fields.owner = `${decision.owner.kind}/${decision.owner.name}`;
  if (decision.ownerVia === 'derived') fields.ownerVia = 'derived from the ReplicaSet name';
  if (decision.vpaName) fields.vpa = decision.vpaName;
  if (decision.adjustments.length > 0) fields.adjustments = decision.adjustments.map((a) => (a.container ? `${a.container}: ${a.message}` : a.message));
  const level = decision.outcome === 'patched' || decision.outcome === 'unchanged' ? 'info' : UNDECIDED.has(decision.outcome) ? 'warn' : 'debug';
  const message = decision.outcome === 'patched' ? `resources set: ${decision.message}` : `admitted unchanged: ${decision.message}`;
  return {
    response: allow(uid, decision.patch),
    outcome: decision.outcome,
    log: { level, fields, message },
    ...(decision.startupBoost ? { startupBoost: true } : {}),
  };
}
