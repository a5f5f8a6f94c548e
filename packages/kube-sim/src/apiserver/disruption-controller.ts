/**
 * Keeps `status` of every PodDisruptionBudget current (the disruption controller's job): after
 * changes to pods, PDBs or workloads in a namespace, the affected PDBs are recomputed on the next
 * tick (many changes coalesce into one recomputation). Eviction recomputes synchronously before
 * deciding, so it never acts on a stale budget.
 */
import type { ObjectStore } from './object-store.ts';
import { toRfc3339 } from './object-store.ts';
import { computeDisruptionStatus, pdbSelectsPod, type ControllerLookup } from './disruption-budget.ts';
import type { KubeObject } from './types.ts';

const PDB_KEY = 'poddisruptionbudgets.policy';

/** Resolves pods to their top-level workload's replicas through ownerReferences. */
export function storeControllerLookup(store: ObjectStore): ControllerLookup {
  return {
    replicasOfController(pod) {
      const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
      if (!owner) return undefined;
      const ns = pod.metadata.namespace ?? '';
      const replicas = (obj: KubeObject | undefined): number => Number((obj?.spec as { replicas?: number } | undefined)?.replicas ?? 0);
      if (owner.kind === 'ReplicaSet') {
        const rs = store.get('replicasets.apps', ns, owner.name);
        const top = (rs?.metadata.ownerReferences ?? []).find((o) => o.controller && o.kind === 'Deployment');
        if (top) {
          const deployment = store.get('deployments.apps', ns, top.name);
          if (deployment) return { uid: deployment.metadata.uid ?? top.uid, replicas: replicas(deployment) };
        }
        return rs ? { uid: rs.metadata.uid ?? owner.uid, replicas: replicas(rs) } : undefined;
      }
      if (owner.kind === 'StatefulSet') {
        const sts = store.get('statefulsets.apps', ns, owner.name);
        return sts ? { uid: sts.metadata.uid ?? owner.uid, replicas: replicas(sts) } : undefined;
      }
      return undefined;
    },
  };
}

/** The disruption controller. */
export class DisruptionController {
  private readonly dirty = new Set<string>();
  private scheduled = false;
  private stops: (() => void)[] = [];
  private readonly lookup: ControllerLookup;

  constructor(
    private readonly store: ObjectStore,
    private readonly now: () => number,
  ) {
    this.lookup = storeControllerLookup(store);
  }

  /** Subscribes to changes and computes every PDB once. */
  start(): void {
    this.stops.push(
      this.store.subscribe('pods', (e) => {
        const ns = e.object.metadata.namespace ?? '';
        for (const pdb of this.store.list(PDB_KEY, ns)) {
          if (pdbSelectsPod(pdb, e.object) || (e.oldObject && pdbSelectsPod(pdb, e.oldObject))) this.mark(pdb);
        }
      }),
      this.store.subscribe(PDB_KEY, (e) => {
        if (e.type !== 'DELETED') this.mark(e.object);
      }),
    );
    for (const key of ['deployments.apps', 'replicasets.apps', 'statefulsets.apps']) {
      this.stops.push(
        this.store.subscribe(key, (e) => {
          for (const pdb of this.store.list(PDB_KEY, e.object.metadata.namespace ?? '')) this.mark(pdb);
        }),
      );
    }
    for (const pdb of this.store.list(PDB_KEY)) this.mark(pdb);
  }

  /** Unsubscribes. */
  stop(): void {
    for (const s of this.stops) s();
    this.stops = [];
  }

  private mark(pdb: KubeObject): void {
    this.dirty.add(`${pdb.metadata.namespace ?? ''}/${pdb.metadata.name ?? ''}`);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const keys = [...this.dirty];
      this.dirty.clear();
      for (const key of keys) {
        const [ns, name] = key.split('/') as [string, string];
        this.recompute(ns, name);
      }
    });
  }

  /** Recomputes one PDB's status now; returns the stored PDB (undefined if gone). */
  recompute(namespace: string, name: string): KubeObject | undefined {
    const pdb = this.store.get(PDB_KEY, namespace, name);
    if (!pdb) return undefined;
    const computed = computeDisruptionStatus(pdb, this.store.list('pods', namespace), this.lookup);
    const old = (pdb.status ?? {}) as Record<string, unknown>;
    const allowed = computed.disruptionsAllowed > 0;
    const oldCondition = ((old['conditions'] as { type: string; status: string; lastTransitionTime?: string }[] | undefined) ?? []).find(
      (c) => c.type === 'DisruptionAllowed',
    );
    const conditionStatus = allowed ? 'True' : 'False';
    const condition = {
      type: 'DisruptionAllowed',
      status: conditionStatus,
      reason: computed.error ? 'SyncFailed' : allowed ? 'SufficientPods' : 'InsufficientPods',
      message: computed.error ?? '',
      observedGeneration: pdb.metadata.generation ?? 1,
      lastTransitionTime:
        oldCondition && oldCondition.status === conditionStatus && oldCondition.lastTransitionTime ? oldCondition.lastTransitionTime : toRfc3339(this.now()),
    };
    const status: Record<string, unknown> = {
      observedGeneration: pdb.metadata.generation ?? 1,
      disruptionsAllowed: computed.disruptionsAllowed,
      currentHealthy: computed.currentHealthy,
      desiredHealthy: computed.desiredHealthy,
      expectedPods: computed.expectedPods,
      conditions: [condition],
    };
    if (old['disruptedPods']) status['disruptedPods'] = old['disruptedPods'];
    return this.store.mutate(PDB_KEY, namespace, name, (draft) => {
      draft.status = status;
    });
  }
}
