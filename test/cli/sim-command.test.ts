import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { CLI_DEADLINE_MS } from '../support/cli-deadline.ts';

test('tailor sim runs a scenario, writes a kubeconfig that client-node uses, and stops on SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-sim-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(
    process.execPath,
    ['bin/tailor.mjs', 'sim', '--port', '0', '--kubeconfig-out', kubeconfig, '--scenario', 'docs/examples/kube-sim-scenario.yaml', '--server-version', '1.33'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line: ${out}`)), CLI_DEADLINE_MS);
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('press Ctrl-C to stop')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  assert.match(out, /^kube-sim 1\.33 listening on https:\/\/127\.0\.0\.1:\d+ \(speed 60x\)/);
  assert.ok(out.includes(`kubeconfig: ${kubeconfig}`));
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  assert.deepEqual(
    (await core.listNode()).items.map((n) => n.metadata?.name),
    ['node-1', 'node-2'],
  );
  let pods: k8s.V1Pod[] = [];
  // A deadline, not a count of 100 ms rounds (each round's request takes longer on a loaded machine).
  const deadline = Date.now() + 30_000;
  while (pods.filter((p) => p.status?.phase === 'Running').length < 3 && Date.now() < deadline) {
    pods = (await core.listNamespacedPod({ namespace: 'shop' })).items;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(pods.filter((p) => p.status?.phase === 'Running').length, 3, 'web x2 and cache-0 run');
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(out, /kube-sim stopped\n$/);
});

test('tailor sim refuses a bad scenario with the path of the bad field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-sim-'));
  try {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'workloads:\n  - name: web\n    containers:\n      - name: app\n        usage: {memory: "leak(100Mi)"}\n');
    const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'sim', '--scenario', file], { encoding: 'utf8', timeout: CLI_DEADLINE_MS });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /scenario .*bad\.yaml: workloads\[0\]\.containers\[0\]\.usage\.memory: leak needs 2 values \(start, rate\), got 1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tailor sim rejects an unknown server version', () => {
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'sim', '--server-version', '1.20'], { encoding: 'utf8', timeout: CLI_DEADLINE_MS });
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /Allowed choices are 1\.32, 1\.33, 1\.34, 1\.35/);
});

test('tailor sim without --kubeconfig-out removes its temp kubeconfig on Ctrl-C (SIGINT)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-sim-tmp-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The temp directory of the child is `dir`, so what it leaves behind is seen here.
  const child = spawn(process.execPath, ['bin/tailor.mjs', 'sim', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: dir } });
  const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(`code ${code} signal ${signal} stderr ${err}`)));
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => (err += c));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line: ${out}`)), 90_000);
    const check = () => {
      if (!out.includes('press Ctrl-C to stop')) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve();
    };
    child.stdout.on('data', check);
  });
  const kubeconfig = /kubeconfig: (\S+)/.exec(out)?.[1] ?? '';
  assert.match(kubeconfig, /tailor-sim-\d+\.kubeconfig$/);
  assert.ok(kubeconfig.startsWith(dir), kubeconfig);
  assert.ok(existsSync(kubeconfig), 'written while running');
  child.kill('SIGINT');
  // Sent as soon as the line is read: the handler must be in place before the line is printed.
  assert.equal(await exited, 'code 0 signal null stderr ');
  assert.equal(existsSync(kubeconfig), false, 'removed at exit');
  assert.ok(out.endsWith(`kube-sim stopped; removed ${kubeconfig}\n`), out);
  assert.deepEqual(
    readdirSync(dir).filter((name) => !name.startsWith('tsx-')),
    [],
    'nothing else left (tsx keeps its compile cache there)',
  );
});
