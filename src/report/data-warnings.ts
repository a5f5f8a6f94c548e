/**
 * What the reader of a report must know about the data behind it, one line each, with what to do:
 * CPU too sparse for its rate window (and the scrape interval behind it), missing kube-state-metrics series. Pure: rows and the sync report
 * in, lines out (the command prints them on stderr); rows concerned get a note too.
 */
import type { ContainerResources, OwnerLink } from '../metrics/metrics-source.ts';
import type { SyncReport } from '../metrics/usage-feed.ts';
import type { ReportRow } from './report-rows.ts';

const seconds = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

/** Warnings about CPU data too sparse for its rate window; adds a note to each row without CPU samples. */
export function sparseDataWarnings(rows: ReportRow[], sync: Pick<SyncReport, 'scrapeIntervalMs' | 'rateWindowMs'>): string[] {
  const out: string[] = [];
  const noCpu = rows.filter((r) => r.cpuSamples === 0);
  for (const r of noCpu) r.notes.push(`no CPU samples with a ${seconds(sync.rateWindowMs)} rate window`);
  if (noCpu.length > 0) {
    const interval = sync.scrapeIntervalMs === undefined ? 'unknown: no series had two samples in the last hour' : seconds(sync.scrapeIntervalMs);
    out.push(
      `${noCpu.length} container(s) have no CPU samples: the CPU data is too sparse for a ${seconds(sync.rateWindowMs)} rate window (scrape interval ${interval}); pass --scrape-interval with the real interval`,
    );
  }
  return out;
}

/** The kube-state-metrics series the report reads owners and current resources from. */
export interface OwnerAndResourceNames {
  podOwner: string;
  requests: string;
  limits: string;
}

/**
 * Warnings about missing kube-state-metrics series (without --kubeconfig): pods without an owner
 * series are shown as `Pod/<name>` and counted apart from their workload; without requests and
 * limits there is no difference and no savings. Example: no kube_pod_owner for pod api-7c9-x ->
 * "1 pod(s) have no kube_pod_owner series (e.g. prod/api-7c9-x) ...". Rows concerned get a note.
 */
export function missingSeriesWarnings(
  rows: ReportRow[],
  links: readonly OwnerLink[],
  resources: readonly ContainerResources[],
  names: OwnerAndResourceNames,
): string[] {
  const out: string[] = [];
  const fix = 'install kube-state-metrics (or name its series with --metric) or pass --kubeconfig to read them from the cluster';
  const owned = new Set(links.filter((l) => l.kind === 'Pod').map((l) => `${l.namespace}/${l.name}`));
  const orphans = rows.filter((r) => r.workload.kind === 'Pod' && !owned.has(`${r.namespace}/${r.workload.name}`));
  for (const r of orphans) r.notes.push(`owner unknown: no ${names.podOwner}`);
  if (orphans.length > 0) {
    const pods = new Set(orphans.map((r) => `${r.namespace}/${r.workload.name}`));
    out.push(`${pods.size} pod(s) have no ${names.podOwner} series (e.g. ${[...pods][0]}): they are shown as Pod/<name>, not as their workload; ${fix}`);
  }
  if (resources.length === 0) {
    for (const r of rows) r.notes.push('requests unknown');
    out.push(`no ${names.requests} or ${names.limits} series: current requests and limits are unknown (-/-), so there is no difference and no savings; ${fix}`);
  }
  return out;
}
