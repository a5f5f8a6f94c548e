/**
 * The one Event the recommender records: a Warning `ConfigUnsupported` on a VPA whose status the
 * API server refuses (422), so the problem still reaches `kubectl describe vpa` when no condition
 * can be written (a spec the CRD's schema rejects and validation ratcheting does not let through,
 * decision 0139). Pure: time and names are arguments. Message capped at 1 KiB as the API allows.
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';

/** Who reports the events. */
export const RECOMMENDER_EVENT_SOURCE = 'tailor-recommender';

/** The Warning event for a VPA whose status cannot be written, saying why. */
export function statusRefusedEvent(vpa: VerticalPodAutoscaler, message: string, now: number, instance: string): CoreV1Event {
  const time = new Date(now);
  const namespace = vpa.metadata.namespace ?? '';
  const text = `the status cannot be written (the API server refuses the object): ${message}`;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { generateName: `${vpa.metadata.name}.`, namespace },
    involvedObject: {
      apiVersion: vpa.apiVersion ?? 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      namespace,
      name: vpa.metadata.name,
      ...(vpa.metadata.uid ? { uid: vpa.metadata.uid } : {}),
    },
    reason: 'ConfigUnsupported',
    message: text.length > 1024 ? `${text.slice(0, 1021)}...` : text,
    type: 'Warning',
    count: 1,
    firstTimestamp: time,
    lastTimestamp: time,
    source: { component: RECOMMENDER_EVENT_SOURCE },
    reportingComponent: RECOMMENDER_EVENT_SOURCE,
    reportingInstance: instance,
  };
}
