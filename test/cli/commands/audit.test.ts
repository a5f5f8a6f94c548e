// Option errors of `tailor audit` are usage errors (exit 2) naming what is wrong,
// before anything is read or written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
