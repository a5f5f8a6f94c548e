/**
 * The set of resources the server serves: built-in kinds plus those added by
 * CustomResourceDefinitions, looked up by URL (group, version, plural) or by kind. Discovery is
 * generated from it.
 */
import { builtinResourceTypes } from './builtin-resources.ts';
import { resourceKey, type ResourceType } from './resource-type.ts';

export class ResourceRegistry {
  private readonly byKey = new Map<string, ResourceType>();

  constructor(types: ResourceType[] = builtinResourceTypes()) {
    for (const type of types) this.add(type);
  }

  /** Adds or replaces a resource type (a CRD being established or updated). */
  add(type: ResourceType): void {
    this.byKey.set(resourceKey(type), type);
  }

  /** Removes a resource type (a CRD being deleted). */
  remove(key: string): void {
    this.byKey.delete(key);
  }

  /** The type stored under a key such as `pods` or `deployments.apps`. */
  get(key: string): ResourceType | undefined {
    return this.byKey.get(key);
  }

  /** The type served at /apis/{group}/{version}/{plural}, if that version is served. */
  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    const type = this.byKey.get(group === '' ? plural : `${plural}.${group}`);
    return type && type.versions.includes(version) ? type : undefined;
  }

  /** The type of a kind in a group (e.g. `apps`, `Deployment`). */
  lookupKind(group: string, kind: string): ResourceType | undefined {
    for (const type of this.byKey.values()) if (type.group === group && type.kind === kind) return type;
    return undefined;
  }

  /** All types. */
  all(): ResourceType[] {
    return [...this.byKey.values()];
  }

  /** Served groups with their versions, core group first then by name. */
  groups(): { group: string; versions: string[] }[] {
    const map = new Map<string, Set<string>>();
    for (const type of this.byKey.values()) {
      let set = map.get(type.group);
      if (!set) {
        set = new Set();
        map.set(type.group, set);
      }
      for (const v of type.versions) set.add(v);
    }
    return [...map.entries()]
      .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))
      .map(([group, versions]) => ({ group, versions: sortVersions([...versions]) }));
  }

  /** Types served in one group version. */
  inGroupVersion(group: string, version: string): ResourceType[] {
    return [...this.byKey.values()].filter((t) => t.group === group && t.versions.includes(version));
  }
}

/**
 * Kubernetes version priority: GA > beta > alpha, higher numbers first
 * (v2 > v1 > v1beta2 > v1beta1 > v1alpha1), others last alphabetically.
 */
export function sortVersions(versions: string[]): string[] {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0];
    const stage = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2;
    return [stage, -Number(m[1]), -Number(m[3] ?? 0)];
  };
  return versions.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return a.localeCompare(b);
  });
}
