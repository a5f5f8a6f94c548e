/**
 * Pure grouping of namespaces into query batches. Namespaces are packed, in name order, into groups
 * whose answers stay under a points budget (series x points); a namespace too large for the budget
 * goes alone and its range is split instead. So the number of queries grows with the data a cycle
 * must move, never with the number of containers as such: an incremental cycle of one or two
 * steps usually fits every namespace into one group.
 */

/** Namespaces fetched together, with their total series count. */
export interface NamespaceBatch {
  namespaces: string[];
  series: number;
}

/**
 * Packs namespaces (name -> series count) into batches. Worked example: sizes {a:100, b:100, c:300},
 * 10 points per series and a budget of 3,000 points give [a,b] (2,000 points) and [c] (3,000).
 */
export function batchNamespaces(
  sizes: ReadonlyMap<string, number>,
  pointsPerSeries: number,
  maxPointsPerQuery: number,
  maxNamespacesPerQuery = 500,
): NamespaceBatch[] {
  const maxSeries = Math.max(1, Math.floor(maxPointsPerQuery / Math.max(1, pointsPerSeries)));
  const batches: NamespaceBatch[] = [];
  let current: NamespaceBatch | undefined;
  for (const ns of [...sizes.keys()].sort()) {
    const series = Math.max(1, sizes.get(ns) ?? 1);
    if (current && (current.series + series > maxSeries || current.namespaces.length >= maxNamespacesPerQuery)) current = undefined;
    if (!current) {
      current = { namespaces: [], series: 0 };
      batches.push(current);
    }
    current.namespaces.push(ns);
    current.series += series;
  }
  return batches;
}
