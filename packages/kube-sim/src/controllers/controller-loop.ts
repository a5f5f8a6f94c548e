/**
 * The workload controllers' loop: for every Deployment, ReplicaSet, StatefulSet, DaemonSet and Job
 * it runs the pure reconciler and carries out the result. Pods (and a Deployment's ReplicaSets) are
 * created through the API server's create path, so admission webhooks see them as they would see
 * a real controller's pods; deletes, scale changes and status writes go to the store directly.
 * A failed create is recorded as a `FailedCreate` warning on the owner, as the real controllers do.
 */
import type { ClusterHost, StoredObject } from '../cluster-host.ts';
import type { EventRecorder } from '../events/event-recorder.ts';
import type { NodeObject, Pod } from '../objects.ts';
import type { Logger } from '../logger.ts';
import { rfc3339 } from '../kubelet/conditions.ts';
import { planDeployment } from './deployment-controller.ts';
import { reconcileReplicaSet } from './replicaset-controller.ts';
import { reconcileStatefulSet } from './statefulset-controller.ts';
import { reconcileDaemonSet } from './daemonset-controller.ts';
import { reconcileJob } from './job-controller.ts';
import { type ReconcileResult, type Workload } from './workload-types.ts';
import { neverYield, type MaybeYield } from '../time-slicer.ts';
import type { ObjectMeta } from '../objects.ts';

/** Groups objects by the uid of their controller owner reference (one pass, instead of a filter per owner). */
function byController<T extends { metadata: ObjectMeta }>(objects: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const o of objects) {
    const uid = (o.metadata.ownerReferences ?? []).find((r) => r.controller)?.uid;
    if (uid === undefined) continue;
    let list = out.get(uid);
    if (!list) out.set(uid, (list = []));
    list.push(o);
  }
  return out;
}

const COMPONENT: Record<string, string> = {
  ReplicaSet: 'replicaset-controller',
  StatefulSet: 'statefulset-controller',
  DaemonSet: 'daemonset-controller',
  Job: 'job-controller',
  Deployment: 'deployment-controller',
};

export class ControllerLoop {
  constructor(
    private readonly host: ClusterHost,
    private readonly events: EventRecorder,
    private readonly logger: Logger,
  ) {}

  /**
   * One pass over all workloads at simulated time `now`; `maybeYield` is awaited before each
   * workload so a long pass lets the event loop serve requests. Linear in the objects: pods and
   * ReplicaSets are grouped by controller once (a filter per owner was 1,000 x 2,000 checks a pass).
   */
  async sync(now: number, maybeYield: MaybeYield = neverYield): Promise<void> {
    const store = this.host.store;
    const podsByOwner = byController(store.list('pods') as unknown as Pod[]);
    const owned = (owner: Workload) => podsByOwner.get(owner.metadata.uid ?? '') ?? [];
    const replicaSetsByOwner = byController(store.list('replicasets.apps') as unknown as Workload[]);
    for (const d of store.list('deployments.apps') as unknown as Workload[]) {
      await maybeYield();
      if (!this.stillCurrent('deployments.apps', d)) continue;
      const replicaSets = replicaSetsByOwner.get(d.metadata.uid ?? '') ?? [];
      const plan = planDeployment({ ...d, kind: 'Deployment' }, replicaSets);
      for (const rs of plan.create) await this.createOrWarn(rs as unknown as StoredObject, d);
      for (const [name, replicas] of Object.entries(plan.scale)) {
        try {
          store.mutate('replicasets.apps', d.metadata.namespace ?? '', name, (draft) => {
            (draft.spec as { replicas?: number }).replicas = replicas;
            const annotations = ((draft.metadata as { annotations?: Record<string, string> }).annotations ??= {});
            annotations['deployment.kubernetes.io/desired-replicas'] = String(replicas);
          });
        } catch (err) {
          this.logger.warn({ err, replicaset: name }, 'deployment controller could not scale a ReplicaSet');
        }
      }
      this.writeStatus('deployments.apps', d, plan.status);
    }
    // ReplicaSets are listed again: the Deployments above may have created or scaled some.
    for (const rs of store.list('replicasets.apps') as unknown as Workload[]) {
      await maybeYield();
      if (this.stillCurrent('replicasets.apps', rs))
        await this.apply('replicasets.apps', { ...rs, kind: 'ReplicaSet' }, reconcileReplicaSet({ ...rs, kind: 'ReplicaSet' }, owned(rs)));
    }
    for (const sts of store.list('statefulsets.apps') as unknown as Workload[]) {
      await maybeYield();
      if (this.stillCurrent('statefulsets.apps', sts))
        await this.apply('statefulsets.apps', { ...sts, kind: 'StatefulSet' }, reconcileStatefulSet(sts, owned(sts)));
    }
    const nodes = store.list('nodes') as unknown as NodeObject[];
    for (const ds of store.list('daemonsets.apps') as unknown as Workload[]) {
      await maybeYield();
      if (this.stillCurrent('daemonsets.apps', ds)) await this.apply('daemonsets.apps', { ...ds, kind: 'DaemonSet' }, reconcileDaemonSet(ds, owned(ds), nodes));
    }
    for (const job of store.list('jobs.batch') as unknown as Workload[]) {
      await maybeYield();
      if (this.stillCurrent('jobs.batch', job)) await this.apply('jobs.batch', { ...job, kind: 'Job' }, reconcileJob(job, owned(job), rfc3339(now)));
    }
  }

  /** False when the workload was deleted or changed while the pass yielded (the next pass sees the new one). */
  private stillCurrent(resource: string, w: Workload): boolean {
    const latest = this.host.store.get(resource, w.metadata.namespace ?? '', w.metadata.name ?? '');
    return latest?.metadata.resourceVersion === w.metadata.resourceVersion;
  }

  private async apply(resource: string, owner: Workload, result: ReconcileResult): Promise<void> {
    for (const pod of result.create) await this.createOrWarn(pod as unknown as StoredObject, owner);
    for (const name of result.delete) {
      try {
        this.host.store.delete('pods', owner.metadata.namespace ?? '', name);
        this.events.record({
          type: 'Normal',
          reason: 'SuccessfulDelete',
          message: `Deleted pod: ${name}`,
          involvedObject: this.ref(owner),
          component: COMPONENT[owner.kind ?? ''] ?? 'controller',
        });
      } catch (err) {
        this.logger.warn({ err, pod: name }, 'controller could not delete pod');
      }
    }
    this.writeStatus(resource, owner, result.status);
  }

  private async createOrWarn(obj: StoredObject, owner: Workload): Promise<void> {
    const component = COMPONENT[owner.kind ?? ''] ?? 'controller';
    try {
      const created = await this.host.create(obj);
      this.events.record({
        type: 'Normal',
        reason: 'SuccessfulCreate',
        message: `Created ${obj.kind === 'Pod' ? 'pod' : String(obj.kind)}: ${created.metadata.name ?? ''}`,
        involvedObject: this.ref(owner),
        component,
      });
    } catch (err) {
      this.logger.warn({ err, owner: owner.metadata.name }, 'controller could not create object');
      this.events.record({
        type: 'Warning',
        reason: 'FailedCreate',
        message: `Error creating: ${(err as Error).message}`,
        involvedObject: this.ref(owner),
        component,
      });
    }
  }

  private writeStatus(resource: string, owner: Workload, status: Record<string, unknown>): void {
    const current = (owner.status ?? {}) as Record<string, unknown>;
    const merged = { ...current, ...status };
    if (JSON.stringify(merged) === JSON.stringify(current)) return;
    try {
      this.host.store.mutate(resource, owner.metadata.namespace ?? '', owner.metadata.name ?? '', (draft) => {
        draft.status = { ...((draft.status ?? {}) as Record<string, unknown>), ...status };
      });
    } catch (err) {
      this.logger.warn({ err, owner: owner.metadata.name }, 'controller could not write status');
    }
  }

  private ref(owner: Workload) {
    return {
      kind: owner.kind ?? '',
      apiVersion: owner.apiVersion,
      name: owner.metadata.name ?? '',
      namespace: owner.metadata.namespace,
      uid: owner.metadata.uid,
    };
  }
}
