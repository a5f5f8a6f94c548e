/**
 * Deployment: one ReplicaSet per template (named `<deployment>-<pod-template-hash>`, the hash also
 * a label and selector term) scaled to `spec.replicas`; ReplicaSets of older templates are scaled to
 * zero (a rollout without surge, enough for a simulator).
 */
import { clone } from '../objects.ts';
import { templateHash } from './template-hash.ts';
import type { Workload } from './workload-types.ts';

export interface DeploymentPlan {
  /** ReplicaSets to create. */
  create: Workload[];
  /** Replica counts to set on existing ReplicaSets, by name. */
  scale: Record<string, number>;
  status: Record<string, unknown>;
}

export const TEMPLATE_HASH_LABEL = 'pod-template-hash';

export function planDeployment(deployment: Workload, owned: readonly Workload[]): DeploymentPlan {
  const hash = templateHash(deployment.spec.template);
  const want = deployment.spec.replicas ?? 1;
  const name = `${deployment.metadata.name}-${hash}`;
  const current = owned.find((rs) => rs.metadata.labels?.[TEMPLATE_HASH_LABEL] === hash);
  const create: Workload[] = [];
  const scale: Record<string, number> = {};
  if (!current) {
    const template = clone(deployment.spec.template);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [TEMPLATE_HASH_LABEL]: hash } };
    create.push({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: deployment.metadata.namespace,
        labels: { ...(deployment.spec.template.metadata?.labels ?? {}), [TEMPLATE_HASH_LABEL]: hash },
        annotations: { 'deployment.kubernetes.io/desired-replicas': String(want), 'deployment.kubernetes.io/revision': String(owned.length + 1) },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: deployment.metadata.name ?? '',
            uid: deployment.metadata.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        replicas: want,
        selector: { ...(deployment.spec.selector ?? {}), matchLabels: { ...(deployment.spec.selector?.matchLabels ?? {}), [TEMPLATE_HASH_LABEL]: hash } },
        template,
      },
    });
  } else if ((current.spec.replicas ?? 1) !== want) {
    scale[current.metadata.name ?? ''] = want;
  }
  for (const rs of owned) {
    if (rs !== current && (rs.spec.replicas ?? 1) !== 0) scale[rs.metadata.name ?? ''] = 0;
  }
  const st = (rs: Workload | undefined, key: string) => Number((rs?.status as Record<string, unknown> | undefined)?.[key] ?? 0);
  const replicas = owned.reduce((n, rs) => n + st(rs, 'replicas'), 0);
  const ready = owned.reduce((n, rs) => n + st(rs, 'readyReplicas'), 0);
  const updated = st(current, 'replicas');
  const available = owned.reduce((n, rs) => n + st(rs, 'availableReplicas'), 0);
  return {
    create,
    scale,
    status: {
      observedGeneration: deployment.metadata.generation ?? 1,
      replicas,
      updatedReplicas: updated,
      readyReplicas: ready,
      availableReplicas: available,
      unavailableReplicas: Math.max(0, want - available),
      conditions: [
        {
          type: 'Available',
          status: available >= want ? 'True' : 'False',
          reason: available >= want ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
          message: available >= want ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
        },
      ],
    },
  };
}
