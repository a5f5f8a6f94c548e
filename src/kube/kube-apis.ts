/**
 * Small stand-ins for the client-node API classes Tailor calls (decision 0274): each method has
 * the same parameter object and result type as client-node's (typed from client-node with
 * type-only imports, so a signature change there fails the typecheck here), and sends the request
 * client-node's generated code sends: the same path, query names (`_continue` -> `continue`),
 * Accept header, body serialization and result model. Only the methods Tailor calls exist; a new
 * call is one line in a table below, its path and types copied from client-node's generated
 * `dist/gen/apis/*.js`. PATCH calls take the patch's content type as a second argument instead of
 * client-node's `setHeaderOptions` middleware.
 */
import type * as k8s from '@kubernetes/client-node';
import { KubeClient, serializeBody, type KubeClientOptions, type KubeRequest } from './kube-request.ts';

/** The first parameter of a parameter list, optional if it is there. */
type Head<A extends readonly unknown[]> = A extends readonly [unknown, ...unknown[]] ? [param: A[0]] : [param?: A[0]];
/** A client-node method without its trailing per-call configuration argument. */
type Call<F> = F extends (...args: infer A) => infer R ? (...args: Head<A>) => R : never;
/** The calls `K` of client-node's `Api`, with their parameter objects and results. */
export type Calls<Api, K extends keyof Api> = { [M in K]: Call<Api[M]> };
/** A PATCH call of `Api`: the parameter object, and the patch's content type. */
type PatchCall<F> = F extends (param: infer P, ...rest: never[]) => infer R ? (param: P, contentType: PatchContentType) => R : never;
export type PatchCalls<Api, K extends keyof Api> = { [M in K]: PatchCall<Api[M]> };

/** The patch content types Tailor sends (client-node's `PatchStrategy` values; the JSON patch's constant is the updater's `JSON_PATCH_CONTENT_TYPE`, src/updater/resize-patch.ts). */
export type PatchContentType =
  'application/json-patch+json' | 'application/merge-patch+json' | 'application/strategic-merge-patch+json' | 'application/apply-patch+yaml';
export const MERGE_PATCH: PatchContentType = 'application/merge-patch+json';
export const APPLY_PATCH: PatchContentType = 'application/apply-patch+yaml';

/**
 * One operation: method, path template (`{name}` filled from the parameter of that name, URI
 * encoded), the client-node model of the result and of the body (`any`: sent as it is).
 */
interface Operation {
  method: KubeRequest['method'];
  path: string;
  result: string;
  body?: string;
}

const PATH_PARAM = /\{(\w+)\}/g;

/** The request of an operation for one parameter object. Exported for tests. */
export function operationRequest(op: Operation, param: Readonly<Record<string, unknown>> = {}, contentType?: string): KubeRequest {
  const used = new Set<string>(['body']);
  const path = op.path.replace(PATH_PARAM, (_, name: string) => {
    used.add(name);
    const value = param[name];
    if (value === undefined || value === null) throw new Error(`${op.method} ${op.path}: the parameter ${name} is required`);
    return encodeURIComponent(String(value));
  });
  const query: Record<string, string | number | boolean | undefined> = {};
  for (const [key, value] of Object.entries(param)) {
    if (used.has(key) || value === undefined) continue;
    // client-node names the `continue` query parameter `_continue` (a reserved word in JS).
    query[key === '_continue' ? 'continue' : key] = value as string | number | boolean;
  }
  const body = op.body === undefined ? undefined : serializeBody(param['body'], op.body);
  return { method: op.method, path, query, ...(body === undefined ? {} : { body, contentType: contentType ?? 'application/json' }) };
}

function build<T>(client: KubeClient, table: Record<string, Operation>): T {
  const api: Record<string, (param?: Record<string, unknown>, contentType?: string) => Promise<unknown>> = {};
  for (const [name, op] of Object.entries(table)) api[name] = (param, contentType) => client.typed(operationRequest(op, param, contentType), op.result);
  return api as T;
}

const clientOf = (kc: k8s.KubeConfig | KubeClient, options?: KubeClientOptions) => (kc instanceof KubeClient ? kc : new KubeClient(kc, options));

const NS = '/api/v1/namespaces/{namespace}';

/** The core/v1 calls Tailor makes. */
export type CoreApi = Calls<
  k8s.CoreV1Api,
  | 'listNamespacedPod'
  | 'createNamespacedPodEviction'
  | 'createNamespacedEvent'
  | 'listLimitRangeForAllNamespaces'
  | 'readNamespacedSecret'
  | 'createNamespacedSecret'
  | 'replaceNamespacedSecret'
  | 'readNamespacedConfigMap'
  | 'createNamespacedConfigMap'
  | 'replaceNamespacedConfigMap'
> &
  PatchCalls<k8s.CoreV1Api, 'patchNamespacedPod' | 'patchNamespacedPodResize'>;

export function coreApi(kc: k8s.KubeConfig | KubeClient, options?: KubeClientOptions): CoreApi {
  return build(clientOf(kc, options), {
    listNamespacedPod: { method: 'GET', path: `${NS}/pods`, result: 'V1PodList' },
    patchNamespacedPod: { method: 'PATCH', path: `${NS}/pods/{name}`, result: 'V1Pod', body: 'any' },
    patchNamespacedPodResize: { method: 'PATCH', path: `${NS}/pods/{name}/resize`, result: 'V1Pod', body: 'any' },
    createNamespacedPodEviction: { method: 'POST', path: `${NS}/pods/{name}/eviction`, result: 'V1Eviction', body: 'V1Eviction' },
    createNamespacedEvent: { method: 'POST', path: `${NS}/events`, result: 'CoreV1Event', body: 'CoreV1Event' },
    listLimitRangeForAllNamespaces: { method: 'GET', path: '/api/v1/limitranges', result: 'V1LimitRangeList' },
    readNamespacedSecret: { method: 'GET', path: `${NS}/secrets/{name}`, result: 'V1Secret' },
    createNamespacedSecret: { method: 'POST', path: `${NS}/secrets`, result: 'V1Secret', body: 'V1Secret' },
    replaceNamespacedSecret: { method: 'PUT', path: `${NS}/secrets/{name}`, result: 'V1Secret', body: 'V1Secret' },
    readNamespacedConfigMap: { method: 'GET', path: `${NS}/configmaps/{name}`, result: 'V1ConfigMap' },
    createNamespacedConfigMap: { method: 'POST', path: `${NS}/configmaps`, result: 'V1ConfigMap', body: 'V1ConfigMap' },
    replaceNamespacedConfigMap: { method: 'PUT', path: `${NS}/configmaps/{name}`, result: 'V1ConfigMap', body: 'V1ConfigMap' },
  });
}

/** The apps/v1 calls Tailor makes. */
export type AppsApi = Calls<k8s.AppsV1Api, 'listNamespacedReplicaSet' | 'listReplicaSetForAllNamespaces'>;

export function appsApi(kc: k8s.KubeConfig | KubeClient, options?: KubeClientOptions): AppsApi {
  return build(clientOf(kc, options), {
    listNamespacedReplicaSet: { method: 'GET', path: '/apis/apps/v1/namespaces/{namespace}/replicasets', result: 'V1ReplicaSetList' },
    listReplicaSetForAllNamespaces: { method: 'GET', path: '/apis/apps/v1/replicasets', result: 'V1ReplicaSetList' },
  });
}

/** The batch/v1 calls Tailor makes. */
export type BatchApi = Calls<k8s.BatchV1Api, 'listNamespacedJob' | 'listJobForAllNamespaces'>;

export function batchApi(kc: k8s.KubeConfig | KubeClient, options?: KubeClientOptions): BatchApi {
  return build(clientOf(kc, options), {
    listNamespacedJob: { method: 'GET', path: '/apis/batch/v1/namespaces/{namespace}/jobs', result: 'V1JobList' },
    listJobForAllNamespaces: { method: 'GET', path: '/apis/batch/v1/jobs', result: 'V1JobList' },
  });
}

const CUSTOM = '/apis/{group}/{version}/namespaces/{namespace}/{plural}/{name}';

/** The custom-resource calls Tailor makes (results as plain JSON, as client-node's `object`). */
export type CustomObjectsApi = Calls<k8s.CustomObjectsApi, 'listClusterCustomObject' | 'getNamespacedCustomObjectScale' | 'deleteNamespacedCustomObject'> &
  PatchCalls<k8s.CustomObjectsApi, 'patchNamespacedCustomObject' | 'patchNamespacedCustomObjectStatus'>;

export function customObjectsApi(kc: k8s.KubeConfig | KubeClient, options?: KubeClientOptions): CustomObjectsApi {
  return build(clientOf(kc, options), {
    listClusterCustomObject: { method: 'GET', path: '/apis/{group}/{version}/{plural}', result: 'any' },
    getNamespacedCustomObjectScale: { method: 'GET', path: `${CUSTOM}/scale`, result: 'any' },
    deleteNamespacedCustomObject: { method: 'DELETE', path: CUSTOM, result: 'any', body: 'V1DeleteOptions' },
    patchNamespacedCustomObject: { method: 'PATCH', path: CUSTOM, result: 'any', body: 'any' },
    patchNamespacedCustomObjectStatus: { method: 'PATCH', path: `${CUSTOM}/status`, result: 'any', body: 'any' },
  });
}

/** The coordination.k8s.io/v1 calls Tailor makes. */
export type CoordinationApi = Calls<k8s.CoordinationV1Api, 'readNamespacedLease' | 'createNamespacedLease' | 'replaceNamespacedLease'>;

export function coordinationApi(kc: k8s.KubeConfig | KubeClient, options?: KubeClientOptions): CoordinationApi {
  const leases = '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases';
  return build(clientOf(kc, options), {
    readNamespacedLease: { method: 'GET', path: `${leases}/{name}`, result: 'V1Lease' },
    createNamespacedLease: { method: 'POST', path: leases, result: 'V1Lease', body: 'V1Lease' },
    replaceNamespacedLease: { method: 'PUT', path: `${leases}/{name}`, result: 'V1Lease', body: 'V1Lease' },
  });
}

/** The admissionregistration.k8s.io/v1 calls Tailor makes. */
export type AdmissionregistrationApi = Calls<
  k8s.AdmissionregistrationV1Api,
  | 'readMutatingWebhookConfiguration'
  | 'createMutatingWebhookConfiguration'
  | 'replaceMutatingWebhookConfiguration'
  | 'readValidatingWebhookConfiguration'
  | 'createValidatingWebhookConfiguration'
  | 'replaceValidatingWebhookConfiguration'
>;

export function admissionregistrationApi(kc: k8s.KubeConfig | KubeClient, options?: KubeClientOptions): AdmissionregistrationApi {
  const base = '/apis/admissionregistration.k8s.io/v1';
  return build(clientOf(kc, options), {
    readMutatingWebhookConfiguration: { method: 'GET', path: `${base}/mutatingwebhookconfigurations/{name}`, result: 'V1MutatingWebhookConfiguration' },
    createMutatingWebhookConfiguration: {
      method: 'POST',
      path: `${base}/mutatingwebhookconfigurations`,
      result: 'V1MutatingWebhookConfiguration',
      body: 'V1MutatingWebhookConfiguration',
    },
    replaceMutatingWebhookConfiguration: {
      method: 'PUT',
      path: `${base}/mutatingwebhookconfigurations/{name}`,
      result: 'V1MutatingWebhookConfiguration',
      body: 'V1MutatingWebhookConfiguration',
    },
    readValidatingWebhookConfiguration: { method: 'GET', path: `${base}/validatingwebhookconfigurations/{name}`, result: 'V1ValidatingWebhookConfiguration' },
    createValidatingWebhookConfiguration: {
      method: 'POST',
      path: `${base}/validatingwebhookconfigurations`,
      result: 'V1ValidatingWebhookConfiguration',
      body: 'V1ValidatingWebhookConfiguration',
    },
    replaceValidatingWebhookConfiguration: {
      method: 'PUT',
      path: `${base}/validatingwebhookconfigurations/{name}`,
      result: 'V1ValidatingWebhookConfiguration',
      body: 'V1ValidatingWebhookConfiguration',
    },
  });
}

/** `/version`. */
export type VersionApi = { getCode(): Promise<k8s.VersionInfo> };

export function versionApi(kc: k8s.KubeConfig | KubeClient, options?: KubeClientOptions): VersionApi {
  return build(clientOf(kc, options), { getCode: { method: 'GET', path: '/version/', result: 'VersionInfo' } });
}
