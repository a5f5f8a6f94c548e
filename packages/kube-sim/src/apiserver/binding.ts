/**
 * `POST pods/{name}/binding` (what a scheduler calls): sets `spec.nodeName` and the
 * `PodScheduled` condition, without bumping `metadata.generation` (the real binding storage writes
 * the pod outside the pod update strategy: a scheduled pod stays at generation 1). A pod already on a node is 409 Conflict
 * `Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "n1"`.
 */
import { ApiError, badRequest } from './api-error.ts';
import type { SubresourceHandler } from './subresource.ts';
import { toRfc3339 } from './object-store.ts';
import { isPlainObject } from './types.ts';

/** The pods/binding handler. */
export const bindingSubresource: SubresourceHandler = {
  discovery: { kind: 'Binding', verbs: ['create'] },
  create({ request, current, store, now, body }) {
    const target = isPlainObject(body) && isPlainObject(body['target']) ? (body['target'] as { kind?: string; name?: string }) : undefined;
    if (!target?.name) throw badRequest('Binding.target.name is required');
    if (target.kind && target.kind !== 'Node') throw badRequest('Binding.target.kind must be Node');
    const name = request.name ?? '';
    const node = (current.spec as { nodeName?: string } | undefined)?.nodeName;
    if (node) {
      throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "${node}"`, {
        name,
        group: '',
        kind: 'pods/binding',
      });
    }
    store.mutate(
      'pods',
      request.namespace ?? '',
      name,
      (draft) => {
        (draft.spec as Record<string, unknown>)['nodeName'] = target.name;
        const status = (draft.status ?? {}) as { conditions?: Record<string, unknown>[] };
        const conditions = (status.conditions ?? []).filter((c) => c['type'] !== 'PodScheduled');
        conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: toRfc3339(now) });
        draft.status = { ...status, conditions };
      },
      { keepGeneration: true },
    );
    return { status: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
  },
};
