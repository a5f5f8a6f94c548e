/** An event the kubelet (or another simulated component) wants recorded against an object. */
export interface SimEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** The object the event is about. */
  involvedObject: { kind: string; namespace?: string; name: string; uid?: string; apiVersion?: string; fieldPath?: string };
  /** Reporting component, e.g. `kubelet`, `default-scheduler`, `replicaset-controller`. */
  component: string;
  host?: string;
}

/** The involved-object reference for a pod (optionally one of its containers). */
export function podRef(pod: { metadata: { name?: string; namespace?: string; uid?: string } }, container?: string): SimEvent['involvedObject'] {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    name: pod.metadata.name ?? '',
    namespace: pod.metadata.namespace,
    uid: pod.metadata.uid,
    ...(container ? { fieldPath: `spec.containers{${container}}` } : {}),
  };
}
