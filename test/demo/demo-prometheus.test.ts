import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { scrapeConfig, scrapeLabels, writeOpenMetrics } from '../../src/demo/demo-prometheus.ts';
import type { HistorySeries } from '../../src/demo/openmetrics-history.ts';

const targets = { sim: '127.0.0.1:6443', tailor: '127.0.0.1:8942', intervalSeconds: 5 };

test('the scrape config: kube-sim over https without verification, Tailor over http, every 5 s; the labels it adds', () => {
  const config = parse(scrapeConfig(targets)) as { global: { scrape_interval: string }; scrape_configs: Array<Record<string, unknown>> };
  assert.equal(config.global.scrape_interval, '5s');
  assert.deepEqual(
    config.scrape_configs.map((j) => [
      j['job_name'],
      j['scheme'] ?? 'http',
      j['metrics_path'],
      (j['static_configs'] as Array<{ targets: string[] }>)[0]!.targets[0],
    ]),
    [
      ['cadvisor', 'https', '/metrics/cadvisor', '127.0.0.1:6443'],
      ['kube-state', 'https', '/metrics/kube-state', '127.0.0.1:6443'],
      ['tailor', 'http', '/metrics', '127.0.0.1:8942'],
    ],
  );
  assert.deepEqual(config.scrape_configs[0]!['tls_config'], { insecure_skip_verify: true });
  assert.deepEqual(scrapeLabels(targets), {
    cadvisor: { job: 'cadvisor', instance: '127.0.0.1:6443' },
    kubeState: { job: 'kube-state', instance: '127.0.0.1:6443' },
  });
});

test('the OpenMetrics file holds every line, # EOF last', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tailor-demo-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // 25,000 samples: more than one write chunk.
  const series: HistorySeries[] = [{ metric: 'kube_pod_owner', labels: { pod: 'a' }, constant: 1, from: 0, to: 25_000 * 300_000 - 1 }];
  const file = join(dir, 'h.om');
  assert.equal(await writeOpenMetrics(file, series, 30_000), 25_001);
  const lines = (await readFile(file, 'utf8')).split('\n');
  assert.equal(lines[0], 'kube_pod_owner{pod="a"} 1 0');
  assert.deepEqual(lines.slice(-3), ['kube_pod_owner{pod="a"} 1 7499700', '# EOF', '']);
});
