import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeSim } from '../../src/kube-sim.ts';
import { parseScenario } from '../../src/scenario.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

async function query(port: number, promql: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
  return body.data.result;
}

test('a real Prometheus scrapes both metrics endpoints and rate() of the cpu counter is the simulated usage', async (t) => {
  const scenario = parseScenario(`
nodes: [{name: n}]
workloads:
  - kind: Deployment
    name: web
    replicas: 1
    containers:
      - name: app
        requests: {cpu: 250m, memory: 128Mi}
        limits: {cpu: "1", memory: 256Mi}
        usage: {cpu: "steady(300m)", memory: "steady(100Mi)"}
`);
  const sim = await startKubeSim({ crdManifests: VPA_CRDS, scenario, speed: 1, tickMs: 200 });
  t.after(() => sim.close());
  const dir = mkdtempSync(join(tmpdir(), 'kube-sim-prom-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const target = `127.0.0.1:${sim.server.port}`;
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: {scrape_interval: 1s}',
      'scrape_configs:',
      ...['cadvisor', 'kube-state'].map(
        (path) =>
          `  - {job_name: ${path}, scheme: https, tls_config: {insecure_skip_verify: true}, metrics_path: /metrics/${path}, static_configs: [{targets: ['${target}']}]}`,
      ),
    ].join('\n'),
  );
  const port = await freePort();
  const prometheus = spawn(
    'prometheus',
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => prometheus.on('exit', resolve));
  t.after(async () => {
    prometheus.kill('SIGTERM');
    await exited;
  });
  // Wait until Prometheus holds scrapes spanning 15 s, then take the counter's slope over them (what
  // rate() estimates, without its extrapolation at the window's edges). Each sample is stamped
  // with the scrape's start, while the counter is as of the sim's last tick, which a loaded event
  // loop delays by up to ~1 s: over 15 s that moves the slope by < 7% (0.02 of 0.3 cores); over
  // the 5 s of 6 scrapes it could move it by 20%.
  let rate: number | undefined;
  let span = 0;
  for (let i = 0; i < 120 && rate === undefined; i++) {
    await new Promise((r) => setTimeout(r, 500));
    try {
      const res = await fetch(
        `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent('container_cpu_usage_seconds_total{namespace="default",container="app"}[30s]')}`,
      );
      const body = (await res.json()) as { data: { result: Array<{ values: Array<[number, string]> }> } };
      const values = body.data.result[0]?.values ?? [];
      const [t1, v1] = values[0] ?? [0, '0'];
      const [t2, v2] = values[values.length - 1] ?? [0, '0'];
      span = t2 - t1;
      if (span >= 15) rate = (Number(v2) - Number(v1)) / span;
    } catch {
      // Prometheus is still starting
    }
  }
  const q = await query(port, 'kube_pod_container_resource_requests{namespace="default",container="app",resource="cpu"}');
  const requests = q.length > 0 ? Number(q[0]!.value[1]) : undefined;
  assert.equal(requests, 0.25);
  assert.ok(rate !== undefined && Math.abs(rate - 0.3) < 0.05, `rate ${rate} is about 0.3 cores (scrapes over ${span} s)`);
});
