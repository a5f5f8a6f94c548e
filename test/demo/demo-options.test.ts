import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DemoOptionError, parseDemoOptions } from '../../src/demo/demo-options.ts';

test('demo options: defaults, a duration, a port, a version, a log file, the audit', () => {
  assert.deepEqual(parseDemoOptions({}), { metricsPort: 0, prometheus: true, logLevel: 'info', audit: true });
  assert.deepEqual(parseDemoOptions({ duration: '1m30s', port: '9100', prometheus: false, serverVersion: 'v1.33', logFile: '/tmp/x.log', logLevel: 'debug' }), {
    durationMs: 90_000,
    metricsPort: 9100,
    prometheus: false,
    serverVersion: '1.33',
    logFile: '/tmp/x.log',
    logLevel: 'debug',
    audit: true,
  });
  assert.equal(parseDemoOptions({ duration: '5m' }).durationMs, 300_000);
  assert.deepEqual([parseDemoOptions({ auditDir: 'reports' }).auditDir, parseDemoOptions({ audit: false }).audit], ['reports', false]);
});

test('demo options: every bad value is refused with its flag named', () => {
  const cases: [Parameters<typeof parseDemoOptions>[0], RegExp][] = [
    [{ duration: 'soon' }, /^--duration: invalid duration "soon": use/],
    [{ duration: '500ms' }, /^--duration: "500ms" is shorter than a second/],
    [{ port: '70000' }, /^--port: "70000" is not a port number/],
    [{ port: '-1' }, /^--port: "-1" is not a port number/],
    [{ port: 'http' }, /^--port: "http" is not a port number/],
    [{ serverVersion: '1.20' }, /^--server-version: unsupported server version "1.20": expected one of 1.32, 1.33, 1.34, 1.35/],
    [{ logFile: ' ' }, /^--log-file: needs a file name/],
    [{ auditDir: '' }, /^--audit-dir: needs a folder name/],
    [{ auditDir: 'reports', audit: false }, /^--audit-dir: cannot be used with --no-audit/],
    [{ logLevel: 'loud' }, /^--log-level: "loud": expected one of fatal, error, warn, info, debug, trace, silent/],
  ];
  for (const [flags, message] of cases) {
    assert.throws(
      () => parseDemoOptions(flags),
      (err: unknown) => err instanceof DemoOptionError && message.test(err.message),
      JSON.stringify(flags),
    );
  }
});
