/**
 * What `tailor recommend` and `tailor audit` share: the run that reads the history (where and how
 * from the checked options, recommend-source-settings.ts) into report rows, with a progress bar on
 * a terminal and the data warnings on stderr.
 */
import { homedir } from 'node:os';
import cliProgress from 'cli-progress';
import { Registry } from 'prom-client';
import { createLogger, type Logger } from '../observability/logger.ts';
import type { SourceSettings } from './recommend-source-settings.ts';
import { PrometheusQueryClient } from '../metrics/query-client.ts';
import { PrometheusMetricsSource } from '../metrics/prometheus-source.ts';
import { SourceMetrics } from '../metrics/source-metrics.ts';
import { limitHeapGrowth } from '../observability/heap-growth.ts';
import { cgroupMemoryLimit } from '../observability/cgroup-memory.ts';
import { runRecommend, type RecommendResult } from '../report/recommend-run.ts';
import { connectKube } from '../kube/kube-connection.ts';
import { kubeClusterLister, readClusterResources } from '../report/cluster-resources.ts';

/** What a run read, with the evaluation time and window it used. */
export interface RecommendRun extends RecommendResult {
  now: number;
  historyMs: number;
  strategy: string;
  logger: Logger;
}

/** What a run adds to the settings: the audit's chart points; a prefix for its warnings (`cluster prod: `). */
export interface RunExtras {
  outlinePoints?: number;
  warningPrefix?: string;
}

/** Reads the history and builds the rows; data warnings go to stderr. */
export async function readRecommendations(s: SourceSettings, extras: RunExtras = {}): Promise<RecommendRun> {
  const { warningPrefix = '', ...extra } = extras;
  const logger = createLogger({ level: s.logLevel });
  const metrics = new SourceMetrics(new Registry());
  const client = new PrometheusQueryClient(s.connection, logger, metrics.observer());
  const source = new PrometheusMetricsSource(client, s.query, logger);
  // The cluster is read only when asked for: a flag, KUBECONFIG in the environment, or a context of several clusters.
  const useCluster = s.readCluster ?? (s.kubeconfig !== undefined || (process.env['KUBECONFIG'] ?? '') !== '');
  const kube = useCluster ? connectKube({ kubeconfig: s.kubeconfig, context: s.kubeContext, env: process.env, homeDir: homedir() }) : undefined;
  if (kube) logger.info({ cluster: kube.description }, 'current requests and limits from the cluster');
  const bar =
    s.progress && process.stderr.isTTY
      ? new cliProgress.SingleBar({ stream: process.stderr, format: 'reading history [{bar}] {value}/{total} chunks' }, cliProgress.Presets.shades_classic)
      : undefined;
  try {
    const memoryBudgetBytes = s.memoryBudgetBytes ?? cgroupMemoryLimit();
    limitHeapGrowth(); // the history read's garbage in proportion to the model (decision 0265)
    const result = await runRecommend({
      source,
      strategy: s.strategy,
      now: s.now,
      namespaces: s.namespaces,
      feed: {
        historyMs: s.historyMs,
        stepMs: s.stepMs,
        maxPointsPerQuery: s.maxPointsPerQuery,
        scrapeIntervalMs: s.scrapeIntervalMs,
        ...(memoryBudgetBytes === undefined ? {} : { memoryBudgetBytes }),
      },
      logger,
      metrics,
      metricNames: s.query.metrics,
      readCluster: kube ? (namespaces) => readClusterResources(kubeClusterLister(kube.kubeConfig), namespaces) : undefined,
      onProgress: bar ? (done, total) => (done === 0 ? bar.start(total, 0) : bar.update(done)) : undefined,
      ...extra,
    });
    bar?.stop();
    for (const line of result.warnings) process.stderr.write(`tailor: warning: ${warningPrefix}${line}\n`);
    return { ...result, now: s.now, historyMs: s.historyMs, strategy: s.strategyName, logger };
  } finally {
    bar?.stop();
  }
}
