/**
 * Ordinary init containers (no `restartPolicy: Always`) run to completion before a pod's containers
 * start: nothing resizes them and their usage is no workload container's. A native sidecar
 * (`restartPolicy: Always`) runs beside the containers and counts as one. The recommender drops
 * their series (recommender/init-containers.ts), and so does the report (report/recommend-run.ts).
 */

/** The parts of a pod spec this reads. */
export interface InitContainersSpec {
  spec?: { initContainers?: ReadonlyArray<{ name: string; restartPolicy?: string }> };
}

/** The names of a pod's ordinary init containers (native sidecars left out). */
export function ordinaryInitContainers(pod: InitContainersSpec): string[] {
  return (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy !== 'Always').map((c) => c.name);
}
