/**
 * A real Prometheus (Debian's package, 2.42) for integration tests and the benchmark, on top of
 * src/local-prometheus: fixture series are written as one OpenMetrics file per day and backfilled;
 * `stop()` ends the server and removes its data.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backfill, startLocalPrometheus, waitReady, type RunningServer } from '../../src/local-prometheus/prometheus-process.ts';
import { openMetricsText, type FixtureSeries } from './fixture-series.ts';

const DAY = 24 * 3600_000;

export type { RunningServer };
export { backfill, waitReady };

/** Writes the series as one OpenMetrics file per UTC day into `dir`; returns the file paths. */
export async function writeOpenMetricsByDay(series: readonly FixtureSeries[], dir: string): Promise<string[]> {
  let min = Infinity;
  let max = -Infinity;
  for (const s of series) {
    for (const [t] of s.samples) {
      min = Math.min(min, t);
      max = Math.max(max, t);
    }
  }
  const files: string[] = [];
  for (let day = Math.floor(min / DAY) * DAY; day <= max; day += DAY) {
    const text = openMetricsText(series, day, day + DAY);
    if (text === null) continue;
    const path = join(dir, `day-${day}.om`);
    await writeFile(path, text);
    files.push(path);
  }
  return files;
}

export interface PrometheusStartOptions {
  /** Small fixtures: written per day and backfilled. */
  series?: readonly FixtureSeries[];
  /** Pre-written OpenMetrics files (large data, e.g. the benchmark). */
  files?: readonly string[];
  /** Where to work (default: a new temp dir, removed on stop). */
  workDir?: string;
}

/** Starts a backfilled Prometheus; `stop()` ends it and removes its data. */
export async function startPrometheus(options: PrometheusStartOptions = {}): Promise<RunningServer> {
  const files = [...(options.files ?? [])];
  let seriesDir: string | undefined;
  if (options.series) {
    seriesDir = options.workDir ?? (await mkdtemp(join(tmpdir(), 'tailor-om-')));
    files.push(...(await writeOpenMetricsByDay(options.series, seriesDir)));
  }
  const server = await startLocalPrometheus({ files, ...(options.workDir ? { workDir: options.workDir } : {}) });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      if (seriesDir && !options.workDir) await rm(seriesDir, { recursive: true, force: true });
    },
  };
}
