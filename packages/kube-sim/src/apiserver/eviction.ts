/**
 * `POST pods/{name}/eviction` (policy/v1 Eviction), as the real eviction REST handler decides:
 * - a pod that is Succeeded, Failed, Pending or already terminating is deleted without a budget check;
 * - no PDB selects the pod: the pod is deleted;
 * - more than one PDB selects it: 500, as the real server does not support that;
 * - the PDB allows no disruption: 429 TooManyRequests "Cannot evict pod as it would violate the
 *   pod's disruption budget." with a `DisruptionBudget` cause "The disruption budget web needs 2
 *   healthy pods and has 2 currently";
 * - otherwise `disruptionsAllowed` is decremented and the pod deleted (201 with a Success Status).
 * An unhealthy (not Ready) pod may be evicted when the budget is met (IfHealthyBudget) or always
 * (`unhealthyPodEvictionPolicy: AlwaysAllow`). Admission (CREATE on pods/eviction) runs first.
 */
import type { AdmissionChain } from './admission.ts';
import { ApiError, badRequest, tooManyRequests } from './api-error.ts';
import type { DisruptionController } from './disruption-controller.ts';
import { isPodHealthy, pdbSelectsPod } from './disruption-budget.ts';
import type { ObjectStore } from './object-store.ts';
import { deletePod } from './pod-deletion.ts';
import type { SubresourceHandler } from './subresource.ts';
import { isPlainObject, type KubeObject } from './types.ts';

const PDB_KEY = 'poddisruptionbudgets.policy';

/** The Success Status the real eviction returns. */
function success(): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}

/** The pods/eviction handler. */
export function evictionSubresource(deps: {
  store: ObjectStore;
  admission: AdmissionChain;
  disruption: DisruptionController;
  gracefulPodDeletion: () => boolean;
}): SubresourceHandler {
  return {
    discovery: { kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
    async create({ request, type, current, body, now }) {
      if (!isPlainObject(body)) throw badRequest('the body of the request is not a JSON object');
      const eviction = body as KubeObject;
      const name = request.name ?? '';
      const ns = request.namespace ?? '';
      if (isPlainObject(eviction.metadata) && eviction.metadata.name && eviction.metadata.name !== name) {
        throw badRequest('name in URL does not match name in Eviction object');
      }
      await deps.admission.mutate({
        operation: 'CREATE',
        type,
        group: '',
        version: request.version,
        resource: 'pods',
        subresource: 'eviction',
        namespace: ns,
        name,
        object: eviction,
        oldObject: undefined,
        user: request.user,
        dryRun: request.query['dryRun'] === 'All',
        options: undefined,
        warnings: request.warnings ?? [],
      });
      await deps.admission.validate({
        operation: 'CREATE',
        type,
        group: '',
        version: request.version,
        resource: 'pods',
        subresource: 'eviction',
        namespace: ns,
        name,
        object: eviction,
        oldObject: undefined,
        user: request.user,
        dryRun: request.query['dryRun'] === 'All',
        options: undefined,
        warnings: request.warnings ?? [],
      });
      const deleteOptions = isPlainObject(eviction['deleteOptions']) ? (eviction['deleteOptions'] as Record<string, unknown>) : {};
      const preconditions = isPlainObject(deleteOptions['preconditions'])
        ? (deleteOptions['preconditions'] as { uid?: string; resourceVersion?: string })
        : undefined;
      const remove = (): void => {
        if (request.query['dryRun'] === 'All') return;
        const grace = typeof deleteOptions['gracePeriodSeconds'] === 'number' ? deleteOptions['gracePeriodSeconds'] : undefined;
        deletePod(
          deps.store,
          ns,
          name,
          { ...(preconditions ? { preconditions } : {}), ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}) },
          now,
          deps.gracefulPodDeletion(),
        );
      };
      const phase = (current.status as { phase?: string } | undefined)?.phase;
      if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || current.metadata.deletionTimestamp) {
        remove();
        return { status: 201, body: success() };
      }
      const pdbs = deps.store.list(PDB_KEY, ns).filter((pdb) => pdbSelectsPod(pdb, current));
      if (pdbs.length === 0) {
        remove();
        return { status: 201, body: success() };
      }
      if (pdbs.length > 1) {
        throw new ApiError(500, 'InternalError', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
      }
      const pdbName = (pdbs[0] as KubeObject).metadata.name ?? '';
      const pdb = deps.disruption.recompute(ns, pdbName) as KubeObject;
      const status = (pdb.status ?? {}) as { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number };
      const policy = (pdb.spec as { unhealthyPodEvictionPolicy?: string } | undefined)?.unhealthyPodEvictionPolicy ?? 'IfHealthyBudget';
      const healthy = isPodHealthy(current);
      if (!healthy && (policy === 'AlwaysAllow' || (status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0))) {
        remove();
        return { status: 201, body: success() };
      }
      if ((status.disruptionsAllowed ?? 0) <= 0) {
        throw tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0, [
          {
            reason: 'DisruptionBudget',
            message: `The disruption budget ${pdbName} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`,
          },
        ]);
      }
      if (request.query['dryRun'] !== 'All') {
        deps.store.mutate(PDB_KEY, ns, pdbName, (draft) => {
          const s = (draft.status ?? {}) as Record<string, unknown>;
          s['disruptionsAllowed'] = Number(s['disruptionsAllowed'] ?? 0) - 1;
          draft.status = s;
        });
      }
      remove();
      deps.disruption.recompute(ns, pdbName);
      return { status: 201, body: success() };
    },
  };
}
