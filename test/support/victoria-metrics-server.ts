/**
 * A real VictoriaMetrics (Debian's `victoria-metrics`) as a second PromQL backend: installs it when
 * missing, starts it on a free 127.0.0.1 port with a temp data dir, imports the series through
 * /api/v1/import/prometheus, flushes, and stops it afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const flush = await fetch(`${url}/internal/force_flush`);
    if (!flush.ok) throw new Error(`VictoriaMetrics flush failed: HTTP ${flush.status}`);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
