/**
 * Writes a kubeconfig for kubectl and @kubernetes/client-node pointing at the sim: one cluster
 * (`kube-sim`, HTTPS on loopback with its CA inlined, or plain HTTP), one user with a bearer token, one context made current.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

/** What goes into the kubeconfig. */
export interface KubeconfigOptions {
  server: string;
  token: string;
  /** Context namespace (default `default`). */
  namespace?: string;
  /** User entry name (default `kube-sim-admin`). */
  userName?: string;
  /** For an https server: the CA certificate PEM in base64. */
  certificateAuthorityData?: string;
}

/** The kubeconfig as YAML text. */
export function renderKubeconfig(options: KubeconfigOptions): string {
  const user = options.userName ?? 'kube-sim-admin';
  const cluster: Record<string, unknown> = { server: options.server };
  if (options.certificateAuthorityData) cluster['certificate-authority-data'] = options.certificateAuthorityData;
  // client-node refuses plain http unless TLS verification is marked as skipped.
  else if (options.server.startsWith('http://')) cluster['insecure-skip-tls-verify'] = true;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kube-sim', cluster }],
    users: [{ name: user, user: { token: options.token } }],
    contexts: [{ name: 'kube-sim', context: { cluster: 'kube-sim', user, namespace: options.namespace ?? 'default' } }],
    'current-context': 'kube-sim',
    preferences: {},
  });
}

/** Writes the kubeconfig file (mode 0600, as it holds a token). */
export async function writeKubeconfig(path: string, options: KubeconfigOptions): Promise<void> {
  await writeFile(path, renderKubeconfig(options), { mode: 0o600 });
}
