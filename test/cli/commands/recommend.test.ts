// Option errors of `tailor recommend` are usage errors (status 2, as commander's own) with a message naming the bad value,
// before any request is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { freePort } from '../../support/free-port.ts';

function run(...args: string[]) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', 'recommend', '--prometheus-url', 'http://127.0.0.1:1', ...args], { encoding: 'utf8' });
}

test('bad options are refused with a clear message', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--selector', 'cluster=prod'], /invalid extra selector "cluster=prod"/],
    [['--history', '8 days'], /invalid duration "8 days"/],
    [['--strategy', 'nope'], /unknown strategy "nope"; known: vpa/],
    [['--metric', 'cpu=foo'], /invalid --metric "cpu=foo": expected one of cpuUsageSeconds/],
    [['--header', 'no-colon'], /invalid header "no-colon"/],
    [['--memory-budget', '64Mi'], /invalid --memory-budget "64Mi": must be at least 128Mi/],
    [['--memory-budget', 'lots'], /invalid --memory-budget "lots"/],
  ];
  for (const [args, message] of cases) {
    const result = run(...args);
    assert.equal(result.status, 2, args.join(' '));
    assert.match(result.stderr, message);
  }
});

test('an unknown --format is a usage error (exit 2)', () => {
  const result = run('--format', 'xml');
  assert.equal(result.status, 2);
  assert.match(result.stderr, /argument 'xml' is invalid/);
});

test('--prometheus-url is required', () => {
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'recommend'], { encoding: 'utf8' });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /required option '--prometheus-url <url>' not specified/);
});

test('a --prometheus-url that is not a URL is refused at start-up, not retried', () => {
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'recommend', '--prometheus-url', 'not-a-url', '--log-level', 'info'], { encoding: 'utf8' });
  assert.equal(result.status, 2);
  // One line (no retries, no stack), a usage error.
  assert.equal(
    result.stderr,
    'tailor recommend: --prometheus-url: invalid Prometheus URL "not-a-url": expected e.g. http://prometheus:9090; see tailor recommend --help\n',
  );
});

test('an unreachable Prometheus is one useful sentence at the default log level: no retry warnings, no serialised error, no stack', async () => {
  // A real closed port: connection refused at once.
  const url = `http://127.0.0.1:${await freePort()}`;
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'recommend', '--prometheus-url', url, '--retries', '2'], { encoding: 'utf8' });
  assert.equal(result.status, 1);
  assert.equal(result.stderr, `tailor recommend: Prometheus at ${url} is unreachable: connect ECONNREFUSED ${url.slice('http://'.length)}\n`);
});
