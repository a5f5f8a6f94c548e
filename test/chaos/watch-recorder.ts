/**
 * Records what a watch of every pod and every VPA saw, with the time each event arrived, as JSON
 * lines (`{"at", "resource", "type", "object"}`) for the chaos checker (vpa-timeline.ts). Lists first
 * (each object as ADDED), then watches from the list's resourceVersion; when a watch ends (the API
 * server closes them every few minutes, or restarts) it lists and watches again, so a restart of the
 * API server or etcd costs a re-list, not a gap.
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import type { WatchRecord } from './vpa-timeline.ts';

/** The resources recorded: their list path and the name the records give them. */
export const RECORDED = {
  pods: '/api/v1/pods',
  vpas: '/apis/autoscaling.k8s.io/v1/verticalpodautoscalers',
} as const;
export type RecordedResource = keyof typeof RECORDED;

/** One line of the record. */
export interface RecordLine extends WatchRecord<unknown> {
  readonly resource: RecordedResource;
}

/** Splits a record's lines by resource (lines that do not parse are skipped and counted). */
export function readRecord(text: string): { pods: WatchRecord<k8s.V1Pod>[]; vpas: WatchRecord<VerticalPodAutoscaler>[]; unreadable: number } {
  const out = { pods: [] as WatchRecord<k8s.V1Pod>[], vpas: [] as WatchRecord<VerticalPodAutoscaler>[], unreadable: 0 };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as RecordLine;
      if (r.resource === 'pods') out.pods.push(r as WatchRecord<k8s.V1Pod>);
      else if (r.resource === 'vpas') out.vpas.push(r as WatchRecord<VerticalPodAutoscaler>);
    } catch {
      out.unreadable += 1;
    }
  }
  return out;
}

/** Starts recording into `file`; `stop()` ends it. `now` is the clock the records are stamped with. */
export function recordWatches(kc: k8s.KubeConfig, file: string, now: () => number = Date.now): { stop: () => void } {
  let stopped = false;
  const aborts = new Set<AbortController>();
  const write = (resource: RecordedResource, type: RecordLine['type'], object: unknown) =>
    appendFileSync(file, `${JSON.stringify({ at: now(), resource, type, object })}\n`);

  const core = kc.makeApiClient(k8s.CoreV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const list = async (resource: RecordedResource): Promise<{ metadata?: { resourceVersion?: string }; items?: unknown[] }> =>
    resource === 'pods'
      ? core.listPodForAllNamespaces()
      : ((await custom.listClusterCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' })) as {
          metadata?: { resourceVersion?: string };
          items?: unknown[];
        });

  async function follow(resource: RecordedResource): Promise<void> {
    const watch = new k8s.Watch(kc);
    while (!stopped) {
      try {
        const listed = await list(resource);
        for (const item of listed.items ?? []) write(resource, 'ADDED', item);
        await new Promise<void>((done) => {
          void watch
            .watch(
              RECORDED[resource],
              { resourceVersion: listed.metadata?.resourceVersion, allowWatchBookmarks: false },
              (type, object) => {
                if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') write(resource, type, object);
              },
              () => done(),
            )
            .then(
              (controller) => aborts.add(controller),
              () => done(),
            );
        });
      } catch {
        // The API server is down (a fault of the run): try again shortly.
      }
      if (!stopped) await sleep(1000);
    }
  }
  void follow('pods');
  void follow('vpas');
  return {
    stop() {
      stopped = true;
      for (const a of aborts) a.abort();
    },
  };
}
