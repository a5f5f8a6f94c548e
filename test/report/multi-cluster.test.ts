/**
 * Several clusters in one report, end to end: one real Prometheus holding two clusters told apart
 * by a `cluster` label (as a Thanos in front of both would), each with a Deployment `shop/web` of
 * the same name and different usage, and two kube-sim API servers as the two clusters' contexts.
 * `tailor recommend` and `tailor audit` over `--all-clusters`, `--cluster` and repeated
 * `--context` report each cluster apart (a column or field, totals per cluster); a cluster that
 * cannot be read (an unknown context, an API server that is down, no series) is named with its
 * reason while the others are reported, and the command exits 3.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startKubeSim } from 'kube-sim';
import { defaultScenario } from 'kube-sim/scenario';
import { VPA_CRD_MANIFESTS } from '../../src/api/vpa-crd-manifests.ts';
import type { AuditReport } from '../../src/report/audit/audit-report.ts';
import type { RowJson } from '../../src/report/report-json.ts';
import { startPrometheus, type RunningServer } from '../support/prometheus-server.ts';
import { MINUTE, usageFixture, type FixtureContainer } from '../support/usage-fixture.ts';
import { freePort } from '../support/free-port.ts';

const START = Date.UTC(2026, 0, 1);
const DAY = 24 * 3600_000;
const END = START + 2 * DAY;
const MiB = 2 ** 20;

/** `shop/web` in a cluster: CPU a saw-tooth scaled by `cores`, memory flat. */
const web = (cores: number, memory: number, requests: { cpu: number; memory: number }): FixtureContainer => ({
  namespace: 'shop',
  pod: 'web-abc-1',
  container: 'app',
  owner: { kind: 'Deployment', name: 'web', replicaSet: 'web-abc' },
  cpuCores: (t) => cores * (0.5 + 0.05 * (Math.round(t / MINUTE) % 10)),
  memoryBytes: () => memory,
  requests,
});

/** east's web needs about 0.25-0.5 cores of its 1 requested; west's about 1-2 cores of its 500m. */
const SERIES = [
  ...usageFixture([web(0.5, 200 * MiB, { cpu: 1, memory: 512 * MiB })], { start: START, end: END, extraLabels: { cluster: 'east' } }),
  ...usageFixture([web(2, 300 * MiB, { cpu: 0.5, memory: 256 * MiB })], { start: START, end: END, extraLabels: { cluster: 'west' } }),
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function tailor(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/tailor.mjs', ...args],
      { env: { ...process.env, KUBECONFIG: '', ...env }, maxBuffer: 64 * 2 ** 20 },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

const key = (r: { cluster?: string; namespace: string; workload: { kind: string; name: string } }) =>
  `${r.cluster}/${r.namespace}/${r.workload.kind}/${r.workload.name}`;

describe('several clusters in one report (a real Prometheus, two kube-sims)', () => {
  let prometheus: RunningServer | undefined;
  const sims: Array<Awaited<ReturnType<typeof startKubeSim>>> = [];
  let dir = '';
  let kubeconfig = '';
  let common: string[] = [];

  /** A kube-sim holding `shop/web`'s pod with `cpu` requested; its admin user and server. */
  async function cluster(cpu: string): Promise<{ server: string; kc: k8s.KubeConfig }> {
    const sim = await startKubeSim({ crdManifests: VPA_CRD_MANIFESTS, scenario: { ...defaultScenario(), workloads: [] }, reactToChanges: false, startAt: END });
    sims.push(sim);
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
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app' }] } },
        },
      },
    });
    await core.createNamespacedPod({
      namespace: 'shop',
      body: {
        metadata: { name: 'web-abc-1', ownerReferences: owner('apps/v1', 'ReplicaSet', 'web-abc') },
        spec: { containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory: '128Mi' } } }] },
      },
    });
    return { server: sim.server.url, kc };
  }

  before(async () => {
    prometheus = await startPrometheus({ series: SERIES });
    dir = await mkdtemp(join(tmpdir(), 'tailor-multi-cluster-'));
    // Contexts ctx-east and ctx-west (named apart from their clusters), and ctx-down whose API server is not there.
    const east = await cluster('2');
    const west = await cluster('3');
    const down = `https://127.0.0.1:${await freePort()}`;
    const clusters: k8s.Cluster[] = [];
    const users: k8s.User[] = [];
    const contexts: k8s.Context[] = [];
    for (const [name, c] of [
      ['ctx-east', east],
      ['ctx-west', west],
      ['ctx-down', { server: down, kc: east.kc }],
    ] as const) {
      clusters.push({ ...c.kc.getCurrentCluster()!, name, server: c.server });
      users.push({ ...c.kc.getCurrentUser()!, name });
      contexts.push({ name, cluster: name, user: name });
    }
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({ clusters, users, contexts, currentContext: 'ctx-east' });
    kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, kc.exportConfig());
    common = ['--prometheus-url', prometheus.url, '--at', String(END), '--history', '2d', '--retries', '0', '--timeout', '5s'];
  });
  after(async () => {
    for (const sim of sims) await sim.close();
    await prometheus?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('recommend --all-clusters: one row per cluster, each as a one-cluster run with --selector gives it', async () => {
    const all = await tailor(['recommend', ...common, '--all-clusters', '--format', 'json']);
    assert.equal(all.code, 0, all.stderr);
    const rows = JSON.parse(all.stdout) as RowJson[];
    assert.deepEqual(rows.map(key), ['east/shop/Deployment/web', 'west/shop/Deployment/web']);
    // Requests from kube-state-metrics of each cluster's own series.
    assert.deepEqual(
      rows.map((r) => r.cpu.request),
      ['1', '500m'],
    );
    for (const name of ['east', 'west']) {
      const one = await tailor(['recommend', ...common, '--selector', `cluster="${name}"`, '--format', 'json']);
      assert.equal(one.code, 0, one.stderr);
      const [single] = JSON.parse(one.stdout) as RowJson[];
      assert.equal(single!.cluster, undefined, 'a one-cluster run has no cluster field');
      const { cluster, ...rest } = rows.find((r) => r.cluster === name)!;
      assert.equal(cluster, name);
      assert.deepEqual(rest, single);
    }
  });

  test('recommend over two clusters in table, CSV, YAML and HTML: the cluster column and the totals per cluster and over all', async () => {
    const prices = ['--cpu-hour-price', '0.03', '--memory-gib-hour-price', '0.004'];
    const table = await tailor(['recommend', ...common, '--all-clusters', ...prices]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /│ cluster │ namespace │/);
    assert.match(table.stdout, /│ east +│ shop/);
    assert.match(table.stdout, /│ west +│ shop/);
    for (const prefix of ['cluster east', 'cluster west', 'all clusters'])
      for (const line of ['estimated savings if applied', 'monthly saving if applied']) assert.match(table.stdout, new RegExp(`\\n${prefix}: ${line}`));
    const csv = await tailor(['recommend', ...common, '--all-clusters', '--format', 'csv']);
    assert.match(csv.stdout, /^cluster,namespace,kind,workload/);
    assert.match(csv.stdout, /\neast,shop,Deployment,web,app,/);
    const yaml = await tailor(['recommend', ...common, '--all-clusters', '--format', 'yaml']);
    assert.match(yaml.stdout, /^- cluster: east\n {2}namespace: shop/);
    const html = await tailor(['recommend', ...common, '--all-clusters', '--format', 'html', ...prices]);
    assert.match(html.stdout, /<th>cluster<\/th><th>namespace<\/th>/);
    assert.match(html.stdout, /<td>west<\/td><td>shop<\/td>/);
    assert.match(html.stdout, /<p>all clusters: monthly saving if applied: /);
  });

  test('--cluster-label names the label: none of that name, nothing to report (exit 1)', async () => {
    const run = await tailor(['recommend', ...common, '--all-clusters', '--cluster-label', 'region']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /--all-clusters: no container CPU usage with a region label/);
  });

  test('--cluster filters, and a cluster without series is named while the others are reported (exit 3)', async () => {
    const run = await tailor(['recommend', ...common, '--cluster', 'west', '--cluster', 'north', '--format', 'json']);
    assert.equal(run.code, 3, run.stderr);
    assert.deepEqual((JSON.parse(run.stdout) as RowJson[]).map(key), ['west/shop/Deployment/web']);
    assert.match(run.stderr, /^tailor recommend: 1 of 2 clusters not reported \(the report holds the others\): north: no container CPU usage found .*\n$/);
  });

  test('--context repeated: requests from each context, usage by its cluster name; an unknown and an unreachable context are named (exit 3)', async () => {
    const args = ['recommend', ...common, '--kubeconfig', kubeconfig];
    const names = ['--cluster-name', 'ctx-east=east', '--cluster-name', 'ctx-west=west'];
    const run = await tailor([...args, ...names, '--context', 'ctx-east', '--context', 'ctx-west', '--context', 'ctx-nope', '--format', 'json']);
    assert.equal(run.code, 3, run.stderr);
    const rows = JSON.parse(run.stdout) as RowJson[];
    // The requests are the clusters' own (2 and 3 cores), not kube-state-metrics' (1 and 500m).
    assert.deepEqual(
      rows.map((r) => [key(r), r.cpu.request]),
      [
        ['east/shop/Deployment/web', '2'],
        ['west/shop/Deployment/web', '3'],
      ],
    );
    assert.match(
      run.stderr,
      /^tailor recommend: 1 of 3 clusters not reported \(the report holds the others\): ctx-nope: --kube-context ctx-nope: no such context in kubeconfig .* \(has: ctx-east, ctx-west, ctx-down\)\n$/,
    );
    // ctx-down holds east's usage in Prometheus, but its API server is not there.
    const down = await tailor([
      ...args,
      '--context',
      'ctx-down',
      '--context',
      'ctx-west',
      '--cluster-name',
      'ctx-down=east',
      '--cluster-name',
      'ctx-west=west',
    ]);
    assert.equal(down.code, 3, down.stderr);
    assert.match(down.stdout, /\ncluster east: not reported: could not list pods, ReplicaSets and Jobs of namespace shop: .*ECONNREFUSED/);
    assert.match(down.stdout, /│ west +│ shop/);
    assert.doesNotMatch(down.stdout, /│ east/);
    const filtered = await tailor([...args, ...names, '--all-contexts', '--cluster', 'west', '--format', 'json']);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.deepEqual((JSON.parse(filtered.stdout) as RowJson[]).map(key), ['west/shop/Deployment/web']);
  });

  test('audit over two clusters: each row names its cluster, the totals per cluster, the trend matched per cluster', async () => {
    const store = join(dir, 'store');
    const args = ['audit', ...common, '--all-clusters', '--store', `dir:${store}`, '--cpu-hour-price', '0.03', '--memory-gib-hour-price', '0.004'];
    const first = await tailor([...args, '--format', 'json']);
    assert.equal(first.code, 0, first.stderr);
    const report = JSON.parse(first.stdout) as AuditReport;
    assert.deepEqual(report.workloads.map(key), ['east/shop/Deployment/web', 'west/shop/Deployment/web']);
    assert.deepEqual(
      report.clusters!.map((c) => [c.name, c.workloads]),
      [
        ['east', { over: 1, under: 0, fit: 0, unknown: 0 }],
        ['west', { over: 0, under: 1, fit: 0, unknown: 0 }],
      ],
    );
    const [east, west] = report.clusters!;
    assert.equal(east!.cpu.waste + west!.cpu.waste, report.totals.cpu.waste);
    assert.equal(east!.cpu.shortfall + west!.cpu.shortfall, report.totals.cpu.shortfall);
    assert.ok(Math.abs(east!.monthlySaving!.total! + west!.monthlySaving!.total! - report.totals.monthlySaving!.total!) <= 0.011);
    assert.deepEqual(report.clustersNotReported, []);
    // The second audit compares each cluster's web with its own: no change, nothing new, nothing gone.
    const second = await tailor([...args, '--format', 'json']);
    const again = JSON.parse(second.stdout) as AuditReport;
    assert.deepEqual(
      again.workloads.map((w) => [w.cluster, w.trend?.new, w.trend?.cpu.target]),
      [
        ['east', false, 0],
        ['west', false, 0],
      ],
    );
    assert.deepEqual(again.gone, []);
    const html = await tailor([...args, '--cluster', 'east', '--cluster', 'north']);
    assert.equal(html.code, 3, html.stderr);
    assert.match(html.stdout, /<table id="clusters">/);
    assert.match(html.stdout, /<tbody class="cluster-group" data-cluster="east">/);
    assert.match(html.stdout, /<li data-cluster="north">cluster north: not reported: no container CPU usage found/);
    assert.match(html.stderr, /tailor audit: 1 of 2 clusters not reported/);
  });
});
