// Option errors of `tailor audit` are usage errors (exit 2) naming what is wrong,
// before anything is read or written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tailorInProcess } from '../cli-in-process.ts';

const base = ['audit', '--prometheus-url', 'http://127.0.0.1:1', '--retries', '0'];

test('bad --store, --chart-points and --keep-reports values are usage errors naming them', async () => {
  for (const [args, message] of [
    [['--store', 's3://bucket'], /--store <location>' argument 's3:\/\/bucket' is invalid\. "s3:\/\/bucket": expected configmap:NAMESPACE\/NAME or dir:PATH/],
    [['--store', 'configmap:Bad_NS/x'], /"Bad_NS" is not a namespace name/],
    [['--chart-points', '1'], /--chart-points <n>' argument '1' is invalid\. expected a whole number from 2 to 1000/],
    [['--keep-reports', '0', '--output-dir', 'x'], /--keep-reports <n>' argument '0' is invalid/],
    [['--format', 'csv'], /Allowed choices are html, json/],
  ] as const) {
    const r = await tailorInProcess([...base, ...args]);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
  }
});

test('--output with --output-dir, and --keep-reports without --output-dir, are usage errors', async () => {
  const r = await tailorInProcess([...base, '--output', 'a.html', '--keep-reports', '3']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--keep-reports needs --output-dir/);
  const both = await tailorInProcess([...base, '--output', 'a.html', '--output-dir', 'd', '--keep-reports', '3']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--output and --output-dir cannot be used together/);
});

test('--output-dir that cannot be made fails at once, in one line, exit 1, before the history is read', async () => {
  // Prometheus at 127.0.0.1:1 is unreachable: an error about it would mean the folder was looked at too late.
  const proc = await tailorInProcess([...base, '--output-dir', '/proc/nope'], 10_000);
  assert.equal(proc.code, 1, proc.stderr);
  assert.match(proc.stderr, /^tailor audit: --output-dir \/proc\/nope: cannot create the folder: no folder can be created in \/proc\n$/);
  assert.equal(proc.stderr.trim().split('\n').length, 1, proc.stderr);
  const root = mkdtempSync(join(tmpdir(), 'tailor-audit-dir-'));
  try {
    const typo = await tailorInProcess([...base, '--output-dir', join(root, 'typo', 'reports')], 10_000);
    assert.equal(typo.code, 1, typo.stderr);
    assert.match(typo.stderr, /cannot create the folder: the folder .*\/typo does not exist \(only the last folder of the path is created\)/);
    assert.deepEqual(readdirSync(root), [], 'no parent folder was created');
    const store = await tailorInProcess([...base, '--store', `dir:${join(root, 'typo', 'store')}`], 10_000);
    assert.equal(store.code, 1, store.stderr);
    assert.match(store.stderr, /^tailor audit: --store dir: .*\/typo\/store: cannot create the folder: the folder .*\/typo does not exist/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a folder --output-dir created is removed again when the audit fails before writing in it', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tailor-audit-dir-'));
  try {
    const r = await tailorInProcess([...base, '--output-dir', join(root, 'reports')]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /127\.0\.0\.1:1/, 'it failed reading Prometheus');
    assert.deepEqual(readdirSync(root), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
