/**
 * The demo's Prometheus: the history written as OpenMetrics and backfilled with promtool, then a
 * Prometheus (src/local-prometheus, installed with apt when missing) scraping kube-sim's
 * /metrics/cadvisor and /metrics/kube-state (HTTPS with the sim's own CA: verification skipped on
 * loopback) and Tailor's /metrics.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { startLocalPrometheus, type LocalPrometheus } from '../local-prometheus/prometheus-process.ts';
import type { HistorySeries, ScrapeLabels } from './openmetrics-history.ts';
import { openMetricsLines } from './openmetrics-history.ts';

/** Where Prometheus scrapes. */
export interface ScrapeTargets {
  /** kube-sim's `host:port`. */
  sim: string;
  /** Tailor's /metrics `host:port`. */
  tailor: string;
  /** Scrape interval in seconds. */
  intervalSeconds: number;
}

/** The labels Prometheus adds to kube-sim's two endpoints (job names as in {@link scrapeConfig}). */
export function scrapeLabels(t: ScrapeTargets): ScrapeLabels {
  return { cadvisor: { job: 'cadvisor', instance: t.sim }, kubeState: { job: 'kube-state', instance: t.sim } };
}

/** prometheus.yml for the demo (pure). */
export function scrapeConfig(t: ScrapeTargets): string {
  const sim = (path: string) =>
    `  - {job_name: ${path}, scheme: https, tls_config: {insecure_skip_verify: true}, metrics_path: /metrics/${path}, static_configs: [{targets: ['${t.sim}']}]}`;
  return [
    `global: {scrape_interval: ${t.intervalSeconds}s, evaluation_interval: ${t.intervalSeconds}s}`,
    'scrape_configs:',
    sim('cadvisor'),
    sim('kube-state'),
    `  - {job_name: tailor, metrics_path: /metrics, static_configs: [{targets: ['${t.tailor}']}]}`,
    '',
  ].join('\n');
}

/** Writes the OpenMetrics lines of `series` to `file`, with back-pressure; stops when `signal` aborts. Returns the line count. */
export async function writeOpenMetrics(file: string, series: readonly HistorySeries[], intervalMs: number, signal?: AbortSignal): Promise<number> {
  const out = createWriteStream(file);
  let lines = 0;
  let chunk: string[] = [];
  const flush = async () => {
    signal?.throwIfAborted();
    if (chunk.length === 0) return;
    if (!out.write(`${chunk.join('\n')}\n`)) await once(out, 'drain');
    chunk = [];
  };
  try {
    for (const line of openMetricsLines(series, intervalMs)) {
      chunk.push(line);
      lines++;
      if (chunk.length >= 10_000) await flush();
    }
    await flush();
  } finally {
    out.end();
    await once(out, 'close');
  }
  return lines;
}

/**
 * Backfills the history and starts Prometheus in `dir` (removed by the caller). promtool and
 * Prometheus run in process groups of their own: a terminal's Ctrl-C stops the demo, which runs
 * its audit against this Prometheus before it stops it. `signal` aborts the start (Ctrl-C during
 * start-up): what was started is stopped before the promise rejects.
 */
export async function startDemoPrometheus(
  dir: string,
  series: readonly HistorySeries[],
  intervalMs: number,
  targets: ScrapeTargets,
  signal?: AbortSignal,
): Promise<LocalPrometheus & { samples: number }> {
  const file = join(dir, 'history.om');
  const samples = (await writeOpenMetrics(file, series, intervalMs, signal)) - 1;
  const workDir = join(dir, 'prometheus');
  await mkdir(workDir, { recursive: true });
  const prometheus = await startLocalPrometheus({ files: [file], config: scrapeConfig(targets), workDir, detached: true, ...(signal ? { signal } : {}) });
  return Object.assign(prometheus, { samples });
}
