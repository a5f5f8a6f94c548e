/**
 * Which clusters `tailor recommend` and `tailor audit` report, from their flags, checked before
 * anything is read (every bad combination a {@link UsageError}, exit code 2):
 *
 * - none of the flags below, or one `--context`: one cluster, as always (no cluster column);
 * - `--context a --context b` (or `--kube-context`), `--all-contexts`: one cluster per context;
 *   requests and owners from that context, usage from the one Prometheus with
 *   `<--cluster-label>="<name>"` added to every query, the name being the context's unless
 *   `--cluster-name CONTEXT=NAME` says otherwise;
 * - `--all-clusters`: one cluster per value of the label in Prometheus (a Thanos of several
 *   clusters), requests from kube-state-metrics; `--cluster NAME` (repeatable) alone reports the
 *   clusters it names the same way.
 *
 * With contexts, `--cluster` keeps only the clusters it names. Pure.
 */
import { checkLabelName } from '../metrics/cluster-discovery.ts';
import type { RecommendSourceOptions } from './recommend-source-options.ts';
import { UsageError } from './exit-codes.ts';

/** One cluster, as today: the current or the given context (if the cluster is read at all). */
export interface OneCluster {
  kind: 'one';
  kubeContext?: string;
}

/** One cluster per kube context. */
export interface ContextClusters {
  kind: 'contexts';
  label: string;
  /** The contexts given, or `all`: every context of the kubeconfig (read when the command runs). */
  contexts: string[] | 'all';
  /** Context -> cluster name, where `--cluster-name` gives one. */
  names: ReadonlyMap<string, string>;
  /** `--cluster`: only these cluster names; absent: all. */
  only?: string[];
}

/** One cluster per value of the label in Prometheus, without a kubeconfig. */
export interface LabelClusters {
  kind: 'label';
  label: string;
  /** The clusters named with `--cluster`, or `all`: every value found (cluster-discovery.ts). */
  clusters: string[] | 'all';
}

export type ClusterPlan = OneCluster | ContextClusters | LabelClusters;

const distinct = (xs: readonly string[]) => [...new Set(xs)];

/** `--context` and `--kube-context` are one flag by two names: both given with other values is refused. */
function contextsOf(o: Pick<RecommendSourceOptions, 'kubeContext' | 'context'>): string[] {
  if (o.kubeContext.length > 0 && o.context.length > 0 && o.kubeContext.join('\u0000') !== o.context.join('\u0000')) {
    throw new UsageError(
      `--context ${JSON.stringify(o.context.join(', '))} and --kube-context ${JSON.stringify(o.kubeContext.join(', '))} name two contexts; give one (repeat it for several clusters)`,
    );
  }
  return distinct(o.kubeContext.length > 0 ? o.kubeContext : o.context);
}

/** `--cluster-name CONTEXT=NAME` pairs. */
function namesOf(pairs: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const pair of pairs) {
    const i = pair.indexOf('=');
    if (i <= 0 || i === pair.length - 1) throw new UsageError(`--cluster-name ${JSON.stringify(pair)}: expected CONTEXT=NAME, e.g. ctx-prod-eu=prod`);
    names.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return names;
}

type ClusterOptions = Pick<RecommendSourceOptions, 'kubeContext' | 'context' | 'allContexts' | 'allClusters' | 'cluster' | 'clusterLabel' | 'clusterName'>;

/** The plan of the flags; throws {@link UsageError} for a combination that cannot be meant. */
export function clusterPlan(o: ClusterOptions): ClusterPlan {
  const contexts = contextsOf(o);
  let label: string;
  try {
    label = checkLabelName(o.clusterLabel);
  } catch (err) {
    throw new UsageError(`--cluster-label: ${(err as Error).message}`, { cause: err });
  }
  const names = namesOf(o.clusterName);
  const only = distinct(o.cluster);
  if (o.cluster.some((c) => c === '')) throw new UsageError('--cluster: a cluster name cannot be empty');
  if (o.allContexts && contexts.length > 0) throw new UsageError('--all-contexts and --context name the contexts twice; give one');
  if (o.allClusters && (o.allContexts || contexts.length > 0))
    throw new UsageError('--all-clusters reads the clusters from Prometheus, --context and --all-contexts from the kubeconfig; give one');
  const byContext = o.allContexts === true || contexts.length > 1 || (contexts.length === 1 && only.length > 0);
  if (names.size > 0 && !byContext) throw new UsageError('--cluster-name names the cluster of a context: give several --context, or --all-contexts');
  if (byContext) {
    if (contexts.length > 0) {
      const unknown = [...names.keys()].filter((c) => !contexts.includes(c));
      if (unknown.length > 0) throw new UsageError(`--cluster-name ${unknown.join(', ')}: not among the contexts given (${contexts.join(', ')})`);
    }
    return { kind: 'contexts', label, contexts: o.allContexts ? 'all' : contexts, names, ...(only.length > 0 ? { only } : {}) };
  }
  if (o.allClusters || only.length > 0) return { kind: 'label', label, clusters: only.length > 0 ? only : 'all' };
  return contexts.length === 1 ? { kind: 'one', kubeContext: contexts[0]! } : { kind: 'one' };
}
