/**
 * Giving a start-up CPU boost back (policy/startup-boost.ts): for a pod the webhook boosted (its
 * annotation `tailor.dev/startup-cpu-boost-record` holds the steady CPU), while the boost lasts
 * the pod waits (`Wait StartupBoost`: no other change either, its usage is not steady yet); once
 * it has ended, one in-place resize returns each boosted container's CPU request (and limit:
 * a Guaranteed container's limit moves with its request) to the steady values. The webhook boosts
 * only containers with cpu resizePolicy NotRequired, so the return never restarts anything. A
 * container already back at (or moved away from) its boosted value is left to the usual rules.
 * Containers with their own end (upstream 1.8's per-container `startupBoost`) are given back each
 * at its end; the pod waits while none of the remaining ones has ended. Pure.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerResourceValues } from '../policy/container-values.ts';
import { boostEndsAt, containerBoostEnd, formatBoostEnd, podReadyTime, readBoostRecord } from '../policy/startup-boost.ts';
import type { ContainerChange } from './decision.ts';

/** What the boost means for the pod now. */
export type BoostStep =
  | { kind: 'none' }
  | { kind: 'active'; message: string }
  | { kind: 'return'; changes: ContainerChange[]; message: string }
  | { kind: 'unreadable'; message: string };

/** The boost's step for the pod, given its actual values by container. */
export function boostStep(pod: V1Pod, actual: ReadonlyMap<string, ContainerResourceValues>, startedAt: number | undefined, now: number): BoostStep {
  const record = readBoostRecord(pod.metadata?.annotations);
  if (record === undefined) return { kind: 'none' };
  if ('error' in record) return { kind: 'unreadable', message: record.error };
  const changes: ContainerChange[] = [];
  const ended = new Set<string>();
  let waiting: string | undefined;
  const ready = podReadyTime(pod);
  for (const [name, steady] of Object.entries(record.containers)) {
    const from = actual.get(name);
    const cpu = from?.requests.cpu;
    if (!from || cpu === undefined || cpu <= steady.request) continue; // given back already, or lowered since
    const end = containerBoostEnd(record, name);
    const until = formatBoostEnd(end);
    const endsAt = boostEndsAt(end, startedAt, ready);
    if (endsAt === undefined || now < endsAt) {
      waiting ??=
        endsAt === undefined
          ? `start-up cpu boost until ${until}: the pod ${end.kind === 'ready' ? 'is not Ready yet' : 'has no start time yet'}`
          : `start-up cpu boost until ${until}: ${Math.ceil((endsAt - now) / 1000)} s left`;
      continue;
    }
    const to: ContainerResourceValues = { requests: { ...from.requests, cpu: steady.request }, limits: { ...from.limits } };
    if (from.limits.cpu !== undefined) to.limits.cpu = from.limits.cpu === cpu ? steady.request : Math.min(from.limits.cpu, steady.limit ?? from.limits.cpu);
    changes.push({ containerName: name, kind: 'container', from, to, resources: ['cpu'], restart: false });
    ended.add(until);
  }
  if (changes.length === 0) return waiting === undefined ? { kind: 'none' } : { kind: 'active', message: waiting };
  const still = waiting === undefined ? '' : `; still boosted: ${waiting}`;
  return {
    kind: 'return',
    changes,
    message: `start-up cpu boost over (${[...ended].join(' / ')}): cpu back to the steady values${changes.length < Object.keys(record.containers).length ? ` for ${changes.map((c) => c.containerName).join(', ')}` : ''}${still}`,
  };
}
