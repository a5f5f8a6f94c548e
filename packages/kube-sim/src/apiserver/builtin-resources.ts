/**
 * The built-in kinds kube-sim serves, with the names, short names and subresources a real
 * 1.32-1.35 server lists in discovery.
 */
import { eventsV1Conversion } from './event-conversion.ts';
import type { ResourceType } from './resource-type.ts';

interface BuiltinSpec {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  status?: boolean;
  scale?: boolean;
  categories?: string[];
  /** Create-only review kinds that are answered, never stored. */
  virtual?: boolean;
}

// prettier-ignore: one row per line, read as a table
const SPECS: BuiltinSpec[] = [
  { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false, shortNames: ['ns'], status: true },
  { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, shortNames: ['no'], status: true },
  { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true, shortNames: ['po'], status: true, categories: ['all'] },
  { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] },
  { group: '', version: 'v1', kind: 'LimitRange', plural: 'limitranges', namespaced: true, shortNames: ['limits'] },
  { group: '', version: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', namespaced: true, shortNames: ['quota'], status: true },
  { group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true, shortNames: ['sa'] },
  { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] },
  { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true, shortNames: ['svc'], status: true, categories: ['all'] },
  { group: '', version: 'v1', kind: 'Endpoints', plural: 'endpoints', namespaced: true, shortNames: ['ep'] },
  // Stored only (no controller): served because upstream's VPA components list and watch it and wait for it.
  {
    group: '',
    version: 'v1',
    kind: 'ReplicationController',
    plural: 'replicationcontrollers',
    namespaced: true,
    shortNames: ['rc'],
    status: true,
    categories: ['all'],
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    status: true,
    scale: true,
    categories: ['all'],
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
    status: true,
    scale: true,
    categories: ['all'],
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    shortNames: ['sts'],
    status: true,
    scale: true,
    categories: ['all'],
  },
  { group: 'apps', version: 'v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true, shortNames: ['ds'], status: true, categories: ['all'] },
  { group: 'apps', version: 'v1', kind: 'ControllerRevision', plural: 'controllerrevisions', namespaced: true },
  { group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true, status: true, categories: ['all'] },
  { group: 'batch', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true, shortNames: ['cj'], status: true, categories: ['all'] },
  { group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true, shortNames: ['pdb'], status: true },
  {
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    namespaced: true,
    shortNames: ['hpa'],
    status: true,
    categories: ['all'],
  },
  { group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy', plural: 'networkpolicies', namespaced: true, shortNames: ['netpol'] },
  { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true },
  { group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false },
  { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'MutatingWebhookConfiguration', plural: 'mutatingwebhookconfigurations', namespaced: false },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
  },
  { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview', plural: 'selfsubjectaccessreviews', namespaced: false, virtual: true },
  { group: 'authorization.k8s.io', version: 'v1', kind: 'SubjectAccessReview', plural: 'subjectaccessreviews', namespaced: false, virtual: true },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    status: true,
  },
];

/** Fresh ResourceType records for every built-in kind. */
export function builtinResourceTypes(): ResourceType[] {
  return SPECS.map((s) => {
    const type: ResourceType = {
      group: s.group,
      versions: [s.version],
      plural: s.plural,
      singular: s.kind.toLowerCase(),
      kind: s.kind,
      listKind: `${s.kind}List`,
      namespaced: s.namespaced,
      shortNames: s.shortNames ?? [],
      categories: s.categories ?? [],
      hasStatus: s.status ?? false,
      strategicMerge: true,
    };
    if (s.virtual) {
      type.virtual = true;
      type.verbs = ['create'];
    }
    if (s.group === 'events.k8s.io') {
      type.storageKey = 'events';
      type.storage = eventsV1Conversion;
    }
    if (s.scale) type.scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
    return type;
  });
}
