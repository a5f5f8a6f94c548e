/**
 * kube-sim's front door: start a simulated cluster (API server + kubelet + controllers) from a
 * scenario. Deeper pieces (the API server alone, objects, usage patterns, metrics writers) are
 * reachable by path, e.g. `kube-sim/apiserver/index` or `kube-sim/scenario`.
 */
export { readScenarioFile, startKubeSim, type KubeSim, type KubeSimOptions } from './kube-sim.ts';
export { defaultScenario, parseScenario, ScenarioError, type Scenario, type NodeSpec, type WorkloadSpec } from './scenario.ts';
export { parseServerVersion, SERVER_VERSIONS, type ServerVersion } from './server-version.ts';
export { runKubeSimCli } from './cli.ts';
