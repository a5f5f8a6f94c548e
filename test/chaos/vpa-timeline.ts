/**
 * The VPAs and pods as a watch saw them over a run, so each audited action can be checked against
 * the VPA that governed its pod at that moment (invariants.ts). A record is one watch event with
 * the time it arrived; `vpaAt` finds the pod's controller (a ReplicaSet's Deployment by the
 * `pod-template-hash` label, a Job's CronJob by the name the CronJob controller gives its Jobs,
 * else the owner itself) and the VPA whose targetRef names it, both as last seen at or before the
 * time asked.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';

/** One watch event as it arrived. */
export interface WatchRecord<T> {
  readonly at: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: T;
}

type Named = { metadata?: { namespace?: string; name?: string } };
const keyOf = (o: Named) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/** Objects by namespace/name over time. */
export class ObjectTimeline<T extends Named> {
  private readonly byKey = new Map<string, WatchRecord<T>[]>();

  constructor(records: readonly WatchRecord<T>[]) {
    for (const r of [...records].sort((a, b) => a.at - b.at)) {
      const key = keyOf(r.object);
      const list = this.byKey.get(key) ?? [];
      list.push(r);
      this.byKey.set(key, list);
    }
  }

  /** The object as last seen at or before `at`; undefined if not yet seen or deleted (unless `deletedToo`). */
  at(key: string, at: number, deletedToo = false): T | undefined {
    let found: WatchRecord<T> | undefined;
    for (const r of this.byKey.get(key) ?? []) {
      if (r.at > at) break;
      found = r;
    }
    if (!found || (found.type === 'DELETED' && !deletedToo)) return undefined;
    return found.object;
  }

  /** Every object ever seen in `namespace`, as last seen at or before `at` (not deleted). */
  inNamespace(namespace: string, at: number): T[] {
    const out: T[] = [];
    for (const key of this.byKey.keys()) {
      if (!key.startsWith(`${namespace}/`)) continue;
      const o = this.at(key, at);
      if (o) out.push(o);
    }
    return out;
  }
}

/** The controller a pod belongs to, as a VPA's targetRef names it (kind, name). */
export function podController(pod: V1Pod): { kind: string; name: string } | undefined {
  const owner = pod.metadata?.ownerReferences?.find((o) => o.controller) ?? pod.metadata?.ownerReferences?.[0];
  if (!owner) return undefined;
  const hash = pod.metadata?.labels?.['pod-template-hash'];
  if (owner.kind === 'ReplicaSet' && hash && owner.name.endsWith(`-${hash}`)) return { kind: 'Deployment', name: owner.name.slice(0, -hash.length - 1) };
  return { kind: owner.kind, name: owner.name };
}

/**
 * The CronJob that made a Job, by the name the CronJob controller gives each Job: the CronJob's
 * name, a dash and the scheduled time in minutes (`cron-29944690` of CronJob `cron`). The watch does
 * not record Jobs, so their owner references are not at hand; a VPA naming the Job itself wins.
 */
export function cronJobOf(controller: { kind: string; name: string }): { kind: string; name: string } | undefined {
  const m = controller.kind === 'Job' ? /^(.+)-\d{8,}$/.exec(controller.name) : null;
  return m ? { kind: 'CronJob', name: m[1]! } : undefined;
}

/**
 * The VPA in control where several name one workload, as Tailor decides it (decision 0277): the
 * oldest creationTimestamp, then the name that sorts first. A younger one (a hostile VPA on a lane
 * workload) governs nothing.
 */
function oldest(vpas: readonly VerticalPodAutoscaler[]): VerticalPodAutoscaler | undefined {
  const time = (v: VerticalPodAutoscaler) => new Date(v.metadata.creationTimestamp ?? 0).getTime();
  const name = (v: VerticalPodAutoscaler) => v.metadata.name ?? '';
  return [...vpas].sort((a, b) => time(a) - time(b) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0))[0];
}

/** `vpaAt` for invariants.ts from the watches' records of pods and VPAs. */
export function vpaLookup(pods: ObjectTimeline<V1Pod>, vpas: ObjectTimeline<VerticalPodAutoscaler>) {
  return (namespace: string, pod: string, at: number): VerticalPodAutoscaler | undefined => {
    const seen = pods.at(`${namespace}/${pod}`, at, true);
    const controller = seen && podController(seen);
    if (!controller) return undefined;
    const all = vpas.inNamespace(namespace, at);
    for (const c of [controller, cronJobOf(controller)]) {
      const vpa = c && oldest(all.filter((v) => v.spec.targetRef?.kind === c.kind && v.spec.targetRef?.name === c.name));
      if (vpa) return vpa;
    }
    return undefined;
  };
}
