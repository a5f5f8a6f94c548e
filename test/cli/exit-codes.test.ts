// Exit codes as docs/cli.md says, for every command: 2 and one line on stderr for a usage error or
// a bad value (`tailor <command>: <cause>; see tailor <command> --help`), before anything is read,
// started or sent. Run in-process (main()), with everything written to process.stderr collected.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/main.ts';
import { EXIT_USAGE } from '../../src/cli/exit-codes.ts';
import { tailorInProcess } from './cli-in-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-exit-codes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
/** Input that would be read if the command got that far: an empty list for plan and validate. */
const EMPTY = join(dir, 'empty.yaml');
writeFileSync(EMPTY, 'apiVersion: v1\nkind: List\nitems: []\n');
/** Nothing listens here: a command that got as far as a request would fail with exit 1, not 2. */
const PROM = ['--prometheus-url', 'http://127.0.0.1:1'];
const MISSING = join(dir, 'missing.csv');

/** [command line, what the line must say]: each a usage error or a bad value. */
// One row per line, read as a table:
// prettier-ignore
const BAD: Array<[string[], RegExp]> = [
  [[], /name a command/],
  [['no-such-command'], /unknown command 'no-such-command'/],
  [['--bogus'], /unknown option '--bogus'/],

  [['demo', '--bogus'], /unknown option '--bogus'/],
  [['demo', '--duration', 'banana'], /--duration: invalid duration "banana": use e\.g\./],
  [['demo', '--duration', '500ms'], /--duration: "500ms" is shorter than a second/],
  [['demo', '--port', '70000'], /--port: "70000" is not a port number/],
  [['demo', '--server-version', '1.20'], /--server-version: unsupported server version "1\.20": expected one of 1\.32, 1\.33, 1\.34, 1\.35, 1\.36, 1\.37/],
  [['demo', '--log-level', 'bogus'], /'bogus' is invalid/],
  [['demo', '--audit-dir', dir, '--no-audit'], /--audit-dir: cannot be used with --no-audit/],

  [['recommend'], /required option '--prometheus-url <url>' not specified/],
  [['recommend', '--prometheus-url', 'not-a-url'], /--prometheus-url: invalid Prometheus URL "not-a-url"/],
  [['recommend', '--prometheus-url', 'ftp://prom'], /--prometheus-url: invalid Prometheus URL "ftp:\/\/prom": use http or https/],
  [['recommend', ...PROM, '--history', 'banana'], /--history: invalid duration "banana"/],
  [['recommend', ...PROM, '--history', '0s'], /--history: must be longer than 0/],
  [['recommend', ...PROM, '--step', '1 minute'], /--step: invalid duration "1 minute"/],
  [['recommend', ...PROM, '--scrape-interval', 'often'], /--scrape-interval: invalid duration "often"/],
  [['recommend', ...PROM, '--timeout', 'never'], /--timeout: invalid duration "never"/],
  [['recommend', ...PROM, '--retries', 'many'], /--retries: "many" is not a whole number of at least 0/],
  [['recommend', ...PROM, '--retries', '-1'], /--retries: "-1" is not a whole number of at least 0/],
  [['recommend', ...PROM, '--max-points-per-query', '0'], /--max-points-per-query: "0" is not a whole number of at least 1/],
  [['recommend', ...PROM, '--strategy', 'magic'], /--strategy: unknown strategy "magic"; known: vpa, tailor, tailor-low-churn/],
  [['recommend', ...PROM, '--selector', 'cluster=prod'], /invalid extra selector "cluster=prod"/],
  [['recommend', ...PROM, '--at', 'yesterday'], /--at: invalid time "yesterday"/],
  [['recommend', ...PROM, '--basic-auth', 'nocolon'], /--basic-auth: expected USER:PASSWORD/],
  [['recommend', ...PROM, '--header', 'no-colon'], /invalid header "no-colon"/],
  [['recommend', ...PROM, '--metric', 'cpu=foo'], /invalid --metric "cpu=foo"/],
  [['recommend', ...PROM, '--label', 'pods'], /invalid --label "pods"/],
  [['recommend', ...PROM, '--memory-budget', '64Mi'], /invalid --memory-budget "64Mi": must be at least 128Mi/],
  [['recommend', ...PROM, '--format', 'xml'], /'xml' is invalid/],
  [['recommend', ...PROM, '--log-level', 'bogus'], /'bogus' is invalid/],
  [['recommend', ...PROM, '--cpu-hour-price', '-1', '--memory-gib-hour-price', '0.004'], /--cpu-hour-price: "-1" is not a price: expected a decimal number of at least 0/],
  [['recommend', ...PROM, '--cpu-hour-price', '0.03', '--memory-gib-hour-price', 'cheap'], /--memory-gib-hour-price: "cheap" is not a price/],
  [['recommend', ...PROM, '--cpu-hour-price', '0.03'], /--cpu-hour-price needs --memory-gib-hour-price too/],
  [['recommend', ...PROM, '--memory-gib-hour-price', '0.004'], /--memory-gib-hour-price needs --cpu-hour-price too/],
  [['recommend', ...PROM, '--currency', 'EUR'], /--currency needs --cpu-hour-price and --memory-gib-hour-price/],
  [['recommend', ...PROM, '--cpu-hour-price', '0.03', '--memory-gib-hour-price', '0.004', '--currency', 'US dollars'], /--currency: "US dollars" is not a currency label/],
  [['recommend', ...PROM, '--all-clusters', '--context', 'a'], /--all-clusters reads the clusters from Prometheus, --context and --all-contexts from the kubeconfig; give one/],
  [['recommend', ...PROM, '--all-contexts', '--context', 'a'], /--all-contexts and --context name the contexts twice/],
  [['audit', ...PROM, '--cluster-name', 'a=b'], /--cluster-name names the cluster of a context: give several --context, or --all-contexts/],
  [['audit', ...PROM, '--context', 'a', '--context', 'b', '--cluster-name', 'c=x'], /--cluster-name c: not among the contexts given \(a, b\)/],
  [['audit', ...PROM, '--all-clusters', '--cluster-label', 'k8s-cluster'], /--cluster-label: invalid label name "k8s-cluster"/],
  [['recommend', ...PROM, '--context', 'a', '--context', 'b', '--cluster-name', 'a=b'], /contexts a and b both name cluster b: give them apart with --cluster-name CONTEXT=NAME/],

  [['audit'], /required option '--prometheus-url <url>' not specified/],
  [['audit', '--prometheus-url', 'not-a-url'], /--prometheus-url: invalid Prometheus URL/],
  [['audit', ...PROM, '--history', 'banana'], /--history: invalid duration "banana"/],
  [['audit', ...PROM, '--strategy', 'magic'], /--strategy: unknown strategy "magic"/],
  [['audit', ...PROM, '--store', 'bogus:xyz'], /--store <location>' argument 'bogus:xyz' is invalid/],
  [['audit', ...PROM, '--keep-reports', '0'], /'0' is invalid/],
  [['audit', ...PROM, '--chart-points', '1'], /'1' is invalid/],
  [['audit', ...PROM, '--keep-reports', '3'], /--keep-reports needs --output-dir/],
  [['audit', ...PROM, '--format', 'csv'], /'csv' is invalid/],
  [['audit', ...PROM, '--cpu-hour-price', '1e3', '--memory-gib-hour-price', '0.004'], /--cpu-hour-price: "1e3" is not a price/],
  [['audit', ...PROM, '--cpu-hour-price', '0.03'], /--cpu-hour-price needs --memory-gib-hour-price too/],

  [['replay'], /required option '--trace <file>' not specified/],
  [['replay', '--trace', MISSING, '--strategy', 'magic'], /--strategy: unknown strategy "magic"; known: vpa, tailor, tailor-low-churn, krr, oracle, oracle-rules/],
  [['replay', '--trace', MISSING, '--format', 'xml'], /'xml' is invalid/],
  [['replay', '--trace', MISSING, '--initial-cpu', 'lots'], /--initial-cpu <quantity>' argument 'lots' is invalid/],
  [['replay', '--trace', MISSING, '--initial-memory', 'lots'], /--initial-memory <quantity>' argument 'lots' is invalid/],

  [['generate-trace'], /required option '--out <file>' not specified/],
  [['generate-trace', '--out', MISSING, '--interval', '5'], /'5' is invalid\. expected whole seconds from 10 to 300/],
  [['generate-trace', '--out', MISSING, '--days', '0'], /'0' is invalid\. expected a positive integer/],
  [['generate-trace', '--out', MISSING, '--seed', '1.5'], /'1\.5' is invalid\. expected an integer/],
  [['generate-trace', '--out', MISSING, '--archetype', 'nope'], /unknown archetype/],

  [['plan'], /required option '-f, --filename <files\.\.\.>' not specified/],
  [['plan', '-f', EMPTY, '--server-version', 'latest'], /--server-version must look like 1\.34, got latest/],
  [['plan', '-f', EMPTY, '--server-version', '2.0'], /--server-version 2\.0 is not supported: Tailor knows the resize rules of Kubernetes 1\.0 to 1\.37/],
  [['plan', '-f', MISSING, '--now', 'yesterday'], /--now: /],
  [['plan', '-f', EMPTY, '--resizes', '-3'], /--resizes must be a whole number >= 0, got -3/],
  [['plan', '-f', EMPTY, '--evictions', 'all'], /--evictions must be a whole number >= 0, got all/],
  [['plan', '-f', EMPTY, '--format', 'xml'], /'xml' is invalid/],
  [['plan', '-f', EMPTY, '--prometheus-url', 'ftp://x'], /invalid configuration: --prometheus-url=ftp:\/\/x: unsupported scheme ftp:/],
  [['plan', '-f', EMPTY, '--memory-pressure-ratio', '2'], /--memory-pressure-ratio=2: out of range/],

  [['sim', '--speed', '0'], /--speed "0" must be a positive number/],
  [['sim', '--speed', 'fast'], /--speed "fast" must be a positive number/],
  [['sim', '--port', '99999'], /--port "99999" is not a port number \(0-65535; 0 = any free port\)/],
  [['sim', '--server-version', '1.99'], /'1\.99' is invalid\. Allowed choices are 1\.32, 1\.33, 1\.34, 1\.35, 1\.36, 1\.37/],
  [['sim', '--log-level', 'bogus'], /'bogus' is invalid/],

  [['validate'], /required option '-f, --filename <files\.\.\.>' not specified/],
  [['validate', '-f', EMPTY, '--format', 'xml'], /'xml' is invalid/],

  [['run', '--bogus'], /unknown option '--bogus'/],
  [['run', '--interval', '5x', ...PROM], /invalid configuration: --interval=5x: invalid duration "5x"/],
  [['run', '--components', 'recommender'], /--prometheus-url \(TAILOR_PROMETHEUS_URL\): required by the recommender/],
  [['run', '--log-level', 'bogus', ...PROM], /--log-level=bogus/],
];

/** `tailor` or `tailor <command>` for a command line. */
function commandOf(args: readonly string[]): string {
  const name = args[0];
  return name !== undefined && buildProgram().commands.some((c) => c.name() === name) ? `tailor ${name}` : 'tailor';
}

test('the table names every command', () => {
  const covered = new Set(BAD.map(([args]) => args[0]));
  for (const command of buildProgram().commands) assert.ok(covered.has(command.name()), `no bad value of tailor ${command.name()} in the table`);
});

for (const [args, cause] of BAD) {
  test(`tailor ${args.join(' ')}: exit 2, one line naming the command, the cause and --help`, async () => {
    const r = await tailorInProcess(args, { allStderr: true, deadlineMs: 30_000 });
    assert.equal(r.code, EXIT_USAGE, r.stderr);
    const command = commandOf(args);
    assert.equal(r.stderr.split('\n').length, 2, `one line: ${JSON.stringify(r.stderr)}`);
    assert.ok(r.stderr.startsWith(`${command}: `) && r.stderr.endsWith(`; see ${command} --help\n`), r.stderr);
    assert.match(r.stderr, cause);
  });
}
