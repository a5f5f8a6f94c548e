/**
 * Pod deletion, immediate or graceful. With graceful deletion switched on (what a real cluster
 * does), deleting a pod that is bound to a node only marks it: `deletionTimestamp` = now + the
 * grace period (DeleteOptions.gracePeriodSeconds, else spec.terminationGracePeriodSeconds, else 30)
 * and `deletionGracePeriodSeconds`; the kubelet removes it when its containers have stopped
 * (in kube-sim: the kubelet simulator calls `store.delete`). A grace period of 0, an unbound pod,
 * or a pod that already finished is removed at once. Worked example: grace 30 at 10:00:00 gives
 * deletionTimestamp 10:00:30.
 */
import type { DeleteOptions, DeleteResult, ObjectStore } from './object-store.ts';
import { toRfc3339 } from './object-store.ts';

/** Deletes (or marks) a pod; returns what the API answers with. */
export function deletePod(
  store: ObjectStore,
  namespace: string,
  name: string,
  options: DeleteOptions & { gracePeriodSeconds?: number },
  now: number,
  graceful: boolean,
): DeleteResult {
  const pod = store.get('pods', namespace, name);
  const spec = (pod?.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
  const phase = (pod?.status as { phase?: string } | undefined)?.phase;
  const grace = options.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
  const immediate = !graceful || !pod || !spec.nodeName || grace <= 0 || phase === 'Succeeded' || phase === 'Failed';
  if (immediate) return store.delete('pods', namespace, name, options);
  const existing = pod.metadata.deletionTimestamp;
  const deadline = now + grace * 1000;
  // A second delete may shorten the grace period, never lengthen it.
  if (existing && Date.parse(existing) <= deadline) return { object: pod, finalizing: true };
  const pre = options.preconditions;
  if ((pre?.uid && pre.uid !== pod.metadata.uid) || (pre?.resourceVersion && pre.resourceVersion !== pod.metadata.resourceVersion)) {
    return store.delete('pods', namespace, name, options); // throws the precondition's 409
  }
  return { object: store.markForDeletion('pods', namespace, name, toRfc3339(deadline), grace), finalizing: true };
}
