// `tailor plan`'s flags, checked before any file is read: each bad value a usage error naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAN_SERVER_VERSION, planSettings, planUsage, type PlanFlags } from '../../../src/cli/commands/plan-options.ts';
import { UsageError } from '../../../src/cli/exit-codes.ts';
import { InvalidConfigurationError } from '../../../src/config/resolve-config.ts';

const FLAGS: PlanFlags = {
  filename: ['x.yaml'],
  serverVersion: PLAN_SERVER_VERSION,
  featureGate: false,
  resizes: '1000',
  evictions: '1000',
  allowRestart: false,
};

test("the flags give the server version, the clock and the loop's budget", () => {
  assert.equal(PLAN_SERVER_VERSION, '1.35');
  assert.deepEqual(planSettings(FLAGS, 7), { version: { major: 1, minor: 35 }, at: 7, budget: { resizes: 1000, evictions: 1000 } });
  assert.deepEqual(planSettings({ ...FLAGS, serverVersion: 'v1.30.2', now: '2026-06-01T12:00:00Z', resizes: '0', evictions: '3' }, 7), {
    version: { major: 1, minor: 30 },
    at: Date.parse('2026-06-01T12:00:00Z'),
    budget: { resizes: 0, evictions: 3 },
  });
});

test('each bad value is a usage error, the server version first', () => {
  const refused = (flags: Partial<PlanFlags>, message: RegExp) =>
    assert.throws(
      () => planSettings({ ...FLAGS, ...flags }, 0),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
  refused({ serverVersion: 'latest', now: 'yesterday' }, /^--server-version must look like 1\.34, got latest$/);
  refused({ serverVersion: '1.38' }, /^--server-version 1\.38 is not supported: Tailor knows the resize rules of Kubernetes 1\.0 to 1\.37 /);
  refused({ now: 'yesterday', resizes: '-1' }, /^--now: /);
  refused({ resizes: '1.5' }, /^--resizes must be a whole number >= 0, got 1\.5$/);
  refused({ evictions: 'all' }, /^--evictions must be a whole number >= 0, got all$/);
});

test('usage comes from Prometheus only with --prometheus-url; a bad usage option is an invalid configuration', async () => {
  const without = await planUsage({}, {});
  assert.equal(without.source, undefined);
  assert.equal(without.options.memoryPressureRatio, 0.9);
  assert.equal((await planUsage({}, { TAILOR_MEMORY_PRESSURE_RATIO: '0.8' })).options.memoryPressureRatio, 0.8);
  const withUrl = await planUsage({ prometheusUrl: 'http://127.0.0.1:1' }, {});
  assert.ok(withUrl.source);
  await assert.rejects(planUsage({}, { TAILOR_MEMORY_PRESSURE_RATIO: '2' }), InvalidConfigurationError);
});
