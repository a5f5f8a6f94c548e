/**
 * A new pod from a workload's template: the template's labels and annotations, the owner as
 * controlling ownerReference, and either a fixed name (StatefulSet) or `generateName`.
 */
import { clone, type Pod } from '../objects.ts';
import type { Workload } from './workload-types.ts';

export interface PodNaming {
  name?: string;
  generateName?: string;
  extraLabels?: Record<string, string>;
  nodeName?: string;
}

export function podFromTemplate(owner: Workload, naming: PodNaming): Pod {
  const template = clone(owner.spec.template);
  const apiVersion = owner.apiVersion ?? (owner.kind === 'Job' ? 'batch/v1' : 'apps/v1');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(naming.name ? { name: naming.name } : { generateName: naming.generateName ?? `${owner.metadata.name}-` }),
      namespace: owner.metadata.namespace,
      labels: { ...(template.metadata?.labels ?? {}), ...(naming.extraLabels ?? {}) },
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [
        {
          apiVersion,
          kind: owner.kind ?? 'ReplicaSet',
          name: owner.metadata.name ?? '',
          uid: owner.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { ...template.spec, ...(naming.nodeName ? { nodeName: naming.nodeName } : {}) },
  };
}
