/**
 * `tailor recommend` and `tailor audit` over the clusters of the plan (cluster-settings.ts): the
 * clusters are found (the kubeconfig's contexts for `--all-contexts`, the label's values in
 * Prometheus for `--all-clusters`), then read one after the other, each with its own context and
 * `<label>="<name>"` added to every query, and their rows joined, each tagged with its cluster. A
 * cluster that fails (an unknown context, an API server that cannot be reached, no series with its
 * label) is kept with its reason and the others are still reported; when none can be read the run
 * fails with every reason. A one-cluster plan runs exactly as before, with no cluster anywhere.
 */
import { homedir } from 'node:os';
import { Registry } from 'prom-client';
import { createLogger } from '../observability/logger.ts';
import { connectKube } from '../kube/kube-connection.ts';
import { discoverClusters } from '../metrics/cluster-discovery.ts';
import { PrometheusQueryClient } from '../metrics/query-client.ts';
import { matcher } from '../metrics/promql-selector.ts';
import { SourceMetrics } from '../metrics/source-metrics.ts';
import { withCluster, type ClusterFailure } from '../report/clusters.ts';
import { ClusterOutlines } from '../report/audit/cluster-outlines.ts';
import type { ReportRow } from '../report/report-rows.ts';
import { errorChainMessage } from './error-message.ts';
import { UsageError } from './exit-codes.ts';
import type { ClusterPlan } from './cluster-settings.ts';
import { readRecommendations, type RunExtras } from './recommend-source.ts';
import type { SourceSettings } from './recommend-source-settings.ts';

/** One cluster to read: its name in the report, and its kube context when requests come from one. */
export interface ClusterTarget {
  name: string;
  context?: string;
}

/** The rows of every cluster read, and the clusters that could not be. */
export interface ClustersRun {
  rows: ReportRow[];
  failures: ClusterFailure[];
  /** With `outlinePoints`: every row's usage outline, by clusterRowId (clusters.ts). */
  outlines?: ClusterOutlines;
  now: number;
  historyMs: number;
  strategy: string;
}

/** No cluster could be read: every one is named with its reason (exit code 1). */
export class NoClusterReportedError extends Error {
  override readonly name = 'NoClusterReportedError';
}

/** The clusters a plan of several names: targets to read, and names of `--cluster` that match none. */
export async function clusterTargets(
  s: SourceSettings,
  plan: Exclude<ClusterPlan, { kind: 'one' }>,
): Promise<{ targets: ClusterTarget[]; failures: ClusterFailure[] }> {
  if (plan.kind === 'label') {
    if (plan.clusters !== 'all') return { targets: plan.clusters.map((name) => ({ name })), failures: [] };
    const client = new PrometheusQueryClient(s.connection, createLogger({ level: s.logLevel }), new SourceMetrics(new Registry()).observer());
    const found = await discoverClusters(client, s.query, plan.label, s.now, s.historyMs);
    if (found.size === 0)
      throw new NoClusterReportedError(
        `--all-clusters: no container CPU usage with a ${plan.label} label in the hour before ${new Date(s.now).toISOString()} (check --cluster-label and --selector)`,
      );
    return { targets: [...found.keys()].map((name) => ({ name })), failures: [] };
  }
  const contexts =
    plan.contexts === 'all'
      ? connectKube({ kubeconfig: s.kubeconfig, env: process.env, homeDir: homedir() })
          .kubeConfig.getContexts()
          .map((c) => c.name)
      : plan.contexts;
  const all = contexts.map((context) => ({ name: plan.names.get(context) ?? context, context }));
  for (const [i, t] of all.entries()) {
    const other = all.findIndex((u) => u.name === t.name);
    if (other !== i)
      throw new UsageError(`contexts ${all[other]!.context} and ${t.context} both name cluster ${t.name}: give them apart with --cluster-name CONTEXT=NAME`);
  }
  if (plan.only === undefined) return { targets: all, failures: [] };
  const only = plan.only;
  const names = all.map((t) => t.name);
  return {
    targets: all.filter((t) => only.includes(t.name)),
    failures: only
      .filter((n) => !names.includes(n))
      .map((cluster) => ({ cluster, reason: `no such cluster among the contexts (has: ${names.join(', ') || 'none'})` })),
  };
}

/** The settings of one cluster's run: its context, and its label added to every query. */
export function settingsFor(s: SourceSettings, label: string, target: ClusterTarget): SourceSettings {
  const own = matcher(label, '=', target.name);
  const extraSelector = s.query.extraSelector === '' ? own : `${s.query.extraSelector}, ${own}`;
  const { kubeContext: _one, ...rest } = s;
  return {
    ...rest,
    query: { ...s.query, extraSelector },
    ...(target.context === undefined ? { readCluster: false } : { kubeContext: target.context, readCluster: true }),
  };
}

/** Reads every cluster of the settings' plan (one cluster: as always). */
export async function readClusters(s: SourceSettings, extras: RunExtras = {}): Promise<ClustersRun> {
  const plan = s.clusters;
  const common = { now: s.now, historyMs: s.historyMs, strategy: s.strategyName };
  if (plan.kind === 'one') {
    const run = await readRecommendations(s, extras);
    const outlines = run.outlines ? new ClusterOutlines().add(undefined, run.outlines) : undefined;
    return { rows: run.rows, failures: [], ...(outlines ? { outlines } : {}), ...common };
  }
  const { targets, failures } = await clusterTargets(s, plan);
  const rows: ReportRow[] = [];
  const outlines = extras.outlinePoints === undefined ? undefined : new ClusterOutlines();
  for (const target of targets) {
    try {
      const run = await readRecommendations(settingsFor(s, plan.label, target), { ...extras, warningPrefix: `cluster ${target.name}: ` });
      rows.push(...withCluster(run.rows, target.name));
      if (run.outlines) outlines?.add(target.name, run.outlines);
    } catch (err) {
      failures.push({ cluster: target.name, reason: errorChainMessage(err) });
    }
  }
  if (rows.length === 0) {
    const why = failures.map((f) => `${f.cluster}: ${f.reason}`).join('; ');
    throw new NoClusterReportedError(targets.length === 0 && failures.length === 0 ? 'no cluster to report' : `no cluster could be reported: ${why}`);
  }
  return { rows, failures, ...(outlines ? { outlines } : {}), ...common };
}
