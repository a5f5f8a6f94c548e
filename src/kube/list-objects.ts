/**
 * Lists objects as the API server sends them (plain JSON, times as RFC 3339 strings), page by page
 * (`limit` / `continue`), over the kubeconfig's connection and credentials. Plain JSON matters for
 * watch caches: client-node's typed list functions turn times into Date objects while watch events
 * keep strings, so a cache fed by both would hold two shapes of the same object.
 * Answers outside 2xx are thrown as client-node `ApiException`s (kube-request.ts), classified like any other.
 */
import type { KubeConfig, KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import { KubeClient } from './kube-request.ts';

/** Which objects. */
export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size (default 500, as client-go's informers). */
  limit?: number;
}

/** The API path of a resource: `/api/v1/pods`, `/apis/autoscaling.k8s.io/v1/namespaces/shop/verticalpodautoscalers`. */
export function resourcePath(resource: { group: string; version: string; plural: string }, namespace?: string): string {
  const base = resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  return namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.plural}` : `${base}/${resource.plural}`;
}

/** Lists every page; the result's resourceVersion is the last page's. */
export async function listObjects<T extends KubernetesObject>(kubeConfig: KubeConfig, path: string, query: ListQuery = {}): Promise<KubernetesListObject<T>> {
  const items: T[] = [];
  let continueToken: string | undefined;
  let resourceVersion = '';
  do {
    const params = new URLSearchParams({ limit: String(query.limit ?? 500) });
    if (query.labelSelector) params.set('labelSelector', query.labelSelector);
    if (query.fieldSelector) params.set('fieldSelector', query.fieldSelector);
    if (continueToken) params.set('continue', continueToken);
    const page = (await getJson(kubeConfig, path, params)) as KubernetesListObject<T>;
    items.push(...(page.items ?? []));
    continueToken = page.metadata?._continue ?? (page.metadata as { continue?: string } | undefined)?.continue;
    resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
  } while (continueToken);
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion }, items };
}

async function getJson(kubeConfig: KubeConfig, path: string, params: URLSearchParams): Promise<unknown> {
  const res = await new KubeClient(kubeConfig).send({ method: 'GET', path, query: Object.fromEntries(params), accept: 'application/json' });
  try {
    return JSON.parse(res.text);
  } catch (err) {
    throw new Error(`list ${path}: the answer is not JSON`, { cause: err });
  }
}
