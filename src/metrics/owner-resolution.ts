/**
 * Pure resolution of pods to their top-most workload from kube-state-metrics owner links:
 * Pod -> ReplicaSet -> Deployment, Pod -> Job -> CronJob, Pod -> StatefulSet / DaemonSet / ...
 * A pod without an owner is its own workload (kind Pod); a ReplicaSet or Job without a known owner
 * is the workload itself.
 */
import type { OwnerLink } from './metrics-source.ts';

/** A workload as the report names it. */
export interface WorkloadRef {
  kind: string;
  name: string;
}

/** Owner graph of a set of namespaces. */
export class OwnerIndex {
  private readonly links = new Map<string, { kind: string; name: string }>();

  constructor(links: readonly OwnerLink[]) {
    // Sorted so that, when kube-state-metrics reports two owners, the choice is deterministic.
    const sorted = [...links].sort((a, b) => `${a.ownerKind}/${a.ownerName}`.localeCompare(`${b.ownerKind}/${b.ownerName}`));
    for (const link of sorted) {
      if (link.ownerKind === '' || link.ownerKind === '<none>' || link.ownerName === '' || link.ownerName === '<none>') continue;
      const id = `${link.namespace}/${link.kind}/${link.name}`;
      if (!this.links.has(id)) this.links.set(id, { kind: link.ownerKind, name: link.ownerName });
    }
  }

  /** The top-most workload of a pod; `Pod/<name>` when it has no owner. */
  workloadOf(namespace: string, pod: string): WorkloadRef {
    // The end of chainOf's chain, without building it: this runs once per series of every answer.
    let current: WorkloadRef = { kind: 'Pod', name: pod };
    for (let depth = 0; depth < 5 && this.links.size > 0; depth++) {
      const owner = this.links.get(`${namespace}/${current.kind}/${current.name}`);
      if (!owner) break;
      current = owner;
    }
    return current;
  }

  /**
   * The pod and its owners up the chain, e.g. `[Pod/web-7c9-x, ReplicaSet/web-7c9, Deployment/web]`
   * (at most 5 owners).
   */
  chainOf(namespace: string, pod: string): WorkloadRef[] {
    const chain: WorkloadRef[] = [{ kind: 'Pod', name: pod }];
    for (let depth = 0; depth < 5; depth++) {
      const current = chain[chain.length - 1]!;
      const owner = this.links.get(`${namespace}/${current.kind}/${current.name}`);
      if (!owner) break;
      chain.push(owner);
    }
    return chain;
  }

  /** Every pod with an owner link, as `{ namespace, pod }`. */
  pods(): Array<{ namespace: string; pod: string }> {
    const out: Array<{ namespace: string; pod: string }> = [];
    for (const id of this.links.keys()) {
      const [namespace, kind, ...rest] = id.split('/');
      if (kind === 'Pod') out.push({ namespace: namespace!, pod: rest.join('/') });
    }
    return out;
  }
}
