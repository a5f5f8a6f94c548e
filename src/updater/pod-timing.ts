/**
 * Times the planner reads from a pod object (never from memory, so restarts lose nothing):
 * - when the pod started: `status.startTime`, else `metadata.creationTimestamp`;
 * - when the updater last changed it: the later of the `tailor.dev/last-update` annotation and the
 *   `time` of the pod's managedFields entry written by the updater's field manager through the
 *   `resize` subresource (the API server stamps it on every resize, so nothing extra must be written).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { LAST_UPDATE_ANNOTATION } from './annotations.ts';
import { timeOf } from './object-time.ts';

/** The field manager the updater's executor sends with every resize. */
export const UPDATER_FIELD_MANAGER = 'tailor-updater';

/** When the pod started (ms), or undefined if the object does not say. */
export function podStartTime(pod: V1Pod): number | undefined {
  return timeOf(pod.status?.startTime as Date | string | undefined) ?? timeOf(pod.metadata?.creationTimestamp as Date | string | undefined);
}

/** When the updater last changed the pod (ms), or undefined if never (as far as the object says). */
export function lastUpdateTime(pod: V1Pod, fieldManager = UPDATER_FIELD_MANAGER): number | undefined {
  const times: number[] = [];
  const annotated = timeOf(pod.metadata?.annotations?.[LAST_UPDATE_ANNOTATION]);
  if (annotated !== undefined) times.push(annotated);
  for (const entry of pod.metadata?.managedFields ?? []) {
    if (entry.manager !== fieldManager || entry.subresource !== 'resize') continue;
    const t = timeOf(entry.time as Date | string | undefined);
    if (t !== undefined) times.push(t);
  }
  return times.length > 0 ? Math.max(...times) : undefined;
}
