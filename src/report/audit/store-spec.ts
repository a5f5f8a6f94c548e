/**
 * Where `tailor audit --store` keeps its summary: `configmap:NAMESPACE/NAME` or `dir:PATH`. Its own
 * file so the option is checked when the command line is read without loading the stores.
 */

/** A `--store` value that is neither form. */
export class StoreLocationError extends Error {
  override readonly name = 'StoreLocationError';
}

export type StoreSpec = { kind: 'configmap'; namespace: string; name: string } | { kind: 'dir'; path: string };

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** Parses `configmap:NAMESPACE/NAME` or `dir:PATH`. */
export function parseStoreSpec(text: string): StoreSpec {
  if (text.startsWith('dir:') && text.length > 4) return { kind: 'dir', path: text.slice(4) };
  const m = /^configmap:([^/]+)\/([^/]+)$/.exec(text);
  if (m) {
    const [, namespace, name] = m as unknown as [string, string, string];
    if (!DNS_LABEL.test(namespace) || namespace.length > 63) throw new StoreLocationError(`${JSON.stringify(namespace)} is not a namespace name`);
    if (!DNS_SUBDOMAIN.test(name) || name.length > 253) throw new StoreLocationError(`${JSON.stringify(name)} is not a ConfigMap name`);
    return { kind: 'configmap', namespace, name };
  }
  throw new StoreLocationError(`${JSON.stringify(text)}: expected configmap:NAMESPACE/NAME or dir:PATH`);
}
