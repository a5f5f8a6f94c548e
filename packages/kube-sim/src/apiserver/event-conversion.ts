/**
 * events.k8s.io/v1 and core/v1 Events are one collection in a real cluster, seen through two
 * schemas. kube-sim stores core/v1 Events and converts events.k8s.io/v1 on the way in and out:
 * regarding <-> involvedObject, note <-> message, reportingController <-> reportingComponent,
 * deprecatedSource/FirstTimestamp/LastTimestamp/Count <-> source/firstTimestamp/lastTimestamp/count;
 * eventTime, series, action, reason, type, related and reportingInstance keep their names.
 */
import type { StorageConversion } from './resource-type.ts';
import type { KubeObject } from './types.ts';

/** [events.k8s.io name, core name] of the renamed fields. */
const RENAMED: [string, string][] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];
const SAME = ['eventTime', 'series', 'action', 'reason', 'type', 'related', 'reportingInstance'];

function move(from: KubeObject, to: Record<string, unknown>, pairs: [string, string][]): void {
  for (const [a, b] of pairs) if (from[a] !== undefined) to[b] = from[a];
  for (const f of SAME) if (from[f] !== undefined) to[f] = from[f];
}

/** The conversion between the events.k8s.io/v1 view and core/v1 storage. */
export const eventsV1Conversion: StorageConversion = {
  toStorage(obj) {
    const core: KubeObject = { apiVersion: 'v1', kind: 'Event', metadata: obj.metadata };
    move(obj, core, RENAMED);
    return core;
  },
  fromStorage(obj) {
    const view: KubeObject = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: obj.metadata, eventTime: obj['eventTime'] ?? null };
    move(
      obj,
      view,
      RENAMED.map(([a, b]) => [b, a]),
    );
    return view;
  },
};
