/**
 * End to end on a real Prometheus: the recommendation computed from Prometheus history equals the
 * one computed from the same samples fed straight into the model (within one histogram bucket,
 * 5%), and `tailor recommend` prints it in the JSON contract; with a kubeconfig (kube-sim) the
 * current requests and limits come from the cluster's pods instead of kube-state-metrics.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { startKubeSim } from 'kube-sim';
import { defaultScenario } from 'kube-sim/scenario';
import { silentLogger } from '../../src/observability/logger.ts';
import { queryConfig } from '../../src/metrics/metric-names.ts';
import { PrometheusQueryClient } from '../../src/metrics/query-client.ts';
import { PrometheusMetricsSource } from '../../src/metrics/prometheus-source.ts';
import { vpaStrategy } from '../../src/model/vpa-strategy.ts';
import { tailorStrategy } from '../../src/model/tailor/tailor-strategy.ts';
import type { ResourceEstimate } from '../../src/model/types.ts';
import { runRecommend } from '../../src/report/recommend-run.ts';
import type { RowJson } from '../../src/report/report-json.ts';
import { startPrometheus, type RunningServer } from '../support/prometheus-server.ts';
import { CONTAINERS, END, START, sampleClusterSeries } from '../support/sample-cluster.ts';
import { MINUTE } from '../support/usage-fixture.ts';
import { freePort } from '../support/free-port.ts';
import { VPA_CRD_MANIFESTS } from '../../src/api/vpa-crd-manifests.ts';

const BUCKET = 1.05;

/** The estimate of a workload container fed directly from the fixture's own numbers. */
function direct(workloadPods: string[]): ResourceEstimate {
  const model = vpaStrategy().newModel({ containersInPod: 1 });
  for (const c of CONTAINERS.filter((x) => workloadPods.includes(x.pod))) {
    for (let t = START + MINUTE; t <= END; t += MINUTE) model.addCpuSample(c.cpuCores(t), t, c.pod);
    let peak = 0;
    for (let t = START + 15_000; t <= END; t += 30_000) {
      model.addMemorySample(c.memoryBytes(t), t, c.pod);
      peak = Math.max(peak, c.memoryBytes(t));
    }
    for (const at of c.oomKillsAt ?? []) model.recordOom(Math.max(c.requests?.memory ?? 0, peak), at, c.pod);
  }
  return model.estimate(END)!;
}

/** Tailor's estimate fed directly: the pods' samples merged minute by minute, memory as 1-minute peaks. */
function directTailor(workloadPods: string[]): ResourceEstimate {
  const model = tailorStrategy().newModel();
  const pods = CONTAINERS.filter((x) => workloadPods.includes(x.pod));
  for (let t = START + MINUTE; t <= END; t += MINUTE) {
    for (const c of pods) model.addCpuSample(c.cpuCores(t), t, c.pod);
    for (const c of pods) model.addMemorySample(Math.max(c.memoryBytes(t - 45_000), c.memoryBytes(t - 15_000)), t, c.pod);
    for (const c of pods) {
      const oom = (c.oomKillsAt ?? []).find((at) => at > t - MINUTE && at <= t);
      if (oom !== undefined) model.recordOom(c.requests?.memory ?? 0, t, c.pod);
    }
  }
  return model.estimate(END)!;
}

function assertWithinBucket(got: number, want: number, what: string): void {
  assert.ok(got <= want * BUCKET && got >= want / BUCKET, `${what}: ${got} vs ${want} (more than one 5% bucket apart)`);
}

describe('recommend from a real Prometheus', () => {
  let server: RunningServer | undefined;
  before(async () => {
    server = await startPrometheus({ series: sampleClusterSeries() });
  });
  after(async () => {
    await server?.stop();
  });

  test('Prometheus history and directly fed samples give the same recommendation (within one bucket)', async () => {
    const client = new PrometheusQueryClient({ url: server!.url }, silentLogger());
    const source = new PrometheusMetricsSource(client, queryConfig({ extraSelector: 'cluster="test"' }), silentLogger());
    const { rows, sync } = await runRecommend({ source, strategy: vpaStrategy(), now: END, feed: { lagMs: 0 }, logger: silentLogger() });
    assert.deepEqual(
      rows.map((r) => `${r.namespace}/${r.workload.kind}/${r.workload.name}/${r.container}`),
      ['batch/CronJob/report/worker', 'shop/Deployment/web/app', 'shop/StatefulSet/db/postgres'],
    );
    assert.equal(sync.oomEvents, 2);
    const expected: Record<string, string[]> = { report: ['report-123-xyz'], web: ['web-abc-1', 'web-abc-2'], db: ['db-0'] };
    for (const row of rows) {
      const want = direct(expected[row.workload.name]!);
      for (const r of ['cpu', 'memory'] as const) {
        assertWithinBucket(row[r].target!, want.target[r], `${row.workload.name} ${r} target`);
        assertWithinBucket(row[r].lowerBound!, want.lowerBound[r], `${row.workload.name} ${r} lower`);
        assertWithinBucket(row[r].upperBound!, want.upperBound[r], `${row.workload.name} ${r} upper`);
      }
    }
    const web = rows.find((r) => r.workload.name === 'web')!;
    assert.equal(web.pods, 2);
    assert.equal(web.cpu.request, 500);
    assert.equal(web.cpu.savings, (500 - web.cpu.target!) * 2);
  });

  test('the tailor strategy (time-ordered) gives the same recommendation from Prometheus as fed directly', async () => {
    const client = new PrometheusQueryClient({ url: server!.url }, silentLogger());
    const source = new PrometheusMetricsSource(client, queryConfig({ extraSelector: 'cluster="test"' }), silentLogger());
    const { rows } = await runRecommend({ source, strategy: tailorStrategy(), now: END, namespaces: ['shop'], feed: { lagMs: 0 }, logger: silentLogger() });
    const expected: Record<string, string[]> = { web: ['web-abc-1', 'web-abc-2'], db: ['db-0'] };
    for (const row of rows) {
      const want = directTailor(expected[row.workload.name]!);
      for (const r of ['cpu', 'memory'] as const) assertWithinBucket(row[r].target!, want.target[r], `tailor ${row.workload.name} ${r} target`);
    }
  });

  test('tailor recommend prints the JSON contract', () => {
    const result = spawnSync(
      process.execPath,
      [
        'bin/tailor.mjs',
        'recommend',
        '--prometheus-url',
        server!.url,
        '--selector',
        'cluster="test"',
        '--namespace',
        'shop',
        '--at',
        new Date(END).toISOString(),
        '--format',
        'json',
      ],
      { encoding: 'utf8' },
    );
    assert.equal(result.status, 0, result.stderr);
    const rows = JSON.parse(result.stdout) as RowJson[];
    assert.deepEqual(
      rows.map((r) => [r.namespace, r.workload, r.container]),
      [
        ['shop', { kind: 'Deployment', name: 'web' }, 'app'],
        ['shop', { kind: 'StatefulSet', name: 'db' }, 'postgres'],
      ],
    );
    const web = rows[0]!;
    assert.equal(web.cpu.request, '500m');
    assert.equal(web.cpu.limit, '1');
    assert.equal(web.memory.request, '512Mi');
    assert.equal(web.memory.limit, '1Gi');
    for (const q of [web.cpu.target, web.cpu.lowerBound, web.cpu.upperBound]) assert.match(q!, /^\d+m?$/);
    for (const q of [web.memory.target, web.memory.lowerBound, web.memory.upperBound]) assert.match(q!, /^\d+(Mi|Gi|Ti)$/);
    assert.ok(Number.isInteger(web.memory.bytes.target) && Number.isInteger(web.cpu.millicores.target));
    assert.equal(rows[1]!.cpu.limit, null);
  });

  test("tailor recommend with prices: each row's monthly saving in the JSON and the table, and the total under the table", (t) => {
    const args = [
      'bin/tailor.mjs',
      'recommend',
      '--prometheus-url',
      server!.url,
      '--selector',
      'cluster="test"',
      '--namespace',
      'shop',
      '--at',
      String(END),
      '--cpu-hour-price',
      '0.03',
      '--memory-gib-hour-price',
      '0.004',
      '--currency',
      'EUR',
    ];
    const json = spawnSync(process.execPath, [...args, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(json.status, 0, json.stderr);
    const rows = JSON.parse(json.stdout) as RowJson[];
    const web = rows.find((r) => r.workload.name === 'web')!;
    // (request - target) x 2 pods x price x 730 h (here a cost: web needs more than it requests).
    const cpu = (((500 - web.cpu.millicores.target!) * 2) / 1000) * 0.03 * 730;
    const memory = (((web.memory.bytes.request! - web.memory.bytes.target!) * 2) / 2 ** 30) * 0.004 * 730;
    assert.equal(web.monthlySaving?.currency, 'EUR');
    // The exact figures are rounded up to a whole millicore and byte: within 1m x 2 pods x 0.03 x 730 h / 1000 = 0.04.
    assert.ok(
      Math.abs(web.monthlySaving!.cpu! - cpu) <= 0.05 && Math.abs(web.monthlySaving!.memory! - memory) <= 0.01,
      `${JSON.stringify(web.monthlySaving)}: cpu ${cpu}, memory ${memory}`,
    );
    const table = spawnSync(process.execPath, args, { encoding: 'utf8' });
    assert.equal(table.status, 0, table.stderr);
    t.diagnostic(`\n${table.stdout}`);
    assert.match(table.stdout, /saving EUR\/month/);
    const total = rows.reduce((sum, r) => sum + (r.monthlySaving?.total ?? 0), 0);
    assert.match(
      table.stdout,
      new RegExp(
        `\\nmonthly saving if applied: ${total.toFixed(2).replace('.', '\\.')} EUR \\(cpu -?\\d+\\.\\d\\d, memory -?\\d+\\.\\d\\d\\) at 0\\.03 EUR per CPU-hour and 0\\.004 EUR per GiB-hour, 730 h a month; negative is a cost\\n$`,
      ),
    );
  });

  test('tailor recommend in table, csv, yaml and html', () => {
    for (const [format, pattern] of [
      ['table', /Deployment\/web/],
      ['csv', /^namespace,kind,workload/],
      ['yaml', /- namespace: shop/],
      ['html', /<td>Deployment\/web<\/td>/],
    ] as const) {
      const result = spawnSync(
        process.execPath,
        ['bin/tailor.mjs', 'recommend', '--prometheus-url', server!.url, '--selector', 'cluster="test"', '--at', String(END), '--format', format],
        { encoding: 'utf8' },
      );
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, pattern);
    }
  });

  test('tailor recommend exits non-zero with a clear message when Prometheus is down or has no data', async () => {
    const down = spawnSync(process.execPath, ['bin/tailor.mjs', 'recommend', '--prometheus-url', `http://127.0.0.1:${await freePort()}`, '--retries', '0'], {
      encoding: 'utf8',
    });
    assert.equal(down.status, 1);
    assert.match(down.stderr, /tailor recommend: Prometheus at http:\/\/127\.0\.0\.1:\d+ is unreachable/);
    const none = spawnSync(process.execPath, ['bin/tailor.mjs', 'recommend', '--prometheus-url', server!.url, '--namespace', 'nope', '--at', String(END)], {
      encoding: 'utf8',
    });
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no container CPU usage found for namespaces nope/);
  });

  test('with --kubeconfig or KUBECONFIG, current requests and limits come from the cluster (kube-sim)', async (t) => {
    const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario: { ...defaultScenario(), workloads: [] }, reactToChanges: false, startAt: END });
    const dir = await mkdtemp(join(tmpdir(), 'tailor-recommend-'));
    t.after(async () => {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    });
    const kubeconfig = join(dir, 'kubeconfig');
    await sim.server.writeKubeconfig(kubeconfig);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.server.kubeconfig());
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    await core.createNamespace({ body: { metadata: { name: 'shop' } } });
    const owner = (apiVersion: string, kind: string, name: string) => [{ apiVersion, kind, name, uid: `${name}-uid`, controller: true }];
    await apps.createNamespacedReplicaSet({
      namespace: 'shop',
      body: {
        metadata: { name: 'web-abc', ownerReferences: owner('apps/v1', 'Deployment', 'web') },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
        },
      },
    });
    // Different from what kube-state-metrics reports in Prometheus (500m / 512Mi, limits 1 / 1Gi).
    const pod = (name: string, ownerRefs: k8s.V1OwnerReference[], resources: k8s.V1ResourceRequirements, container = 'app') =>
      core.createNamespacedPod({
        namespace: 'shop',
        body: { metadata: { name, ownerReferences: ownerRefs }, spec: { containers: [{ name: container, image: 'nginx', resources }] } },
      });
    const web = { requests: { cpu: '300m', memory: '384Mi' }, limits: { cpu: '600m', memory: '768Mi' } };
    await pod('web-abc-1', owner('apps/v1', 'ReplicaSet', 'web-abc'), web);
    await pod('web-abc-2', owner('apps/v1', 'ReplicaSet', 'web-abc'), web);
    await pod('db-0', owner('apps/v1', 'StatefulSet', 'db'), { requests: { cpu: '2', memory: '3Gi' } }, 'postgres');

    const run = promisify(execFile);
    const args = [
      'bin/tailor.mjs',
      'recommend',
      '--prometheus-url',
      server!.url,
      '--selector',
      'cluster="test"',
      '--namespace',
      'shop',
      '--at',
      String(END),
      '--format',
      'json',
    ];
    const env = { ...process.env, KUBECONFIG: '' };
    for (const [how, extraArgs, extraEnv] of [
      ['--kubeconfig', ['--kubeconfig', kubeconfig], {}],
      ['KUBECONFIG', [], { KUBECONFIG: kubeconfig }],
    ] as const) {
      const { stdout } = await run(process.execPath, [...args, ...extraArgs], { env: { ...env, ...extraEnv } });
      const rows = JSON.parse(stdout) as RowJson[];
      assert.deepEqual(
        rows.map((r) => [r.workload, r.container, r.cpu.request, r.cpu.limit, r.memory.request, r.memory.limit]),
        [
          [{ kind: 'Deployment', name: 'web' }, 'app', '300m', '600m', '384Mi', '768Mi'],
          [{ kind: 'StatefulSet', name: 'db' }, 'postgres', '2', null, '3Gi', null],
        ],
        how,
      );
    }
  });
});
