/**
 * kube-sim set up for recommender tests: one roomy node, Deployments with one container `app`,
 * an admin client for custom objects, and a builder for a VPA in mode Off (the recommender's tests
 * never want the updater to act).
 */
import type { TestContext } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startKubeSim, type KubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { VPA_CRD_MANIFESTS } from '../../src/api/vpa-crd-manifests.ts';

/** Where the VPAs are, for CustomObjectsApi calls. */
export const VPA_API = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };

/** A VPA in mode Off named `name`, for the Deployment `target` (default: the same name). */
export function offVpa(name: string, target = name) {
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, updatePolicy: { updateMode: 'Off' } },
  };
}

/** A Deployment whose pods have one container `app` with these requests. */
export interface DeploymentSketch {
  name: string;
  replicas: number;
  cpu: string;
  memory: string;
}

export interface RecommenderSim {
  sim: KubeSim;
  kc: k8s.KubeConfig;
  custom: k8s.CustomObjectsApi;
}

/** Starts kube-sim (node `n`, 8 cpu / 32Gi) with the Deployments; stopped when the test ends. */
export async function startRecommenderSim(t: TestContext, deployments: readonly DeploymentSketch[]): Promise<RecommenderSim> {
  const workloads = deployments.map(
    (d) => `  - {kind: Deployment, name: ${d.name}, replicas: ${d.replicas}, containers: [{name: app, requests: {cpu: ${d.cpu}, memory: ${d.memory}}}]}`,
  );
  const sim = await startKubeSim({
    crdManifests: VPA_CRD_MANIFESTS,
    scenario: parseScenario(['nodes: [{name: n, cpu: "8", memory: 32Gi}]', 'workloads:', ...workloads, ''].join('\n')),
  });
  t.after(() => sim.close());
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.server.kubeconfig());
  return { sim, kc, custom: kc.makeApiClient(k8s.CustomObjectsApi) };
}
