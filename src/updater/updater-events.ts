/**
 * The Kubernetes Events the updater records (core/v1), one on the pod and one on its VPA for each
 * action carried out or refused, with the decision's reason code and sentence. Pure: time and names
 * are arguments. Event reasons (CamelCase, as `kubectl get events` shows them):
 * - `ResizedInPlace`, `ResizedWithRestart`, `Evicted` (Normal): the action was applied;
 *   a fallback eviction names its cause, e.g. `Evicted` with message "FallbackInfeasible: ...";
 * - `EvictionBlocked` (Normal): a PodDisruptionBudget refused; retried in a later loop;
 * - `ResizeRejected`, `EvictionRejected` (Warning): the server refused the request as invalid;
 * - `ResizeInfeasible` (Warning): the server refused the resize for the node's capacity (1.36+);
 * - `UpdateFailed` (Warning): any other failure except a vanished pod.
 * Early memory warnings (memory-warning-report.ts) use `MemoryHigh`, `MemoryCritical` (Warning, on
 * the pod and its VPA) and `WorkloadMemoryPressure` (Warning, on the VPA).
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { ActionOutcome } from './action-outcome.ts';
import type { PodDecision } from './decision.ts';

/** Who reports the events. */
export const EVENT_SOURCE = 'tailor-updater';

/** The event reason for an action's outcome, and its type; undefined: no event (vanished pod, conflict, backoff). */
export function eventReason(decision: PodDecision, outcome: ActionOutcome): { reason: string; type: 'Normal' | 'Warning' } | undefined {
  const evict = decision.action === 'Evict';
  switch (outcome) {
    case 'applied':
      return { reason: evict ? 'Evicted' : decision.action === 'ResizeWithRestart' ? 'ResizedWithRestart' : 'ResizedInPlace', type: 'Normal' };
    case 'blocked':
      return { reason: 'EvictionBlocked', type: 'Normal' };
    case 'invalid':
      return { reason: evict ? 'EvictionRejected' : 'ResizeRejected', type: 'Warning' };
    case 'infeasible':
      return { reason: 'ResizeInfeasible', type: 'Warning' };
    case 'failed':
      return { reason: 'UpdateFailed', type: 'Warning' };
    default:
      return undefined;
  }
}

/** Event text: `<reason code>: <sentence>[; <detail>]`, capped at 1 KiB as the API allows. */
export function eventMessage(decision: PodDecision, detail?: string): string {
  const text = `${decision.reason}: ${decision.message}${detail ? `; ${detail}` : ''}`;
  return text.length > 1024 ? `${text.slice(0, 1021)}...` : text;
}

interface Involved {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid?: string;
}

function event(involved: Involved, reason: string, type: 'Normal' | 'Warning', message: string, now: number, instance: string): CoreV1Event {
  const time = new Date(now);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { generateName: `${involved.name}.`, namespace: involved.namespace },
    involvedObject: {
      apiVersion: involved.apiVersion,
      kind: involved.kind,
      namespace: involved.namespace,
      name: involved.name,
      ...(involved.uid ? { uid: involved.uid } : {}),
    },
    reason,
    message,
    type,
    count: 1,
    firstTimestamp: time,
    lastTimestamp: time,
    source: { component: EVENT_SOURCE },
    reportingComponent: EVENT_SOURCE,
    reportingInstance: instance,
  };
}

/** An event on a pod (e.g. `MemoryHigh`). */
export function podEvent(
  pod: { namespace: string; name: string; uid?: string },
  reason: string,
  type: 'Normal' | 'Warning',
  message: string,
  now: number,
  instance: string,
): CoreV1Event {
  const involved: Involved = { apiVersion: 'v1', kind: 'Pod', namespace: pod.namespace, name: pod.name, ...(pod.uid ? { uid: pod.uid } : {}) };
  return event(involved, reason, type, message.slice(0, 1024), now, instance);
}

/** An event on a VPA (e.g. `HpaConflict`). */
export function vpaEvent(vpa: VerticalPodAutoscaler, reason: string, type: 'Normal' | 'Warning', message: string, now: number, instance: string): CoreV1Event {
  const uid = vpa.metadata.uid;
  const involved: Involved = {
    apiVersion: vpa.apiVersion ?? 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    namespace: vpa.metadata.namespace ?? 'default',
    name: vpa.metadata.name,
    ...(uid ? { uid } : {}),
  };
  return event(involved, reason, type, message.slice(0, 1024), now, instance);
}

/** The pod's and the VPA's event for an action's outcome (none for outcomes that need no telling). */
export function actionEvents(input: {
  decision: PodDecision;
  outcome: ActionOutcome;
  podUid?: string;
  vpa: VerticalPodAutoscaler;
  now: number;
  instance: string;
  detail?: string;
}): CoreV1Event[] {
  const kind = eventReason(input.decision, input.outcome);
  if (!kind) return [];
  const { decision } = input;
  const message = eventMessage(decision, input.detail);
  const vpaMessage = `pod ${decision.podName}: ${message}`.slice(0, 1024);
  const pod: Involved = {
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: decision.namespace,
    name: decision.podName,
    ...(input.podUid ? { uid: input.podUid } : {}),
  };
  const vpaUid = input.vpa.metadata.uid;
  const vpa: Involved = {
    apiVersion: input.vpa.apiVersion ?? 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    namespace: input.vpa.metadata.namespace ?? decision.namespace,
    name: input.vpa.metadata.name ?? '',
    ...(vpaUid ? { uid: vpaUid } : {}),
  };
  return [event(pod, kind.reason, kind.type, message, input.now, input.instance), event(vpa, kind.reason, kind.type, vpaMessage, input.now, input.instance)];
}
