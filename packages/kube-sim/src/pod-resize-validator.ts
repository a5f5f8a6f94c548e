/**
 * The API server's PodResizeValidator (1.36+, kubernetes/kubernetes#136043): a resize of a bound
 * pod whose requests, summed as the scheduler sums them, exceed the node's allocatable is refused
 * at admission, before the kubelet sees it, with 403 Forbidden and the cause `NodeCapacity`:
 * `pods "web-0" is forbidden: node didn't have enough allocatable resources: cpu, requested: 2500,
 * allocatable: 1930` (cpu in millicores, memory in bytes, both named when both exceed, joined by
 * "; "); the pod's requests are pod-level ones where it has them (so a pod-level resize is judged
 * too, recorded on 1.36.3 and 1.37.2). A pod on a missing node is refused too ("node \"n\" not found"). Until 1.35 the same resize
 * is accepted and the kubelet marks it Infeasible (kubelet/resize-admission.ts).
 */
import { ApiError, forbidden, type AdmissionPlugin, type KubeSimApiServer } from './apiserver/index.ts';
import type { NodeObject, Pod } from './objects.ts';
import { podRequests, readResources } from './pod-resources.ts';

/** The name the real server gives the plugin. */
export const POD_RESIZE_VALIDATOR = 'PodResizeValidator';

/** The message's detail when `requested` exceeds `allocatable`, or undefined when it fits. */
export function allocatableShortfall(requested: { cpu: number; memory: number }, allocatable: { cpu: number; memory: number }): string | undefined {
  const parts: string[] = [];
  if (requested.cpu > allocatable.cpu) parts.push(`cpu, requested: ${requested.cpu}, allocatable: ${allocatable.cpu}`);
  if (requested.memory > allocatable.memory) parts.push(`memory, requested: ${requested.memory}, allocatable: ${allocatable.memory}`);
  return parts.length > 0 ? `node didn't have enough allocatable resources: ${parts.join('; ')}` : undefined;
}

/** The admission plugin, reading nodes from `server`'s store. */
export function podResizeValidator(server: KubeSimApiServer): AdmissionPlugin {
  return {
    name: POD_RESIZE_VALIDATOR,
    validate(attrs) {
      if (attrs.operation !== 'UPDATE' || attrs.subresource !== 'resize' || attrs.type.group !== '' || attrs.type.kind !== 'Pod') return;
      const pod = attrs.object as unknown as Pod | undefined;
      const old = attrs.oldObject as unknown as Pod | undefined;
      const nodeName = pod?.spec.nodeName;
      // Upstream skips a resize that leaves the generation as it was, i.e. changes no resources
      // (containers' or, from 1.36, the pod-level ones).
      if (!pod || !old || !nodeName || (old.metadata.generation ?? 1) === (pod.metadata.generation ?? 1)) return;
      const target = { resource: 'pods', group: '', name: attrs.name };
      const node = server.store.get('nodes', '', nodeName) as unknown as NodeObject | undefined;
      if (!node) throw forbidden(target, `node "${nodeName}" not found`);
      const detail = allocatableShortfall(podRequests(pod), readResources(node.status?.allocatable));
      if (detail === undefined) return;
      const refusal = forbidden(target, detail);
      throw new ApiError(refusal.code, refusal.reason, refusal.message, { ...refusal.details, causes: [{ reason: 'NodeCapacity' }] });
    },
  };
}
