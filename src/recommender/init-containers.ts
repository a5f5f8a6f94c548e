/**
 * Ordinary init containers (no `restartPolicy: Always`, policy/init-containers.ts) run to completion
 * before a pod's containers start: nothing resizes them (the updater and the webhook plan only
 * containers and native sidecars, policy/pod-resources.ts), so their usage is no container's. cAdvisor reports them as
 * containers all the same, so the recommender learns their names from its VPAs' current pods and
 * drops their series, as upstream's recommender drops the samples of a pod's init containers.
 * Without this, `init-db` got a recommendation of its own, and since the per-pod floors (25m,
 * 250 MiB) are split across the containers with samples, it halved the floors of the app's.
 * A native sidecar runs beside the containers and is recommended like one.
 *
 * The names are kept per VPA, so the history of a pod that is gone (no spec to read) is filtered
 * by its workload's current pods; a VPA with no current pod keeps the names it had. A history held
 * of a name when it is learnt is forgotten: a checkpoint written before, or what the backfill of a
 * new VPA read (its pods are routed after the read, in the same cycle, before any status). A name
 * that is an init container in one current pod and a container in another (a rollout that changed
 * it) counts as a container.
 *
 * Worked example: pods `web-1` {initContainers: [migrate, proxy (Always)], containers: [app]} and
 * `web-2` alike -> VPA shop/web drops `migrate`; `app` and `proxy` are recommended.
 */

/** A current pod as the routes describe it: its ordinary init containers and its containers. */
export interface PodContainerNames {
  vpaId: string;
  initContainers: readonly string[];
  containers: Iterable<string>;
}

/** The ordinary init containers of each VPA's pods, by VPA id. */
export class InitContainerNames {
  private readonly byVpa = new Map<string, ReadonlySet<string>>();

  /**
   * Learns the names from the current pods of some VPAs (every VPA named by one of `pods` gets its
   * set replaced; the others keep theirs). Returns the VPAs whose set is new or changed, with it.
   */
  learn(pods: Iterable<PodContainerNames>): Map<string, ReadonlySet<string>> {
    const init = new Map<string, Set<string>>();
    const containers = new Map<string, Set<string>>();
    for (const p of pods) {
      const names = init.get(p.vpaId) ?? new Set<string>();
      init.set(p.vpaId, names);
      for (const n of p.initContainers) names.add(n);
      const regular = containers.get(p.vpaId) ?? new Set<string>();
      containers.set(p.vpaId, regular);
      for (const n of p.containers) regular.add(n);
    }
    const changed = new Map<string, ReadonlySet<string>>();
    for (const [vpaId, names] of init) {
      for (const n of containers.get(vpaId)!) names.delete(n);
      const before = this.byVpa.get(vpaId) ?? new Set<string>();
      if (before.size === names.size && [...names].every((n) => before.has(n))) continue;
      if (names.size === 0) this.byVpa.delete(vpaId);
      else this.byVpa.set(vpaId, names);
      changed.set(vpaId, names);
    }
    return changed;
  }

  /** True when `container` is an ordinary init container of the VPA's pods. */
  has(vpaId: string, container: string): boolean {
    return this.byVpa.get(vpaId)?.has(container) ?? false;
  }

  /** Forgets the VPAs `keep` says no to. */
  retain(keep: (vpaId: string) => boolean): void {
    for (const vpaId of this.byVpa.keys()) if (!keep(vpaId)) this.byVpa.delete(vpaId);
  }
}
