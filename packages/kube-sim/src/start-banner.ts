/** What kube-sim's command lines (`kube-sim`, `tailor sim`) print once the cluster is up. */
export function startBanner(sim: { version: string; url: string }, kubeconfig: string, speed: number): string {
  return [
    `kube-sim ${sim.version} listening on ${sim.url} (speed ${speed}x)`,
    `kubeconfig: ${kubeconfig}   (export KUBECONFIG=${kubeconfig})`,
    `metrics:    ${sim.url}/metrics/cadvisor  ${sim.url}/metrics/kube-state`,
    'press Ctrl-C to stop',
    '',
  ].join('\n');
}
