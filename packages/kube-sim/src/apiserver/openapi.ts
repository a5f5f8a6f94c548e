/**
 * A minimal OpenAPI v3 discovery (`/openapi/v3` and `/openapi/v3/<api|apis/group>/<version>`):
 * one PATCH operation per resource carrying `x-kubernetes-group-version-kind` and the
 * `fieldValidation` parameter. That is what kubectl (1.27+) reads to decide that the server
 * validates fields itself, so `kubectl apply/create` work without `--validate=false`. The only
 * schema is policy/v1 Eviction (with the `pods/eviction` path in core v1, as the real document
 * has it); `kubectl explain` is not supported.
 */
import { createHash } from 'node:crypto';
import type { ResourceRegistry } from './resource-registry.ts';
import { apiVersionOf } from './resource-type.ts';

function gvPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/** The document of one group version. */
export function openApiGroupVersion(registry: ResourceRegistry, group: string, version: string): Record<string, unknown> | undefined {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  for (const type of types) {
    const base = `/${gvPath(group, version)}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.plural}/{name}`;
    paths[base] = {
      patch: {
        operationId: `patch${type.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': { group, version, kind: type.kind },
        parameters: [
          { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'force', in: 'query', schema: { type: 'boolean', uniqueItems: true } },
        ],
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  const schemas: Record<string, unknown> = {};
  if (group === '' && version === 'v1' && types.some((t) => t.plural === 'pods')) {
    // pods/eviction is served with core v1, its body is policy/v1 Eviction (as on the real server).
    paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'] = {
      post: {
        operationId: 'createCoreV1NamespacedPodEviction',
        'x-kubernetes-action': 'post',
        'x-kubernetes-group-version-kind': { group: 'policy', version: 'v1', kind: 'Eviction' },
        requestBody: { content: { '*/*': { schema: { $ref: `#/components/schemas/${EVICTION}` } } } },
        responses: { '201': { description: 'Created' } },
      },
    };
    schemas[EVICTION] = evictionSchema();
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: apiVersionOf(group, version) }, paths, components: { schemas } };
}

const EVICTION = 'io.k8s.api.policy.v1.Eviction';

/** The Eviction schema: its fields and group-version-kind (without the real document's descriptions and referenced schemas' details). */
function evictionSchema(): Record<string, unknown> {
  return {
    type: 'object',
    description: 'Eviction evicts a pod from its node subject to certain policies and safety constraints.',
    properties: {
      apiVersion: { type: 'string' },
      deleteOptions: { type: 'object', description: 'DeleteOptions may be provided' },
      kind: { type: 'string' },
      metadata: { type: 'object', description: 'ObjectMeta describes the pod that is being evicted.' },
    },
    'x-kubernetes-group-version-kind': [{ group: 'policy', kind: 'Eviction', version: 'v1' }],
  };
}

/** `/openapi/v3`: the group versions with URLs that change when their content changes. */
export function openApiRoot(registry: ResourceRegistry): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const { group, versions } of registry.groups()) {
    for (const version of versions) {
      const doc = openApiGroupVersion(registry, group, version);
      const hash = createHash('sha256').update(JSON.stringify(doc)).digest('hex').slice(0, 32).toUpperCase();
      paths[gvPath(group, version)] = { serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${hash}` };
    }
  }
  return { paths };
}
