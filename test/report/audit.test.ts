/**
 * The scheduled audit end to end: a real Prometheus with three days of usage, kube-sim holding the
 * pods (current requests) and the ConfigMap store, and `tailor audit` run twice a day apart. In
 * between, the api's usage grows from 100m to 600m and the cache's memory request is cut from 2Gi
 * to 512Mi. The second report must show the api turned under-provisioned (shortfall up, waste
 * down, recommendation up), the cache's waste down with its request, both in the JSON and in the
 * parsed HTML; a corrupt stored summary gives a warning naming the ConfigMap and a report without
 * trend.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { startKubeSim } from 'kube-sim';
import { defaultScenario } from 'kube-sim/scenario';
import { VPA_CRD_MANIFESTS } from '../../src/api/vpa-crd-manifests.ts';
import type { AuditReport, WorkloadAudit } from '../../src/report/audit/audit-report.ts';
import { parseSummary } from '../../src/report/audit/audit-summary.ts';
import { startPrometheus, type RunningServer } from '../support/prometheus-server.ts';
import { MINUTE, usageFixture, type FixtureContainer } from '../support/usage-fixture.ts';

const DAY = 24 * 3600_000;
const MiB = 2 ** 20;
const START = Date.UTC(2026, 1, 1);
const NS = 'audit';
/** The api's usage grows on the third day. */
const GROWS_AT = START + 2 * DAY;

const CONTAINERS: FixtureContainer[] = [
  {
    namespace: NS,
    pod: 'api-abc-1',
    container: 'app',
    owner: { kind: 'Deployment', name: 'api', replicaSet: 'api-abc' },
    cpuCores: (t) => (t > GROWS_AT ? 0.6 : 0.1),
    memoryBytes: () => 200 * MiB,
  },
  {
    namespace: NS,
    pod: 'cache-0',
    container: 'redis',
    owner: { kind: 'StatefulSet', name: 'cache' },
    cpuCores: (t) => 0.05 + 0.01 * (Math.round(t / MINUTE) % 5),
    memoryBytes: () => 300 * MiB,
  },
];

interface Run {
  code: number;
  stderr: string;
}

function tailor(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/tailor.mjs', 'audit', ...args], { env: { ...process.env, KUBECONFIG: '' }, timeout: 120_000 }, (err, _stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}

const byName = (report: AuditReport, name: string): WorkloadAudit => report.workloads.find((w) => w.workload.name === name)!;
const text = (e: HTMLElement | null) => e?.text.trim() ?? '';

/** The figures of one workload container's entry in the HTML, by their label (`CPU request`, `CPU Δ waste`, `CPU usage`). */
function htmlRow(doc: HTMLElement, workload: string): Map<string, HTMLElement> {
  const entry = doc.querySelectorAll('#workloads tbody').find((r) => r.getAttribute('data-workload') === workload);
  assert.ok(entry, `no entry for ${workload}`);
  // A figure's own value is its .v; its change since the previous report a labelled span under it.
  return new Map(entry.querySelectorAll('[data-label]').map((e) => [e.getAttribute('data-label')!, e.querySelector('.v') ?? e]));
}

describe('tailor audit on kube-sim and a real Prometheus', () => {
  let prometheus: RunningServer | undefined;
  let sim: Awaited<ReturnType<typeof startKubeSim>> | undefined;
  let dir = '';
  let kubeconfig = '';
  let core: k8s.CoreV1Api;

  const pod = (name: string, owner: k8s.V1OwnerReference, container: string, requests: Record<string, string>) =>
    core.createNamespacedPod({
      namespace: NS,
      body: { metadata: { name, ownerReferences: [owner] }, spec: { containers: [{ name: container, image: 'app', resources: { requests } }] } },
    });
  const cacheOwner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'cache', uid: 'cache-uid', controller: true };

  before(async () => {
    prometheus = await startPrometheus({ series: usageFixture(CONTAINERS, { start: START, end: START + 3 * DAY }) });
    sim = await startKubeSim({
      crdManifests: VPA_CRD_MANIFESTS,
      scenario: { ...defaultScenario(), workloads: [] },
      reactToChanges: false,
      startAt: START + 3 * DAY,
    });
    dir = await mkdtemp(join(tmpdir(), 'tailor-audit-'));
    kubeconfig = join(dir, 'kubeconfig');
    await sim.server.writeKubeconfig(kubeconfig);
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.server.kubeconfig());
    core = kc.makeApiClient(k8s.CoreV1Api);
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    await core.createNamespace({ body: { metadata: { name: NS } } });
    await apps.createNamespacedReplicaSet({
      namespace: NS,
      body: {
        metadata: { name: 'api-abc', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', uid: 'api-uid', controller: true }] },
        spec: {
          selector: { matchLabels: { app: 'api' } },
          template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'app', image: 'app' }] } },
        },
      },
    });
    await pod('api-abc-1', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api-abc', uid: 'api-abc-uid', controller: true }, 'app', {
      cpu: '500m',
      memory: '256Mi',
    });
    await pod('cache-0', cacheOwner, 'redis', { cpu: '1', memory: '2Gi' });
  });
  after(async () => {
    await sim?.close();
    await prometheus?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const audit = (at: number, out: string) =>
    tailor([
      '--prometheus-url',
      prometheus!.url,
      '--namespace',
      NS,
      '--kubeconfig',
      kubeconfig,
      '--at',
      String(at),
      '--history',
      '2d',
      '--store',
      `configmap:${NS}/tailor-audit`,
      '--output-dir',
      join(dir, out),
      '--no-progress',
    ]);
  const report = async (out: string) => JSON.parse(await readFile(join(dir, out, 'latest.json'), 'utf8')) as AuditReport;
  const storedSummary = async () => (await core.readNamespacedConfigMap({ namespace: NS, name: 'tailor-audit' })).data?.['summary.json'];

  test('two audits a day apart: the trend follows the usage and the requests, in the JSON, the HTML and the ConfigMap', async () => {
    const first = await audit(START + 2 * DAY, 'first');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /no previous report in configmap:audit\/tailor-audit \(the first audit\)/);
    // One line says where the files went, and that the folder was made.
    assert.ok(
      first.stderr
        .split('\n')
        .includes(
          `tailor audit: wrote ${join(dir, 'first', 'audit-20260203T000000Z')}.html and .json, and copied them to latest.html and latest.json (the folder ${join(dir, 'first')} was created)`,
        ),
      first.stderr,
    );
    const one = await report('first');
    assert.equal(one.schemaVersion, 1);
    assert.equal(one.kind, 'TailorAuditReport');
    assert.equal(one.previous, null);
    assert.deepEqual(
      one.workloads.map((w) => [w.workload.name, w.verdict, w.trend]),
      [
        ['cache', 'over', null],
        ['api', 'over', null],
      ],
    );
    const summary1 = parseSummary((await storedSummary())!);
    assert.equal(summary1.generatedAt, one.generatedAt);
    assert.equal(summary1.rows.length, 2);
    // The files: stamped and latest.
    assert.deepEqual((await readdir(join(dir, 'first'))).sort(), ['audit-20260203T000000Z.html', 'audit-20260203T000000Z.json', 'latest.html', 'latest.json']);

    // A day later: the api uses 600m, and the cache's memory request was cut to 512Mi.
    await core.deleteNamespacedPod({ namespace: NS, name: 'cache-0' });
    await pod('cache-0', cacheOwner, 'redis', { cpu: '1', memory: '512Mi' });
    await mkdir(join(dir, 'second'));
    const second = await audit(START + 3 * DAY, 'second');
    assert.equal(second.code, 0, second.stderr);
    assert.ok(
      second.stderr
        .split('\n')
        .includes(`tailor audit: wrote ${join(dir, 'second', 'audit-20260204T000000Z')}.html and .json, and copied them to latest.html and latest.json`),
      `an existing folder is not said to be created: ${second.stderr}`,
    );
    const two = await report('second');
    // Both audits at the one default strategy, kept in the stored summary: the trend compares like with like.
    assert.equal(one.strategy, 'tailor-low-churn');
    assert.deepEqual(two.previous, {
      generatedAt: one.generatedAt,
      source: 'configmap:audit/tailor-audit',
      strategy: 'tailor-low-churn',
      strategyChanged: false,
    });
    const api1 = byName(one, 'api');
    const api2 = byName(two, 'api');
    assert.equal(api2.verdict, 'under');
    assert.ok(api2.cpu.target! > 500 && api1.cpu.target! < 250, `api cpu target ${api1.cpu.target} -> ${api2.cpu.target}`);
    assert.equal(api2.cpu.waste, 0);
    assert.equal(api2.cpu.shortfall, api2.cpu.target! - 500);
    assert.deepEqual(api2.trend!.cpu, { waste: -api1.cpu.waste!, shortfall: api2.cpu.shortfall, target: api2.cpu.target! - api1.cpu.target!, request: 0 });
    assert.equal(api2.trend!.new, false);
    const cache1 = byName(one, 'cache');
    const cache2 = byName(two, 'cache');
    assert.equal(cache2.memory.request, 512 * MiB);
    assert.equal(cache2.trend!.memory.request, -1536 * MiB);
    assert.equal(cache2.trend!.memory.waste, cache2.memory.waste! - cache1.memory.waste!);
    assert.ok(cache2.trend!.memory.waste! < -1400 * MiB, `cache memory waste change ${cache2.trend!.memory.waste}`);
    assert.equal(two.totals.trend!.cpu.shortfall, api2.cpu.shortfall);
    // The usage outline: at most 100 points over the window, the api's growth visible in it.
    assert.equal(api2.usage!.cpu.length, 100);
    assert.ok(
      Math.max(...api2.usage!.cpu.slice(0, 45).map((v) => v ?? 0)) <= 110 && Math.min(...api2.usage!.cpu.slice(55).map((v) => v ?? Infinity)) >= 590,
      'api usage outline',
    );

    // The HTML: self-contained (one inline script, for the copy buttons), one entry per workload
    // container with the verdict, the changes and two charts.
    const html = await readFile(join(dir, 'second', 'latest.html'), 'utf8');
    assert.equal(html, await readFile(join(dir, 'second', 'audit-20260204T000000Z.html'), 'utf8'));
    const doc = parseHtml(html);
    assert.equal(doc.querySelectorAll('link, img, iframe, script[src]').length, 0);
    assert.equal(doc.querySelectorAll('script').length, 1);
    assert.deepEqual(
      [...html.matchAll(/\b(?:src|href)=(?!"#)|https?:\/\/(?!www\.w3\.org\/2000\/svg)/g)].map((m) => m[0]),
      [],
    );
    const row = htmlRow(doc, 'audit/Deployment/api/app');
    assert.equal(text(row.get('verdict')!), 'under');
    assert.equal(text(row.get('CPU request')!), '500m');
    assert.equal(text(row.get('CPU Δ shortfall')!), `Δ +${api2.cpu.shortfall}m`);
    assert.equal(text(row.get('CPU Δ waste')!), `Δ -${api1.cpu.waste}m`);
    const charts = ['CPU usage', 'memory usage'].map((h) => row.get(h)!.querySelector('svg')!);
    for (const svg of charts) {
      const d = svg.querySelector('path.usage')!.getAttribute('d')!;
      assert.ok(d.split(/[ML]/).filter((p) => p.trim() !== '').length <= 100, 'at most 100 points per chart');
      assert.equal(svg.querySelectorAll('line.request').length, 1);
      assert.equal(svg.querySelectorAll('line.target').length, 1);
    }
    // In the CPU chart the recommendation (600m-ish) sits above the request (500m): a smaller y.
    const y = (cls: string) => Number(charts[0]!.querySelector(`line.${cls}`)!.getAttribute('y1'));
    assert.ok(y('target') < y('request'));
    const cacheRow = htmlRow(doc, 'audit/StatefulSet/cache/redis');
    assert.equal(text(cacheRow.get('memory request')!), '512Mi');
    assert.match(text(doc.querySelector('body')), /the change since the report of 2026-02-03 00:00 UTC \(configmap:audit\/tailor-audit\)/);
    // The header's history: the two days of data read (the newest step ends a step before --at).
    assert.deepEqual(two.data, { start: new Date(START + DAY).toISOString(), end: new Date(START + 3 * DAY - MINUTE).toISOString() });
    assert.equal(text(doc.querySelector('#history')), 'history: 2 days of data, 2026-02-02 00:00 UTC to 2026-02-03 23:59 UTC');
    assert.equal(parseSummary((await storedSummary())!).generatedAt, two.generatedAt);

    // --previous takes a whole earlier report (here the first) and wins over the store for the trend.
    const firstJson = join(dir, 'first', 'latest.json');
    const again = await tailor([
      '--prometheus-url',
      prometheus!.url,
      '--namespace',
      NS,
      '--kubeconfig',
      kubeconfig,
      '--at',
      String(START + 3 * DAY),
      '--history',
      '2d',
      '--previous',
      firstJson,
      '--store',
      `dir:${join(dir, 'store')}`,
      '--format',
      'json',
      '--output',
      join(dir, 'again.json'),
      '--no-progress',
    ]);
    assert.equal(again.code, 0, again.stderr);
    const fromFile = JSON.parse(await readFile(join(dir, 'again.json'), 'utf8')) as AuditReport;
    assert.deepEqual(fromFile.previous, { generatedAt: one.generatedAt, source: firstJson, strategy: 'tailor-low-churn', strategyChanged: false });
    assert.deepEqual(byName(fromFile, 'api').trend, api2.trend);
    assert.equal(parseSummary(await readFile(join(dir, 'store', 'summary.json'), 'utf8')).generatedAt, two.generatedAt);
  });

  test('a corrupt stored summary: a warning naming the ConfigMap, a report without trend, and a good summary stored', async () => {
    const cm = await core.readNamespacedConfigMap({ namespace: NS, name: 'tailor-audit' });
    await core.replaceNamespacedConfigMap({ namespace: NS, name: 'tailor-audit', body: { ...cm, data: { 'summary.json': '{"kind":"TailorAuditSummary",' } } });
    const run = await audit(START + 3 * DAY, 'third');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /tailor: warning: the previous report in configmap:audit\/tailor-audit cannot be read: not JSON/);
    const three = await report('third');
    assert.equal(three.previous, null);
    assert.ok(three.workloads.every((w) => w.trend === null));
    assert.ok(parseHtml(await readFile(join(dir, 'third', 'latest.html'), 'utf8')).querySelector('#workloads'));
    assert.equal(parseSummary((await storedSummary())!).rows.length, 2);
  });
});
