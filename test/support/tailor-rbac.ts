/**
 * For end-to-end suites that should run Tailor's components with their real permissions: installs
 * the namespace, service accounts and RBAC objects of manifests/base into a kube-sim API server
 * (in-process, through admission and validation) and gives a KubeConfig per component that uses a
 * token of its service account. Switch enforcement on with `server.setAuthentication(true)` and
 * `server.setAuthorization(true)`; a call outside the component's role then gets 403.
 */
import * as k8s from '@kubernetes/client-node';
import type { KubeSimApiServer } from 'kube-sim/apiserver';
import type { KubeObject } from 'kube-sim/apiserver/types';
import { render } from '../manifests/kustomize.ts';

/** Tailor's components, each with its own service account `tailor-<component>`. */
export type TailorComponent = 'recommender' | 'updater' | 'admission';

/** The namespace the manifests install into. */
export const TAILOR_NAMESPACE = 'tailor-system';

/** Creates the rendered base's identity and RBAC objects; returns their `Kind/name`s. */
export async function installTailorRbac(server: KubeSimApiServer): Promise<string[]> {
  const { objects } = await render('base');
  const created: string[] = [];
  // The namespace and service accounts first, then the roles, then the bindings that name them.
  for (const kind of ['Namespace', 'ServiceAccount', 'ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding']) {
    for (const object of objects.filter((o) => o.kind === kind)) {
      await server.create(object as unknown as KubeObject);
      created.push(`${object.kind}/${object.metadata.name}`);
    }
  }
  return created;
}

/** A KubeConfig for the server that authenticates as the component's service account. */
export function componentKubeConfig(server: KubeSimApiServer, component: TailorComponent): k8s.KubeConfig {
  const config = new k8s.KubeConfig();
  config.loadFromString(server.kubeconfig(server.issueServiceAccountToken(TAILOR_NAMESPACE, `tailor-${component}`), TAILOR_NAMESPACE));
  return config;
}
