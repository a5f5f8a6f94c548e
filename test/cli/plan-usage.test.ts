/**
 * `tailor plan --prometheus-url`: the dry run reads recent memory from a real Prometheus (Debian's
 * package, backfilled) as the in-cluster updater does. Two single-pod Deployments in `shop`:
 * - `big`: memory request 1Gi / limit 2Gi, recommendation upperBound 400Mi; its working set peaked
 *   at 350Mi in the last hour. Without usage the request goes down but the limit stays (the safe
 *   reading); with usage the limit may go down to the peak + max(15%, 64Mi) = 350Mi + 64Mi = 414Mi.
 * - `full`: memory request 256Mi / limit 512Mi, recommendation target 256Mi (within bounds); its
 *   working set stayed at 490Mi, above 90% of the limit (460.8Mi), for the last 10 minutes: with
 *   usage the pressure guard raises it at once (request x1.5); without usage nothing happens. The
 *   plan also shows its early memory warning (above 85% of the limit: MemoryCritical).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { startPrometheus } from '../support/prometheus-server.ts';
import type { FixtureSeries } from '../support/fixture-series.ts';

const MiB = 1024 * 1024;
const NOW = Date.parse('2026-06-01T12:00:00Z');

function deployment(name: string, memory: { request: string; limit: string }, rec: { target: string; lower: string; upper: string }): string {
  return `- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: ${name}, namespace: shop}
  spec: {replicas: 1}
- apiVersion: autoscaling.k8s.io/v1
  kind: VerticalPodAutoscaler
  metadata: {name: ${name}, namespace: shop}
  spec:
    targetRef: {apiVersion: apps/v1, kind: Deployment, name: ${name}}
    updatePolicy: {updateMode: InPlaceOrRecreate}
  status:
    recommendation:
      containerRecommendations:
      - {containerName: app, target: {cpu: 500m, memory: ${rec.target}}, lowerBound: {cpu: 400m, memory: ${rec.lower}}, upperBound: {cpu: 800m, memory: ${rec.upper}}}
- apiVersion: v1
  kind: Pod
  metadata:
    name: ${name}-7f9c-a
    namespace: shop
    labels: {app: ${name}, pod-template-hash: 7f9c}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: ${name}-7f9c, uid: u-${name}, controller: true}]
  spec:
    containers: [{name: app, image: web:1, resources: {requests: {cpu: 500m, memory: ${memory.request}}, limits: {memory: ${memory.limit}}}}]
  status:
    phase: Running
    startTime: "2026-06-01T00:00:00Z"
    conditions: [{type: Ready, status: "True"}]
    containerStatuses:
    - {name: app, image: web:1, imageID: x, ready: true, restartCount: 0, state: {running: {}}, resources: {requests: {cpu: 500m, memory: ${memory.request}}, limits: {memory: ${memory.limit}}}}
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: ${name}-7f9c
    namespace: shop
    ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: ${name}, uid: d-${name}, controller: true}]
  spec: {replicas: 1}
`;
}

const OBJECTS = `apiVersion: v1
kind: List
items:
${deployment('big', { request: '1Gi', limit: '2Gi' }, { target: '300Mi', lower: '250Mi', upper: '400Mi' })}${deployment('full', { request: '256Mi', limit: '512Mi' }, { target: '256Mi', lower: '200Mi', upper: '400Mi' })}`;

/** A working-set series every 15 s over the hour before NOW, `value(t)` bytes. */
function workingSet(pod: string, value: (t: number) => number): FixtureSeries {
  const samples: Array<[number, number]> = [];
  for (let t = NOW - 3600_000; t <= NOW; t += 15_000) samples.push([t, value(t)]);
  return { metric: 'container_memory_working_set_bytes', labels: { namespace: 'shop', pod, container: 'app' }, samples };
}

function tailor(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
}

const dir = mkdtempSync(join(tmpdir(), 'tailor-plan-usage-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'shop.yaml');
writeFileSync(file, OBJECTS);
const BASE = ['plan', '-f', file, '--now', '2026-06-01T12:00:00Z', '--server-version', '1.34'];

test(
  'tailor plan with --prometheus-url shows the decisions the updater makes with usage: limits down to peak + margin, the pressure guard',
  { timeout: 120_000 },
  async (t) => {
    const prometheus = await startPrometheus({
      series: [
        workingSet('big-7f9c-a', (t) => (t === NOW - 1800_000 ? 350 * MiB : 300 * MiB)),
        workingSet('full-7f9c-a', (t) => (t >= NOW - 600_000 ? 490 * MiB : 300 * MiB)),
      ],
    });
    t.after(() => prometheus.stop());

    const without = tailor(BASE);
    assert.equal(without.status, 0, without.stderr);
    const withoutLines = without.stdout.trim().split('\n');
    assert.match(
      withoutLines.find((l) => l.startsWith('shop/big-7f9c-a'))!,
      /app: memory request 1Gi -> 512Mi(?!.*limit 2Gi -> )/,
    );
    assert.match(
      withoutLines.find((l) => l.startsWith('shop/full-7f9c-a'))!,
      /^shop\/full-7f9c-a Skip /,
    );

    const withUsage = tailor([...BASE, '--prometheus-url', prometheus.url]);
    assert.equal(withUsage.status, 0, withUsage.stderr);
    assert.match(withUsage.stderr, /memory usage from Prometheus for 2 pod\(s\)/);
    const lines = withUsage.stdout.trim().split('\n');
    const big = lines.find((l) => l.startsWith('shop/big-7f9c-a'))!;
    assert.match(big, /memory limit 2Gi -> 1Gi/, 'the limit scales with the request (x0.5 step), above the floor 414Mi');
    const full = lines.find((l) => l.startsWith('shop/full-7f9c-a'))!;
    assert.match(full, /^shop\/full-7f9c-a ResizeInPlace MemoryPressure: .*app: memory request 256Mi -> 384Mi/);
    // The early memory warning for the same container (above 85% of its limit), after the plan; none without usage.
    assert.ok(
      lines.includes(
        'MemoryCritical shop/full-7f9c-a: container app: working set 490.0Mi stayed above 85% of its memory limit 512Mi for 2 min (96%): close to an OOM kill',
      ),
      withUsage.stdout,
    );
    assert.doesNotMatch(without.stdout, /Memory(High|Critical)/);
    const json = tailor([...BASE, '--prometheus-url', prometheus.url, '--format', 'json']);
    const report = JSON.parse(json.stdout) as { memoryWarnings: { containers: { pod: string; level: string }[]; workloads: unknown[] } };
    assert.deepEqual(
      report.memoryWarnings.containers.map((c) => `${c.pod} ${c.level}`),
      ['full-7f9c-a critical'],
    );

    // A longer pressure window than the 10 min above 90%: no pressure; the same flags as tailor run, also as variables.
    const longWindow = tailor([...BASE, '--memory-pressure-window', '15m'], { TAILOR_PROMETHEUS_URL: prometheus.url });
    assert.equal(longWindow.status, 0, longWindow.stderr);
    assert.match(longWindow.stdout, /^shop\/full-7f9c-a Skip /m);

    // A margin of 800Mi puts the floor at 350Mi + 800Mi = 1150Mi, above the scaled 1Gi: the limit stops there.
    const wideMargin = tailor([...BASE, '--prometheus-url', prometheus.url, '--memory-peak-margin', '800Mi']);
    assert.equal(wideMargin.status, 0, wideMargin.stderr);
    assert.match(wideMargin.stdout, /^shop\/big-7f9c-a ResizeInPlace .*app: memory request 1Gi -> 512Mi, memory limit 2Gi -> 1150Mi$/m);
  },
);

test('tailor plan refuses bad usage options naming the flag, and plans without usage when Prometheus is unreachable', () => {
  const bad = tailor([...BASE, '--prometheus-url', 'ftp://x', '--memory-pressure-ratio', '2']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--prometheus-url=ftp:\/\/x: unsupported scheme ftp:/);
  assert.match(bad.stderr, /--memory-pressure-ratio=2: out of range \(0, 1\]/);
  // Port 1 on loopback: connection refused at once.
  const down = tailor([...BASE, '--prometheus-url', 'http://127.0.0.1:1', '--prometheus-retries', '0']);
  assert.equal(down.status, 0, down.stderr);
  assert.match(down.stderr, /memory usage unavailable \(.*\): planned without it/);
  assert.match(down.stdout, /^shop\/full-7f9c-a Skip /m);
});
