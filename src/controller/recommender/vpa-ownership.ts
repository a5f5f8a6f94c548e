/**
 * Two VPAs on one workload: the oldest (by creationTimestamp, then name) gets it, the others are
 * told which VPA owns it. Worked example: `a` created 10:00 and `b` created 09:00 both target
 * Deployment/web -> `b` wins, `a` gets "Deployment/web is already handled by VPA b".
 */

/** What the ownership decision needs of a VPA. */
export interface VpaTargetKey {
  /** `namespace/name` of the VPA. */
  id: string;
  name: string;
  namespace: string;
  /** ms since the epoch; a missing one sorts last. */
  createdAt: number | undefined;
  targetKind: string;
  targetName: string;
}

/** For each VPA that loses, the name of the VPA that owns its workload. */
export function losingVpas(vpas: readonly VpaTargetKey[]): Map<string, string> {
  const byTarget = new Map<string, VpaTargetKey[]>();
  for (const v of vpas) {
    const key = `${v.namespace}/${v.targetKind}/${v.targetName}`;
    const list = byTarget.get(key) ?? [];
    list.push(v);
    byTarget.set(key, list);
  }
  const losers = new Map<string, string>();
  for (const list of byTarget.values()) {
    if (list.length < 2) continue;
    const sorted = [...list].sort((a, b) => (a.createdAt ?? Infinity) - (b.createdAt ?? Infinity) || a.name.localeCompare(b.name));
    for (const loser of sorted.slice(1)) losers.set(loser.id, sorted[0]!.name);
  }
  return losers;
}
