import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { RUN_OPTIONS, resolveRunConfig } from '../../src/controller/run-config.ts';
import { InvalidConfigurationError } from '../../src/config/resolve-config.ts';
import { addTableOptions, commandLineValues } from '../../src/config/commander-options.ts';
import { mergeOptionTables } from '../../src/config/option-spec.ts';
import { stringType } from '../../src/config/option-types.ts';
import { prometheusConnection, prometheusQueryConfig } from '../../src/metrics/prometheus-options.ts';
import { configuredUpdaterOptions } from '../../src/updater/updater-options.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { RUN_REFERENCE_PATH, runConfigurationReference, withConfigurationReference } from '../../src/cli/run-config-reference.ts';

/** Parses argv the way `tailor run` does and resolves it against `env`. */
function resolve(argv: string[], env: Record<string, string> = {}) {
  const command = addTableOptions(new Command('run').exitOverride(), RUN_OPTIONS);
  command.parse(argv, { from: 'user' });
  return resolveRunConfig(commandLineValues(command, RUN_OPTIONS), env);
}

function problems(argv: string[], env: Record<string, string> = {}): string[] {
  try {
    resolve(argv, env);
  } catch (err) {
    assert.ok(err instanceof InvalidConfigurationError, String(err));
    return err.errors.map((e) => e.message);
  }
  return assert.fail('the configuration was accepted');
}

const URL_ENV = { TAILOR_PROMETHEUS_URL: 'http://prometheus:9090/' };

test('defaults: the recommender, every namespace, a 1 min loop, client-go lease timings', () => {
  const { config, sources } = resolve([], URL_ENV);
  assert.deepEqual(config.components, ['recommender']);
  assert.deepEqual(config.namespace, []);
  assert.equal(config.interval, 60_000);
  assert.equal(config.leaderElect, true);
  assert.deepEqual([config.leaseDuration, config.renewDeadline, config.retryPeriod], [15_000, 10_000, 2_000]);
  assert.equal(config.leaseNamespace, 'kube-system');
  assert.equal(config.metricsPort, 8942);
  assert.equal(config.prometheusUrl, 'http://prometheus:9090', 'trailing slash dropped');
  assert.equal(config.history, 8 * 86_400_000);
  assert.equal(sources.prometheusUrl, 'env');
  assert.equal(sources.interval, 'default');
  assert.equal(sources.kubeconfig, 'unset');
});

test('a flag wins over its variable, a variable over the default; an empty variable is unset', () => {
  const { config, sources } = resolve(['--interval', '5m', '--metrics-port=9000'], {
    ...URL_ENV,
    TAILOR_INTERVAL: '10s',
    TAILOR_LOG_LEVEL: 'debug',
    TAILOR_METRICS_PORT: '1',
    TAILOR_KUBECONFIG: '',
  });
  assert.equal(config.interval, 300_000);
  assert.equal(sources.interval, 'flag');
  assert.equal(config.metricsPort, 9000);
  assert.equal(config.logLevel, 'debug');
  assert.equal(sources.logLevel, 'env');
  assert.equal(config.kubeconfig, undefined);
});

test('lists: repeated flags and comma-separated items, duplicates dropped; switches both ways', () => {
  const { config } = resolve(
    ['--namespace', 'a,b', '--namespace', 'c', '--namespace', 'a', '--no-leader-elect', '--components', 'recommender,updater'],
    URL_ENV,
  );
  assert.deepEqual(config.namespace, ['a', 'b', 'c']);
  assert.equal(config.leaderElect, false);
  assert.deepEqual(config.components, ['recommender', 'updater']);
  const fromEnv = resolve([], {
    ...URL_ENV,
    TAILOR_LEADER_ELECT: 'false',
    TAILOR_ALSO_UNNAMED_VPAS: 'yes',
    TAILOR_IGNORE_NAMESPACES: 'kube-system, monitoring',
  });
  assert.equal(fromEnv.config.leaderElect, false);
  assert.equal(fromEnv.config.alsoUnnamedVpas, true);
  assert.deepEqual(fromEnv.config.ignoreNamespace, ['kube-system', 'monitoring']);
});

test('every bad value is reported at once, naming the flag or the variable it came from', () => {
  const found = problems(['--interval', '5x', '--components', 'recommender,scheduler'], {
    ...URL_ENV,
    TAILOR_METRICS_PORT: '70000',
    TAILOR_LEADER_ELECT: 'maybe',
  });
  assert.equal(found.length, 4, found.join('\n'));
  assert.ok(found.includes('--interval=5x: invalid duration "5x": use e.g. 90s, 30m, 12h, 8d, 1w'), found.join('\n'));
  assert.ok(found.some((m) => m.startsWith('--components=recommender,scheduler: item "scheduler": must be one of recommender, updater, admission')));
  assert.ok(found.includes('TAILOR_METRICS_PORT=70000: out of range 0-65535'));
  assert.ok(found.includes('TAILOR_LEADER_ELECT=maybe: not a boolean (use true or false)'));
});

test('bad values and broken rules across options are reported together, in one run', () => {
  // `tailor run --components recommender,foo --interval 7s`: a bad item and an interval that does
  // not divide the minute are both reported, not one per attempt.
  const found = problems(['--components', 'recommender,foo', '--interval', '7s']);
  assert.equal(found.length, 2, found.join('\n'));
  assert.ok(found[0]!.startsWith('--components=recommender,foo: item "foo"'), found.join('\n'));
  assert.match(found[1]!, /^--interval \(TAILOR_INTERVAL\): an interval of 7000 ms does not divide/);
  // A rule that reads an option which failed to parse says nothing (whether the recommender, and so
  // Prometheus, is needed is unknown until --components is fixed).
  assert.deepEqual(problems(['--components', 'foo']).length, 1);
});

test('secrets are never echoed in errors', () => {
  const found = problems(['--prometheus-basic-auth', 'nocolon'], URL_ENV);
  assert.deepEqual(found, ['--prometheus-basic-auth: expected USER:PASSWORD']);
});

test('rules across options name every flag involved', () => {
  assert.deepEqual(problems([]), ['--prometheus-url (TAILOR_PROMETHEUS_URL): required by the recommender']);
  assert.equal(resolve(['--components', 'admission']).config.prometheusUrl, undefined, 'only the recommender needs Prometheus');
  assert.deepEqual(problems(['--namespace', 'a', '--ignore-namespace', 'b'], URL_ENV), [
    '--namespace (TAILOR_NAMESPACES), --ignore-namespace (TAILOR_IGNORE_NAMESPACES): give either the namespaces to watch or those to ignore, not both',
  ]);
  assert.deepEqual(problems(['--leader-elect-renew-deadline', '15s'], URL_ENV), [
    '--leader-elect-renew-deadline (TAILOR_RENEW_DEADLINE), --leader-elect-lease-duration (TAILOR_LEASE_DURATION): the renew deadline (15s) must be shorter than the lease duration (15s)',
  ]);
  assert.deepEqual(problems(['--leader-elect-retry-period', '10s'], URL_ENV), [
    '--leader-elect-retry-period (TAILOR_RETRY_PERIOD), --leader-elect-renew-deadline (TAILOR_RENEW_DEADLINE): the retry period (10s) must be shorter than the renew deadline (10s)',
  ]);
  assert.deepEqual(problems(['--admission-status-interval', '1m'], URL_ENV), [
    '--admission-status-interval (TAILOR_ADMISSION_STATUS_INTERVAL), --admission-status-timeout (TAILOR_ADMISSION_STATUS_TIMEOUT): the status Lease is renewed every 1m, so a timeout of 1m would find it stale between renewals',
  ]);
  assert.match(problems(['--interval', '7m'], URL_ENV)[0]!, /^--interval \(TAILOR_INTERVAL\): an interval of 420000 ms does not divide/);
  assert.equal(resolve(['--interval', '7m', '--schedule', '0 */7 * * * *'], URL_ENV).config.schedule, '0 */7 * * * *', 'a schedule overrides the interval');
  assert.deepEqual(problems(['--leader-elect-lease-duration', '1500ms'], URL_ENV), [
    '--leader-elect-lease-duration=1500ms: must be whole seconds (a Lease stores seconds)',
  ]);
  assert.deepEqual(problems(['--namespace', 'Bad_Name'], URL_ENV), [
    '--namespace=Bad_Name: must be a DNS-1123 label (lower case letters, digits and -, at most 63)',
  ]);
  assert.deepEqual(problems(['--prometheus-metric', 'cpu=x'], URL_ENV), [
    `--prometheus-metric=cpu=x: unknown metric "cpu"; known: cpuUsageSeconds, memoryWorkingSet, oomEvents, lastTerminatedReason, restarts, podOwner, replicaSetOwner, jobOwner, requests, limits, initContainerInfo`,
  ]);
});

test("the Prometheus options become the usage source's connection and query settings", () => {
  const { config } = resolve(
    [
      '--prometheus-header',
      'X-Scope-OrgID: team-a',
      '--prometheus-timeout',
      '10s',
      '--prometheus-metric',
      'cpuUsageSeconds=my_cpu_total',
      '--prometheus-label',
      'pod=pod_name',
      '--prometheus-selector',
      'cluster="prod"',
    ],
    { ...URL_ENV, TAILOR_PROMETHEUS_BEARER_TOKEN_FILE: '/var/run/token' },
  );
  assert.deepEqual(prometheusConnection(config), {
    url: 'http://prometheus:9090',
    timeoutMs: 10_000,
    retries: 3,
    headers: { 'X-Scope-OrgID': 'team-a' },
    insecureSkipVerify: false,
    bearerTokenFile: '/var/run/token',
  });
  const q = prometheusQueryConfig(config);
  assert.equal(q.metrics.cpuUsageSeconds, 'my_cpu_total');
  assert.equal(q.metrics.memoryWorkingSet, 'container_memory_working_set_bytes');
  assert.equal(q.labels.pod, 'pod_name');
  assert.equal(q.extraSelector, 'cluster="prod"');
  assert.deepEqual(problems(['--prometheus-selector', 'cluster=prod'], URL_ENV).length, 1);
});

test('the memory-safety windows and margins: defaults of the updater, flags and variables, errors naming the flag', () => {
  const defaults = updaterOptions(configuredUpdaterOptions(resolve([], URL_ENV).config));
  assert.equal(defaults.memoryPressureWindowMs, 120_000);
  assert.equal(defaults.memoryPressureRatio, 0.9);
  assert.equal(defaults.memoryPeakWindowMs, 3_600_000);
  assert.equal(defaults.memoryPeakMarginRatio, 0.15);
  assert.equal(defaults.memoryPeakMarginBytes, 64 * 1024 * 1024);
  const { config } = resolve(
    ['--memory-pressure-window', '5m', '--memory-pressure-ratio', '0.95', '--memory-peak-window', '6h', '--memory-peak-margin', '128Mi'],
    { ...URL_ENV, TAILOR_MEMORY_PEAK_MARGIN_RATIO: '0.25', TAILOR_MEMORY_PEAK_WINDOW: '2h' },
  );
  const o = updaterOptions(configuredUpdaterOptions(config));
  assert.equal(o.memoryPressureWindowMs, 300_000);
  assert.equal(o.memoryPressureRatio, 0.95);
  assert.equal(o.memoryPeakWindowMs, 21_600_000, 'the flag wins over TAILOR_MEMORY_PEAK_WINDOW');
  assert.equal(o.memoryPeakMarginRatio, 0.25);
  assert.equal(o.memoryPeakMarginBytes, 134_217_728);
  assert.equal(o.maxStepUpFactor, 2, 'thresholds without a flag keep their defaults');
  assert.deepEqual(
    problems(['--memory-pressure-ratio', '0', '--memory-pressure-window', '0s', '--memory-peak-margin', '-1Mi', '--memory-peak-margin-ratio', 'ten'], URL_ENV),
    [
      '--memory-pressure-window=0s: must be longer than zero',
      '--memory-pressure-ratio=0: out of range (0, 1]',
      '--memory-peak-margin-ratio=ten: not a decimal number (e.g. 0.9)',
      '--memory-peak-margin=-1Mi: memory quantity "-1Mi" is negative',
    ],
  );
  assert.deepEqual(problems([], { ...URL_ENV, TAILOR_MEMORY_PRESSURE_RATIO: '1.5', TAILOR_MEMORY_PEAK_WINDOW: '1x' }).length, 2);
  assert.match(problems([], { ...URL_ENV, TAILOR_MEMORY_PRESSURE_RATIO: '1.5' })[0]!, /^TAILOR_MEMORY_PRESSURE_RATIO=1\.5: out of range \(0, 1\]/);
});

test('tables merge, refusing a key, flag or variable defined twice', () => {
  const row = (flag: string, env: string) => ({ flag, env, type: stringType, description: 'x', group: 'g' });
  assert.throws(() => mergeOptionTables({ a: row('a', 'A') }, { a: row('b', 'B') }), /option a is defined twice/);
  assert.throws(() => mergeOptionTables({ a: row('x', 'A') }, { b: row('x', 'B') }), /--x is used by both a and b/);
  assert.throws(() => mergeOptionTables({ a: row('a', 'X') }, { b: row('b', 'X') }), /X is used by both a and b/);
  assert.equal(Object.keys(mergeOptionTables({ a: row('a', 'A') }, { b: row('b', 'B') })).length, 2);
});

test('every row: a TAILOR_ variable, a description, a help line; the key matches the flag', () => {
  const command = addTableOptions(new Command('run'), RUN_OPTIONS);
  const help = command.helpInformation();
  for (const [key, spec] of Object.entries(RUN_OPTIONS)) {
    assert.match(spec.env, /^TAILOR_[A-Z0-9_]+$/, key);
    assert.ok(spec.description.length > 10, key);
    assert.ok(help.includes(`--${spec.flag}`) && help.includes(spec.env), `${key} missing from --help`);
  }
  assert.match(help, /Leader election:/);
});

test('docs/configuration.md carries the current generated reference between its markers (npm run docs:config)', () => {
  const page = readFileSync(RUN_REFERENCE_PATH, 'utf8');
  const reference = runConfigurationReference();
  assert.equal(withConfigurationReference(page, reference), page, 'stale: run npm run docs:config');
  for (const spec of Object.values(RUN_OPTIONS)) assert.ok(reference.includes(`\`${spec.env}\``), spec.env);
  assert.ok(page.startsWith('# Configuration of `tailor run`\n'), 'the hand-written part above the markers is kept');
});

test('the reference is written only between the markers, and a page without them is an error', () => {
  const page = withConfigurationReference(
    '# Title\n\nprose\n<!-- configuration-reference:start (generated by npm run docs:config from the option tables; do not edit by hand) -->\nold\n<!-- configuration-reference:end -->\nafter\n',
    'new',
  );
  assert.match(page, /^# Title\n\nprose\n<!-- configuration-reference:start[^\n]*-->\n\nnew\n\n<!-- configuration-reference:end -->\nafter\n$/);
  assert.throws(() => withConfigurationReference('# no markers', ''), /docs\/configuration\.md: the markers/);
});
