/**
 * Where the cluster connection comes from, in the usual order: the `--kubeconfig` flag, then the
 * `KUBECONFIG` variable (several files joined by ':' are merged, the first one's current context
 * wins), then the in-cluster service account (`KUBERNETES_SERVICE_HOST`/`_PORT` and the token
 * and CA under /var/run/secrets/kubernetes.io/serviceaccount), then ~/.kube/config. When nothing
 * works the error lists what was tried and why each failed. The environment, home directory,
 * service-account directory and file test are injected, so this is testable without a cluster.
 */
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { isIPv6 } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import type { Environment } from '../config/resolve-config.ts';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** What to look at. */
export interface KubeConnectionInputs {
  /** `--kubeconfig`. */
  kubeconfig?: string;
  /** `--kube-context`. */
  context?: string;
  env: Environment;
  /** The user's home directory (os.homedir() at the composition root). */
  homeDir?: string;
  /** Default {@link SERVICE_ACCOUNT_DIR}. */
  serviceAccountDir?: string;
  /** Default fs.existsSync. */
  fileExists?: (path: string) => boolean;
}

/** Which source won. */
export type KubeConnectionSource = 'flag' | 'KUBECONFIG' | 'in-cluster' | 'home';

export interface KubeConnection {
  kubeConfig: KubeConfig;
  source: KubeConnectionSource;
  /** E.g. `kubeconfig /home/me/.kube/config, context prod, server https://...`. */
  description: string;
  /** The namespace of the context or of the service account ('default' when none). */
  namespace: string;
}

/** No usable connection; the message lists every source tried. */
export class KubeConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KubeConnectionError';
  }
}

/** Builds the client-node KubeConfig; throws {@link KubeConnectionError}. */
export function connectKube(inputs: KubeConnectionInputs): KubeConnection {
  const exists = inputs.fileExists ?? existsSync;
  const tried: string[] = [];
  if (inputs.kubeconfig !== undefined) {
    // An explicit choice: no falling back to anything else.
    if (!exists(inputs.kubeconfig)) throw new KubeConnectionError(`--kubeconfig ${inputs.kubeconfig}: no such file`);
    return finish(fromFiles([inputs.kubeconfig], '--kubeconfig'), 'flag', `kubeconfig ${inputs.kubeconfig}`, inputs.context);
  }
  tried.push('--kubeconfig: not given');

  const fromEnv = (inputs.env['KUBECONFIG'] ?? '').split(delimiter).filter((f) => f !== '');
  if (fromEnv.length > 0) {
    const present = fromEnv.filter((f) => exists(f));
    if (present.length === 0) throw new KubeConnectionError(`KUBECONFIG=${inputs.env['KUBECONFIG']}: none of its files exists`);
    return finish(fromFiles(present, 'KUBECONFIG'), 'KUBECONFIG', `kubeconfig ${present.join(delimiter)} (KUBECONFIG)`, inputs.context);
  }
  tried.push('KUBECONFIG: not set');

  const host = inputs.env['KUBERNETES_SERVICE_HOST'];
  const port = inputs.env['KUBERNETES_SERVICE_PORT'];
  const saDir = inputs.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const tokenFile = join(saDir, 'token');
  if (host && port && exists(tokenFile)) {
    return finish(inCluster(host, port, saDir, exists), 'in-cluster', `in-cluster service account (${saDir})`, inputs.context);
  }
  tried.push(!host || !port ? 'in-cluster: KUBERNETES_SERVICE_HOST/KUBERNETES_SERVICE_PORT not set' : `in-cluster: ${tokenFile} does not exist`);

  if (inputs.homeDir) {
    const home = join(inputs.homeDir, '.kube', 'config');
    if (exists(home)) return finish(fromFiles([home], home), 'home', `kubeconfig ${home}`, inputs.context);
    tried.push(`${home}: does not exist`);
  } else {
    tried.push('~/.kube/config: no home directory');
  }
  throw new KubeConnectionError(`no Kubernetes connection found; tried:\n${tried.map((t) => `  ${t}`).join('\n')}\nGive --kubeconfig or run inside a cluster.`);
}

function fromFiles(files: string[], what: string): KubeConfig {
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(files[0]!);
    for (const file of files.slice(1)) {
      const more = new KubeConfig();
      more.loadFromFile(file);
      kc.mergeConfig(more, true);
    }
  } catch (err) {
    throw new KubeConnectionError(`${what}: cannot read kubeconfig ${files.join(delimiter)}: ${(err as Error).message}`, { cause: err });
  }
  return kc;
}

/** As client-node's loadFromCluster, but from the injected environment and directory; the token file is re-read as it rotates. */
function inCluster(host: string, port: string, saDir: string, exists: (path: string) => boolean): KubeConfig {
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const server = `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  const namespaceFile = join(saDir, 'namespace');
  const namespace = exists(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'inCluster', server, caFile: join(saDir, 'ca.crt'), skipTLSVerify: false }],
    users: [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: join(saDir, 'token') } } }],
    contexts: [{ name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser', namespace }],
    currentContext: 'inClusterContext',
  });
  return kc;
}

function finish(kc: KubeConfig, source: KubeConnectionSource, where: string, context: string | undefined): KubeConnection {
  if (context !== undefined) {
    if (!kc.getContextObject(context)) {
      throw new KubeConnectionError(
        `--kube-context ${context}: no such context in ${where} (has: ${
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        })`,
      );
    }
    kc.setCurrentContext(context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new KubeConnectionError(`${where}: the current context "${kc.getCurrentContext()}" names no cluster`);
  const ctx = kc.getContextObject(kc.getCurrentContext());
  return {
    kubeConfig: kc,
    source,
    description: `${where}, context ${kc.getCurrentContext()}, server ${cluster.server}`,
    namespace: ctx?.namespace ?? 'default',
  };
}
