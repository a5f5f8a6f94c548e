/**
 * Discovery documents: `/version`, `/api`, `/apis`, `/apis/{group}`, and the APIResourceList of
 * each group version, with subresources (`pods/status`, `pods/eviction`, `deployments/scale`,
 * registered ones such as `pods/resize`) listed the way kubectl expects them.
 */
import type { ResourceRegistry } from './resource-registry.ts';
import { STANDARD_VERBS, apiVersionOf, resourceKey, type ResourceType } from './resource-type.ts';
import type { SubresourceDiscovery, SubresourceRegistry } from './subresource.ts';

/** Kubernetes version the server reports, e.g. 1.33. */
export interface ServerVersionInfo {
  major: string;
  minor: string;
}

/** Known subresource shapes (kind/group/version) for discovery. */
const KNOWN: Record<string, SubresourceDiscovery> = {
  status: { kind: '', verbs: ['get', 'patch', 'update'] },
  scale: { kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
  eviction: { kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
  binding: { kind: 'Binding', verbs: ['create'] },
  resize: { kind: '', verbs: ['get', 'patch', 'update'] },
  token: { kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] },
};

/** `/version`. */
export function versionDocument(version: ServerVersionInfo): Record<string, string> {
  return {
    major: version.major,
    minor: version.minor,
    gitVersion: `v${version.major}.${version.minor}.0`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.23.0',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/** `/api`. */
export function coreVersionsDocument(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupDocument(group: string, versions: string[]): Record<string, unknown> {
  const entries = versions.map((v) => ({ groupVersion: apiVersionOf(group, v), version: v }));
  return { name: group, versions: entries, preferredVersion: entries[0] };
}

/** `/apis`. */
export function groupListDocument(registry: ResourceRegistry): Record<string, unknown> {
  const groups = registry.groups().filter((g) => g.group !== '');
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => groupDocument(g.group, g.versions)) };
}

/** `/apis/{group}`, or undefined when the group is not served. */
export function groupDocumentFor(registry: ResourceRegistry, group: string): Record<string, unknown> | undefined {
  const found = registry.groups().find((g) => g.group === group);
  return found ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDocument(group, found.versions) } : undefined;
}

function subresourceNames(type: ResourceType, subresources: SubresourceRegistry): string[] {
  const names = new Set(subresources.namesFor(resourceKey(type)));
  if (type.hasStatus) names.add('status');
  if (type.scale) names.add('scale');
  return [...names].sort();
}

/** `/api/v1` or `/apis/{group}/{version}`, or undefined when not served. */
export function resourceListDocument(
  registry: ResourceRegistry,
  subresources: SubresourceRegistry,
  group: string,
  version: string,
  describeSubresource: (type: ResourceType, name: string) => SubresourceDiscovery | undefined,
): Record<string, unknown> | undefined {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const type of types.sort((a, b) => a.plural.localeCompare(b.plural))) {
    const entry: Record<string, unknown> = {
      name: type.plural,
      singularName: type.singular,
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: type.verbs ?? [...STANDARD_VERBS],
    };
    if (type.shortNames.length > 0) entry['shortNames'] = type.shortNames;
    if (type.categories.length > 0) entry['categories'] = type.categories;
    resources.push(entry);
    for (const sub of subresourceNames(type, subresources)) {
      const d = describeSubresource(type, sub) ?? KNOWN[sub] ?? { kind: type.kind, verbs: ['get', 'patch', 'update'] };
      const subEntry: Record<string, unknown> = {
        name: `${type.plural}/${sub}`,
        singularName: '',
        namespaced: type.namespaced,
        kind: d.kind || type.kind,
        verbs: d.verbs,
      };
      if (d.group !== undefined) subEntry['group'] = d.group;
      if (d.version !== undefined) subEntry['version'] = d.version;
      resources.push(subEntry);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources };
}
