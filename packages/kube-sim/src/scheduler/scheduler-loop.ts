/**
 * The scheduler loop: every pending pod without a node is bound (through `pods/binding`) to the
 * node `placePod` picks (event `Scheduled`), or left Pending with `PodScheduled=False, reason Unschedulable` and a
 * `FailedScheduling` event carrying the scheduler's message (recorded again only when it changes).
 */
import type { ClusterHost } from '../cluster-host.ts';
import type { EventRecorder } from '../events/event-recorder.ts';
import type { NodeObject, Pod } from '../objects.ts';
import { setCondition } from '../kubelet/conditions.ts';
import { podRef } from '../kubelet/kubelet-event.ts';
import { addToUsage, nodeUsage, placePod } from './place-pod.ts';
import type { Logger } from '../logger.ts';
import { neverYield, type MaybeYield } from '../time-slicer.ts';

export async function runScheduler(host: ClusterHost, events: EventRecorder, now: number, logger: Logger, maybeYield: MaybeYield = neverYield): Promise<void> {
  const store = host.store;
  const nodes = store.list('nodes') as unknown as NodeObject[];
  const pods = store.list('pods') as unknown as Pod[];
  let usage: ReturnType<typeof nodeUsage> | undefined;
  for (const pod of pods) {
    if (pod.spec.nodeName || pod.metadata.deletionTimestamp || (pod.status?.phase && pod.status.phase !== 'Pending')) continue;
    if (((pod.spec.schedulingGates as unknown[] | undefined) ?? []).length > 0) continue;
    await maybeYield();
    const ns = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    // The pod may have gone or been bound by someone else while the pass yielded.
    const latest = store.get('pods', ns, name) as unknown as Pod | undefined;
    if (!latest || latest.metadata.uid !== pod.metadata.uid || latest.spec.nodeName) continue;
    try {
      usage ??= nodeUsage(pods);
      const placement = placePod(pod, nodes, pods, usage);
      if (placement.node !== undefined) {
        const node = placement.node;
        await host.bind(ns, name, node);
        addToUsage(usage, pod, node);
        events.record({
          type: 'Normal',
          reason: 'Scheduled',
          message: `Successfully assigned ${ns}/${name} to ${node}`,
          involvedObject: podRef(pod),
          component: 'default-scheduler',
        });
        continue;
      }
      const previous = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
      if (previous?.status === 'False' && previous.message === placement.message) continue;
      store.mutate('pods', ns, name, (draft) => {
        const d = draft as unknown as Pod;
        d.status = setCondition(
          { phase: 'Pending', ...(d.status ?? {}) },
          { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: placement.message },
          now,
        );
      });
      events.record({ type: 'Warning', reason: 'FailedScheduling', message: placement.message, involvedObject: podRef(pod), component: 'default-scheduler' });
    } catch (err) {
      logger.warn({ err, pod: name }, 'scheduler could not place pod');
    }
  }
}
