/**
 * The usage outlines of several clusters' runs as one lookup for the audit's charts: each run's
 * {@link UsageOutline} knows its rows by rowId, this one by `clusterRowId` (../clusters.ts), which is
 * the rowId itself in a single-cluster run.
 */
import type { Outline, UsageOutline } from './usage-outline.ts';

/** Outlines by clusterRowId. */
export interface OutlineLookup {
  get(id: string): Outline | undefined;
}

/** The outlines of every cluster's run. */
export class ClusterOutlines implements OutlineLookup {
  private readonly byCluster = new Map<string, UsageOutline>();

  /** Adds a cluster's outlines (`undefined`: the one cluster of a single-cluster run); returns this. */
  add(cluster: string | undefined, outlines: UsageOutline): this {
    this.byCluster.set(cluster ?? '', outlines);
    return this;
  }

  get(id: string): Outline | undefined {
    const i = id.indexOf('\u0000');
    // A rowId starts with the namespace; a clusterRowId with the cluster, then the rowId's four parts.
    const parts = id.split('\u0000').length;
    if (parts === 4) return this.byCluster.get('')?.get(id);
    return this.byCluster.get(id.slice(0, i))?.get(id.slice(i + 1));
  }
}
