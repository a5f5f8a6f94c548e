/**
 * Upstream VPA's own manifests (its `deploy/` directory, read from the Go module cache at run time,
 * never copied here) as the conformance lane's upstream mode applies them per suite: the CRDs and
 * the RBAC always, and the Deployments (and the admission controller's Service) of that suite's
 * components only, as upstream's CI deploys one suite's components (hack/deploy-for-e2e.sh).
 */
import * as k8s from '@kubernetes/client-node';
import type { TailorComponent } from './suites.ts';

/** Upstream's Deployments (in kube-system), as deploy/ names them. */
export const UPSTREAM_DEPLOYMENTS: Readonly<Record<TailorComponent, string>> = {
  recommender: 'vpa-recommender',
  updater: 'vpa-updater',
  admission: 'vpa-admission-controller',
};

/** The namespace upstream's manifests and its gencerts.sh put everything in. */
export const UPSTREAM_NAMESPACE = 'kube-system';

const COMPONENT_FILES: Readonly<Record<TailorComponent, readonly string[]>> = {
  updater: ['updater-deployment.yaml'],
  recommender: ['recommender-deployment.yaml'],
  admission: ['admission-controller-deployment.yaml', 'admission-controller-service.yaml'],
};

/** Is `file` one of deploy/'s Deployments (the files whose images the lane sets to its own)? */
export function isDeploymentFile(file: string): boolean {
  return file.endsWith('-deployment.yaml');
}

/**
 * The files of deploy/ a suite's install applies, in the order of upstream's vpa-process-yamls.sh
 * (CRDs, RBAC, updater, recommender, admission controller, its Service).
 */
export function upstreamFiles(components: readonly TailorComponent[]): string[] {
  const order: TailorComponent[] = ['updater', 'recommender', 'admission'];
  return ['vpa-v1-crd-gen.yaml', 'vpa-rbac.yaml', ...order.filter((c) => components.includes(c)).flatMap((c) => COMPONENT_FILES[c])];
}

/**
 * One of deploy/'s Deployments as the lane runs it: unchanged but for `imagePullPolicy: Never` on
 * every container, so the pods run the images the lane imported into the nodes (made from the
 * binaries it built) and never pull upstream's published ones. Throws when a container names an
 * image the lane did not import (`images`), as the manifests of another version would.
 */
export function upstreamDeployment(yaml: string, images: readonly string[]): k8s.V1Deployment {
  const deployment = k8s.loadYaml<k8s.V1Deployment>(yaml);
  if (deployment.kind !== 'Deployment') throw new Error(`expected a Deployment, got ${deployment.kind} ${deployment.metadata?.name}`);
  const spec = deployment.spec?.template.spec;
  for (const container of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
    if (!container.image || !images.includes(container.image)) {
      throw new Error(
        `Deployment ${deployment.metadata?.name}: container ${container.name} runs ${container.image}, not one of the images the lane imported (${images.join(', ')})`,
      );
    }
    container.imagePullPolicy = 'Never';
  }
  return deployment;
}
