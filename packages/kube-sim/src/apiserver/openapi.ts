/**
 * A minimal OpenAPI v3 discovery (`/openapi/v3` and `/openapi/v3/<api|apis/group>/<version>`):
 * one PATCH operation per resource carrying `x-kubernetes-group-version-kind` and the
 * `fieldValidation` parameter. That is what kubectl (1.27+) reads to decide that the server
 * validates fields itself, so `kubectl apply/create` work without `--validate=false`. There are no
 * schemas: `kubectl explain` is not supported.
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
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: apiVersionOf(group, version) }, paths, components: { schemas: {} } };
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
