/**
 * What a fresh cluster has before anyone writes: the namespaces `default`, `kube-system`,
 * `kube-public` and `kube-node-lease`, a `default` ServiceAccount in every namespace (kept so by a
 * small controller, as the real service-account controller does), the `cluster-admin`,
 * `system:discovery` and `system:basic-user` roles with their bindings, and the CRDs the caller
 * names (Tailor names the upstream VPA CRDs).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { RequestPipeline } from './request-pipeline.ts';
import type { ObjectStore } from './object-store.ts';
import { SYSTEM_USER } from './request.ts';
import type { KubeObject } from './types.ts';

const RBAC = 'rbac.authorization.k8s.io';

const CLUSTER_ROLES: KubeObject[] = [
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'cluster-admin', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'system:discovery', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
    rules: [
      {
        nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/readyz', '/openapi', '/openapi/*', '/version', '/version/'],
        verbs: ['get'],
      },
    ],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'system:basic-user', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
    rules: [{ apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] }],
  },
];

function binding(name: string, role: string, group: string): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: RBAC, kind: 'Group', name: group }],
  };
}

/** Keeps a `default` ServiceAccount in every namespace. Returns the unsubscribe function. */
export function startServiceAccountController(store: ObjectStore): () => void {
  const ensure = (namespace: string): void => {
    if (store.get('serviceaccounts', namespace, 'default')) return;
    store.create('serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
  };
  for (const ns of store.list('namespaces')) ensure(ns.metadata.name ?? '');
  return store.subscribe('namespaces', (event) => {
    if (event.type === 'ADDED') ensure(event.object.metadata.name ?? '');
  });
}

/** Creates the namespaces and RBAC defaults through the pipeline (so defaulting applies). */
export async function bootstrapCluster(pipeline: RequestPipeline): Promise<void> {
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    await pipeline.execute({ verb: 'create', group: '', version: 'v1', resource: 'namespaces', query: {}, user: SYSTEM_USER, body: { metadata: { name } } });
  }
  for (const role of CLUSTER_ROLES) {
    await pipeline.execute({ verb: 'create', group: RBAC, version: 'v1', resource: 'clusterroles', query: {}, user: SYSTEM_USER, body: role });
  }
  for (const b of [
    binding('cluster-admin', 'cluster-admin', 'system:masters'),
    binding('system:discovery', 'system:discovery', 'system:authenticated'),
    binding('system:basic-user', 'system:basic-user', 'system:authenticated'),
  ]) {
    await pipeline.execute({ verb: 'create', group: RBAC, version: 'v1', resource: 'clusterrolebindings', query: {}, user: SYSTEM_USER, body: b });
  }
}

/** Reads every CRD document from YAML files, each path a file or a directory of `.yaml`/`.yml` files. */
export async function readCrdManifests(paths: readonly string[]): Promise<KubeObject[]> {
  const files: string[] = [];
  try {
    for (const path of paths) {
      if (!(await stat(path)).isDirectory()) files.push(path);
      else
        files.push(
          ...(await readdir(path))
            .filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'))
            .sort()
            .map((n) => join(path, n)),
        );
    }
  } catch (err) {
    throw new Error(`cannot read the CRD manifests: ${(err as Error).message}`, { cause: err });
  }
  const out: KubeObject[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const doc of parseAllDocuments(text)) {
      const value = doc.toJS() as KubeObject | null;
      if (value && value.kind === 'CustomResourceDefinition') out.push(value);
    }
  }
  return out;
}

/** Installs CRDs through the pipeline. */
export async function installCrds(pipeline: RequestPipeline, crds: KubeObject[]): Promise<void> {
  for (const crd of crds) {
    await pipeline.execute({
      verb: 'create',
      group: 'apiextensions.k8s.io',
      version: 'v1',
      resource: 'customresourcedefinitions',
      query: {},
      user: SYSTEM_USER,
      body: crd,
    });
  }
}
