import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { parseKubeSimArgs } from '../../src/cli.ts';

const BIN = fileURLToPath(new URL('../../bin/kube-sim.mjs', import.meta.url));

test('parseKubeSimArgs lists every bad argument at once', () => {
  const parsed = parseKubeSimArgs(['--port', '70000', '--server-version', '1.20', '--speed', '0', '--log-level', 'loud']);
  assert.ok('errors' in parsed);
  assert.equal(parsed.errors.length, 4, parsed.errors.join('\n'));
  assert.match(parsed.errors.join('\n'), /--port "70000".*\n.*--server-version "1\.20".*\n.*--speed "0".*\n.*--log-level "loud"/);
});

test('parseKubeSimArgs reads good arguments', () => {
  assert.deepEqual(parseKubeSimArgs(['--port', '0', '--server-version', '1.33', '--speed', '60']), {
    options: { port: 0, version: '1.33', speed: 60, logLevel: 'warn', crds: [] },
    help: false,
  });
});

test('the kube-sim bin exits 2 with every usage problem and the usage text', () => {
  const result = spawnSync(process.execPath, [BIN, '--port', 'x', '--speed=-1'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /--port "x"/);
  assert.match(result.stderr, /--speed "-1"/);
  assert.match(result.stderr, /Usage: kube-sim/);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
});

test('the kube-sim bin serves a cluster client-node can use, stops on SIGTERM and removes its temp kubeconfig', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-sim-bin-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, [BIN, '--port', '0', '--server-version', '1.34'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TMPDIR: dir },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line: ${out}`)), 60_000);
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('press Ctrl-C to stop')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  assert.match(out, /^kube-sim 1\.34 listening on https:\/\/127\.0\.0\.1:\d+ \(speed 1x\)/);
  const kubeconfig = /kubeconfig: (\S+)/.exec(out)?.[1] ?? '';
  assert.ok(kubeconfig.startsWith(dir), out);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(readFileSync(kubeconfig, 'utf8'));
  const nodes = await kc.makeApiClient(k8s.CoreV1Api).listNode();
  assert.ok(nodes.items.length > 0);
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(out, /kube-sim stopped\n$/);
  assert.equal(existsSync(kubeconfig), false, 'the temp kubeconfig is removed');
});
