import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { planFiles } from '../../src/cli/commands/plan-action.ts';
import { buildProgram } from '../../src/cli/main.ts';
import { DEFAULT_SERVER_VERSION } from 'kube-sim/server-version';
import { tailorInProcess } from './cli-in-process.ts';
import { CLI_DEADLINE_MS } from '../support/cli-deadline.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-plan-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function pod(name: string, cpu: string): string {
  return `- apiVersion: v1
  kind: Pod
  metadata:
    name: ${name}
    namespace: shop
    labels: {app: web, pod-template-hash: 7f9c}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7f9c, uid: u1, controller: true}]
  spec:
    containers: [{name: app, image: web:1, resources: {requests: {cpu: ${cpu}, memory: 256Mi}, limits: {memory: 512Mi}}}]
  status:
    phase: Running
    startTime: "2026-06-01T11:00:00Z"
    conditions: [{type: Ready, status: "True"}]
    containerStatuses:
    - {name: app, image: web:1, imageID: x, ready: true, restartCount: 0, state: {running: {}}, resources: {requests: {cpu: ${cpu}, memory: 256Mi}, limits: {memory: 512Mi}}}
`;
}

const OBJECTS = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec: {replicas: 2}
- apiVersion: autoscaling.k8s.io/v1
  kind: VerticalPodAutoscaler
  metadata: {name: web, namespace: shop}
  spec:
    targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
    updatePolicy: {updateMode: InPlaceOrRecreate}
  status:
    recommendation:
      containerRecommendations:
      - containerName: app
        target: {cpu: 400m, memory: 256Mi}
        lowerBound: {cpu: 300m, memory: 200Mi}
        upperBound: {cpu: 800m, memory: 400Mi}
${pod('web-7f9c-a', '100m')}${pod('web-7f9c-b', '150m')}- apiVersion: v1
  kind: Pod
  metadata: {name: stray, namespace: shop}
  spec: {containers: [{name: app, image: x}]}
  status: {phase: Running}
`;

function tailor(args: string[]) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', ...args], { encoding: 'utf8', timeout: CLI_DEADLINE_MS });
}

test('tailor plan prints one line per pod and a summary, and changes nothing', () => {
  const path = join(dir, 'shop.yaml');
  writeFileSync(path, OBJECTS);
  const result = tailor(['plan', '-f', path, '--now', '2026-06-01T12:00:00Z', '--server-version', '1.33']);
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.trim().split('\n');
  assert.equal(lines[0], 'shop/web-7f9c-a ResizeInPlace OutsideBounds: app cpu request 100m below lowerBound 300m | app: cpu request 100m -> 300m');
  assert.match(lines[1]!, /^shop\/web-7f9c-b Wait Canary: waiting for the canary pod/);
  assert.equal(lines[2], '2 pod(s): ResizeInPlace 1, ResizeWithRestart 0, Evict 0, Wait 1, Skip 0');
  assert.match(result.stderr, /1 pod\(s\) not targeted by any VPA/);
});

test('-f - reads the objects from standard input, as kubectl does', () => {
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'plan', '-f', '-', '--now', '2026-06-01T12:00:00Z', '--server-version', '1.33'], {
    encoding: 'utf8',
    timeout: CLI_DEADLINE_MS,
    input: OBJECTS,
  });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^2 pod\(s\): ResizeInPlace 1, ResizeWithRestart 0, Evict 0, Wait 1, Skip 0$/m);
});

test('on a server without in-place resize the same plan evicts, within the disruption budget', () => {
  const path = join(dir, 'shop.yaml');
  writeFileSync(path, OBJECTS);
  const result = tailor(['plan', '-f', path, '--now', '2026-06-01T12:00:00Z', '--server-version', '1.30']);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^shop\/web-7f9c-a Evict FallbackInPlaceUnsupported: .*does not support in-place resize/m);
});

test('a bad --server-version is refused', () => {
  const path = join(dir, 'shop.yaml');
  writeFileSync(path, OBJECTS);
  const result = tailor(['plan', '-f', path, '--server-version', 'latest']);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /tailor plan: --server-version must look like 1.34, got latest/);
  assert.equal(tailor(['plan', '-f', path, '--now', 'yesterday']).status, 2);
});

/** A writable that keeps what is written. */
function sink(): NodeJS.WritableStream & { text: string } {
  const s = { text: '', write: (chunk: string) => ((s.text += chunk), true) };
  return s as unknown as NodeJS.WritableStream & { text: string };
}

const AT = '2026-06-01T12:00:00Z';

test('a missing input file is named in words, exit 1', async () => {
  const r = await tailorInProcess(['plan', '-f', join(dir, 'no-such.yaml')]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `tailor plan: ${join(dir, 'no-such.yaml')}: cannot read: no such file\n`);
});

test('pods without managedFields (kubectl get strips them) get a note: the cooldown cannot be known', async () => {
  // lowerBound 105m: web-7f9c-a's 100m is outside it, but not short enough (10%) to skip the cooldown (decision 0296).
  const objects = OBJECTS.replace('lowerBound: {cpu: 300m', 'lowerBound: {cpu: 105m');
  const path = join(dir, 'stripped.yaml');
  writeFileSync(path, objects);
  const out = sink();
  const err = sink();
  await planFiles(
    { filename: [path], serverVersion: '1.35', featureGate: false, now: AT, resizes: '1000', evictions: '1000', allowRestart: false },
    0,
    out,
    err,
  );
  assert.match(err.text, /2 pod\(s\) have no managedFields \(kubectl get leaves them out unless --show-managed-fields\)/);
  // With the updater's resize 5 minutes ago in managedFields (as --show-managed-fields keeps it) the same pod waits.
  const managed = `    managedFields: [{manager: tailor-updater, operation: Update, subresource: resize, time: "2026-06-01T11:55:00Z"}]\n`;
  const shown = join(dir, 'shown.yaml');
  writeFileSync(shown, objects.replace(/( {4}ownerReferences: .*\n)/g, `$1${managed}`));
  const out2 = sink();
  const err2 = sink();
  await planFiles(
    { filename: [shown], serverVersion: '1.35', featureGate: false, now: AT, resizes: '1000', evictions: '1000', allowRestart: false },
    0,
    out2,
    err2,
  );
  assert.doesNotMatch(err2.text, /managedFields/);
  assert.match(out2.text, /^shop\/web-7f9c-a Wait Cooldown: changed 5 min ago/m);
  assert.match(out.text, /^shop\/web-7f9c-a ResizeInPlace /m);
});

test('--format json|yaml and --output: the decisions and notes as data, in a file', async () => {
  const path = join(dir, 'shop-json.yaml');
  writeFileSync(path, OBJECTS);
  const file = join(dir, 'plan.json');
  const r = await tailorInProcess(['plan', '-f', path, '--now', AT, '--format', 'json', '--output', file]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(readFileSync(file, 'utf8')) as { decisions: Array<{ podName: string; action: string; reason: string }>; notes: string[] };
  assert.deepEqual(
    report.decisions.map((d) => [d.podName, d.action, d.reason]),
    [
      ['web-7f9c-a', 'ResizeInPlace', 'OutsideBounds'],
      ['web-7f9c-b', 'Wait', 'Canary'],
    ],
  );
  assert.equal(report.notes.length, 2);
  const yamlFile = join(dir, 'plan.yaml');
  assert.equal((await tailorInProcess(['plan', '-f', path, '--now', AT, '--format', 'yaml', '--output', yamlFile])).code, 0);
  assert.match(readFileSync(yamlFile, 'utf8'), /^decisions:\n {2}- namespace: shop\n {4}podName: web-7f9c-a\n/);
});

test('--server-version defaults to the version tailor sim and tailor demo follow', () => {
  const plan = buildProgram().commands.find((c) => c.name() === 'plan');
  assert.equal(plan?.options.find((o) => o.long === '--server-version')?.defaultValue, DEFAULT_SERVER_VERSION);
  assert.equal(DEFAULT_SERVER_VERSION, '1.35');
});

test('a disruption window on the VPA: the eviction waits in the plan and says when the window opens', () => {
  const path = join(dir, 'shop-window.yaml');
  const windowed = OBJECTS.replace(
    '  metadata: {name: web, namespace: shop}\n  spec:\n    targetRef',
    '  metadata:\n    name: web\n    namespace: shop\n    annotations: {tailor.dev/disruption-windows: "* 2-4 * * *", tailor.dev/disruption-window-timezone: America/New_York, tailor.dev/canary-share: 0%}\n  spec:\n    targetRef',
  );
  assert.notEqual(windowed, OBJECTS);
  writeFileSync(path, windowed);
  const result = tailor(['plan', '-f', path, '--now', '2026-06-01T12:00:00Z', '--server-version', '1.30']);
  assert.equal(result.status, 0, result.stderr);
  // 02:00 in New York (UTC-4 in June) = 06:00 UTC the next day
  assert.match(
    result.stdout,
    /^shop\/web-7f9c-a Wait DisruptionWindow: outside the disruption window \* 2-4 \* \* \* \(America\/New_York\); it opens next at 2026-06-02T06:00:00\.000Z \(planned: Evict FallbackInPlaceUnsupported/m,
  );
  // inside the window the same objects are evicted
  const open = tailor(['plan', '-f', path, '--now', '2026-06-02T06:30:00Z', '--server-version', '1.30']);
  assert.match(open.stdout, /^shop\/web-7f9c-a Evict FallbackInPlaceUnsupported/m);
});

test('an input that is not YAML or JSON (random bytes, prose) is an error naming the file, exit 1; not "0 pod(s)"', async () => {
  const bytes = Buffer.alloc(4096);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 256; // every byte value, NULs included
  const garbage = join(dir, 'garbage.bin');
  writeFileSync(garbage, bytes);
  const binary = await tailorInProcess(['plan', '-f', garbage], { allStderr: true });
  assert.equal(binary.code, 1);
  assert.equal(binary.stderr, `tailor plan: ${garbage}: not YAML or JSON: binary data\n`);
  const prose = join(dir, 'prose.txt');
  writeFileSync(prose, 'hello world\n');
  const text = await tailorInProcess(['plan', '-f', prose], { allStderr: true });
  assert.equal(text.code, 1);
  assert.equal(text.stderr, `tailor plan: ${prose}: not YAML or JSON objects: document 1 is a string, not an object\n`);
});

test('--server-version takes 1.x up to 1.37 (v1.34.2 as kubectl version writes it); 2.0 and 1.38 are refused with the range', async () => {
  const path = join(dir, 'versions.yaml');
  writeFileSync(path, OBJECTS);
  for (const version of ['1.37', 'v1.36.3', '1.35', 'v1.34.2', '1.26'])
    assert.equal(
      (await tailorInProcess(['plan', '-f', path, '--now', AT, '--server-version', version, '--output', join(dir, 'versions.out')], { allStderr: true })).code,
      0,
      version,
    );
  for (const version of ['2.0', '1.38']) {
    const r = await tailorInProcess(['plan', '-f', path, '--server-version', version]);
    assert.equal(r.code, 2, version);
    assert.match(
      r.stderr,
      new RegExp(`--server-version ${version.replace('.', '\\.')} is not supported: Tailor knows the resize rules of Kubernetes 1\\.0 to 1\\.37`),
    );
  }
});
