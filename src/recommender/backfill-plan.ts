/**
 * Which VPAs need their workload's history read from Prometheus because they appeared after the
 * usage feed started reading their namespace (a VPA created while the recommender runs), and in
 * what batches (decision 0162).
 *
 * A VPA is *covered* when the feed's own reads give it its history: it was there at the first sync
 * (the bootstrap reads `--history` for every namespace), or its namespace has no feed cursor yet
 * (the feed bootstraps that namespace when it first sees data). Any other VPA seen for the first
 * time is *pending*: its pods' samples so far were read but dropped (no VPA to route them to), so
 * its history has to be read again. Until its read succeeds its pods are not routed, so the
 * incremental feed delivers none of their samples; the read covers everything up to the feed's
 * cursor at that moment, and the feed delivers everything after it: each sample counts once, and
 * in time order (what a time-ordered strategy needs).
 *
 * Worked example: cursors {shop: 12:00}; VPAs a (shop), b (shop), c (lab, no cursor), max 1 ->
 * c is covered; a and b are pending; next(1) -> one group {until 12:00, namespaces [shop], [a]};
 * b waits for the next cycle.
 */

/** A handled VPA this cycle; `ready` when its target resolved (no problem). */
export interface SeenVpa {
  id: string;
  namespace: string;
  ready: boolean;
}

/** VPAs whose history is read together: their namespaces' feed cursor is `until`. */
export interface BackfillGroup {
  /** The feed cursor of the namespaces (ms): the read ends here, the feed goes on after it. */
  until: number;
  namespaces: string[];
  vpaIds: string[];
}

/** The feed cursor of a namespace (undefined: the feed has not read it yet). */
export type CursorOf = (namespace: string) => number | undefined;

export class BackfillPlan {
  private readonly covered = new Set<string>();
  /** vpa id -> namespace, in the order first seen (the oldest wait is served first). */
  private readonly pending = new Map<string, string>();

  /**
   * Classifies the VPAs first seen this cycle and forgets those no longer handled. A VPA with a
   * problem is remembered if already known, classified only once its target resolves.
   */
  observe(vpas: readonly SeenVpa[], cursorOf: CursorOf): void {
    const present = new Set(vpas.map((v) => v.id));
    for (const id of this.covered) if (!present.has(id)) this.covered.delete(id);
    for (const id of this.pending.keys()) if (!present.has(id)) this.pending.delete(id);
    for (const v of vpas) {
      if (!v.ready || this.covered.has(v.id) || this.pending.has(v.id)) continue;
      if (cursorOf(v.namespace) === undefined) this.covered.add(v.id);
      else this.pending.set(v.id, v.namespace);
    }
  }

  isPending(id: string): boolean {
    return this.pending.has(id);
  }

  /** Number of VPAs waiting for their history. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * The first `max` pending VPAs, grouped by their namespaces' cursor (one group in the steady
   * state, when every cursor is the same), so one set of queries per namespace reads them all.
   */
  next(max: number, cursorOf: CursorOf): BackfillGroup[] {
    const groups = new Map<number, BackfillGroup>();
    let taken = 0;
    for (const [id, namespace] of this.pending) {
      if (taken >= max) break;
      const until = cursorOf(namespace);
      if (until === undefined) continue;
      taken++;
      let g = groups.get(until);
      if (!g) groups.set(until, (g = { until, namespaces: [], vpaIds: [] }));
      if (!g.namespaces.includes(namespace)) g.namespaces.push(namespace);
      g.vpaIds.push(id);
    }
    return [...groups.values()];
  }

  /** These VPAs have their history now. */
  done(ids: readonly string[]): void {
    for (const id of ids) {
      if (!this.pending.delete(id)) continue;
      this.covered.add(id);
    }
  }
}
