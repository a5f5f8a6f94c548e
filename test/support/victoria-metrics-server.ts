/**
 * A real VictoriaMetrics (Debian's `victoria-metrics`) as a second PromQL backend: installs it when
 * missing, starts it on a free 127.0.0.1 port with a temp data dir, imports the series through
 * /api/v1/import/prometheus, flushes, and stops it afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild, track } from './child-processes.ts';
import { ensureDebianPackage } from './debian-package.ts';
import { exposition, type FixtureSeries } from './fixture-series.ts';
import { freePort } from './free-port.ts';
import { waitReady, type RunningServer } from './prometheus-server.ts';

export async function startVictoriaMetrics(series: readonly FixtureSeries[]): Promise<RunningServer> {
  ensureDebianPackage('victoria-metrics', ['victoria-metrics']);
  const workDir = await mkdtemp(join(tmpdir(), 'tailor-vm-'));
  const port = await freePort();
  const child = spawn(
    'victoria-metrics',
    [
      `-httpListenAddr=127.0.0.1:${port}`,
      `-storageDataPath=${join(workDir, 'data')}`,
      '-retentionPeriod=100y',
      '-search.latencyOffset=0s',
      '-search.disableCache',
      '-loggerLevel=ERROR',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  track(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-10_000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    await rm(workDir, { recursive: true, force: true });
  };
  try {
    await waitReady(`${url}/health`, child, () => stderr, 30_000);
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
