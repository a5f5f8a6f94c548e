/**
 * A real VictoriaMetrics (Debian's `victoria-metrics`) as a second PromQL backend: installs it when
 * missing, starts it on a free 127.0.0.1 port with a temp data dir, imports the series through
 * /api/v1/import/prometheus, flushes until every series can be found, and stops it afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureDebianPackage } from './debian-package.ts';
import { exposition, type FixtureSeries } from './fixture-series.ts';
import { startServerProcess, type RunningServer } from '../../src/local-prometheus/prometheus-process.ts';

export async function startVictoriaMetrics(series: readonly FixtureSeries[]): Promise<RunningServer> {
  ensureDebianPackage('victoria-metrics', ['victoria-metrics']);
  const workDir = await mkdtemp(join(tmpdir(), 'tailor-vm-'));
  const server = await startServerProcess({
    command: 'victoria-metrics',
    args: (port) => [
      `-httpListenAddr=127.0.0.1:${port}`,
      `-storageDataPath=${join(workDir, 'data')}`,
      '-retentionPeriod=100y',
      '-search.latencyOffset=0s',
      '-search.disableCache',
      '-loggerLevel=ERROR',
    ],
    readyPath: '/health',
    readyTimeoutMs: 30_000,
    cleanup: () => rm(workDir, { recursive: true, force: true }),
  });
  const { url, stop } = server;
  try {
    for (const body of exposition(series)) {
      const res = await fetch(`${url}/api/v1/import/prometheus`, { method: 'POST', body });
      if (!res.ok) throw new Error(`VictoriaMetrics import failed: HTTP ${res.status} ${await res.text()}`);
    }
    await untilSearchable(url, series);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

/**
 * Flushes until every imported series is found by /api/v1/series. The import answers before its
 * rows reach the storage (they are parsed by worker goroutines), so one flush right after it can
 * come too early under load: the first queries then saw no series at all.
 */
async function untilSearchable(url: string, series: readonly FixtureSeries[], timeoutMs = 60_000): Promise<void> {
  const withSamples = series.filter((s) => s.samples.some(([, v]) => Number.isFinite(v)));
  // VictoriaMetrics drops labels with an empty value, as Prometheus does.
  const expected = new Set(
    withSamples.map((s) =>
      JSON.stringify([
        s.metric,
        Object.entries(s.labels)
          .filter(([, v]) => v !== '')
          .sort(),
      ]),
    ),
  ).size;
  let first = Infinity;
  let last = -Infinity;
  for (const s of withSamples) for (const [t] of s.samples) [first, last] = [Math.min(first, t), Math.max(last, t)];
  const range = `start=${Math.floor(first / 1000)}&end=${Math.ceil(last / 1000) + 1}`;
  const deadline = Date.now() + timeoutMs;
  let found = 0;
  for (;;) {
    const flush = await fetch(`${url}/internal/force_flush`);
    if (!flush.ok) throw new Error(`VictoriaMetrics flush failed: HTTP ${flush.status}`);
    const res = await fetch(`${url}/api/v1/series?match[]=${encodeURIComponent('{__name__!=""}')}&${range}`);
    if (!res.ok) throw new Error(`VictoriaMetrics series query failed: HTTP ${res.status} ${await res.text()}`);
    found = ((await res.json()) as { data: unknown[] }).data.length;
    if (found >= expected) {
      // The rows of a series found now may have reached the storage after the flush above.
      const last = await fetch(`${url}/internal/force_flush`);
      if (!last.ok) throw new Error(`VictoriaMetrics flush failed: HTTP ${last.status}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`VictoriaMetrics: ${found} of ${expected} imported series searchable after ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}
