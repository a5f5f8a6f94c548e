import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { loopSchedule } from '../../src/cli/commands/run.ts';
import { resolveRunConfig } from '../../src/config/run-config.ts';
import { componentFactories, ComponentNotImplementedError } from '../../src/controller/component-registry.ts';

function tailor(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', 'run', ...args], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent', ...env }, timeout: 30_000 });
}

test('tailor run fails clearly while a requested component is not implemented', () => {
  const r = tailor(['--components', 'recommender,admission', '--prometheus-url', 'http://127.0.0.1:9'], {});
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^tailor: not implemented yet: recommender \(issue 6\)\. .*implemented components: admission\./);
});

test('tailor run reports every configuration problem, naming flags and variables, before anything else', () => {
  const r = tailor(['--interval', '5x'], { TAILOR_METRICS_PORT: 'http' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /invalid configuration:/);
  assert.match(r.stderr, /--interval=5x: invalid duration/);
  assert.match(r.stderr, /TAILOR_METRICS_PORT=http: not a whole number/);
});

test('tailor run --help lists the options with their variables', () => {
  const r = spawnSync(process.execPath, ['bin/tailor.mjs', 'run', '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /--prometheus-url <url>.*TAILOR_PROMETHEUS_URL/);
  assert.match(r.stdout, /docs\/configuration\.md/);
});

test('component lookup names every missing component and the implemented ones', () => {
  assert.throws(() => componentFactories(['updater']), (err: Error) => err instanceof ComponentNotImplementedError && /updater \(issue 7\).*implemented components: admission\./.test(err.message));
  const factory = () => ({ kind: 'server' as const, name: 'admission' as const, start: async () => undefined, stop: async () => undefined });
  assert.deepEqual(componentFactories(['admission'], { admission: factory }), [['admission', factory]]);
  assert.throws(() => componentFactories(['admission', 'updater'], { admission: factory }), /not implemented yet: updater \(issue 7\).*implemented components: admission/);
});

test('the loop schedule: --interval as a cron step, --schedule as given with its longest gap', () => {
  const env = { TAILOR_PROMETHEUS_URL: 'http://p:9090' };
  assert.deepEqual(loopSchedule(resolveRunConfig({ interval: '30s' }, env).config, Date.now()), { cron: '*/30 * * * * *', intervalMs: 30_000 });
  assert.deepEqual(loopSchedule(resolveRunConfig({ schedule: '0 */10 * * * *' }, env).config, Date.now()), { cron: '0 */10 * * * *', intervalMs: 600_000 });
});
