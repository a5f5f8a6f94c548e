/**
 * `kubectl tailor ...`: the real kubectl finds bin/kubectl-tailor on PATH and runs it as a plugin;
 * the CLI calls itself `kubectl tailor` there and takes kubectl's habits (`--context`, `-n`,
 * `--kubeconfig`).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { programName } from '../../src/cli/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-kubectl-plugin-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the real kubectl with the repository's bin/ first on PATH. */
function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, PATH: `${resolve('bin')}${delimiter}${process.env['PATH'] ?? ''}`, KUBECONFIG: join(dir, 'none') };
  return new Promise((done) => {
    execFile('kubectl', args, { env, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const VPA = `apiVersion: autoscaling.k8s.io/v1
kind: VerticalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  updatePolicy: {updateMode: InPlaceOrRecreate}
`;

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: one, context: {cluster: c, user: u}}]
current-context: one
`;

test('the plugin\'s name: kubectl-tailor -> "kubectl tailor", anything else -> "tailor"', () => {
  assert.equal(programName('/usr/local/bin/kubectl-tailor'), 'kubectl tailor');
  assert.equal(programName('/work/bin/tailor.mjs'), 'tailor');
  assert.equal(programName(undefined), 'tailor');
});

test('kubectl runs the plugin: help and errors say "kubectl tailor", a command does its work', async () => {
  const help = await kubectl(['tailor', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: kubectl tailor \[options\] \[command\]/);
  const vpa = join(dir, 'vpa.yaml');
  writeFileSync(vpa, VPA);
  const valid = await kubectl(['tailor', 'validate', '-f', vpa]);
  assert.equal(valid.code, 0, valid.stderr);
  const bad = await kubectl(['tailor', 'recommend', '--no-such-flag', '--prometheus-url', 'http://127.0.0.1:1']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^kubectl tailor recommend: .*see kubectl tailor recommend --help\n$/);
});

test("kubectl's habits: --context and --kubeconfig reach the connection, -n is --namespace", async () => {
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, KUBECONFIG);
  const common = ['tailor', 'recommend', '--prometheus-url', 'http://127.0.0.1:1', '--kubeconfig', kubeconfig, '-n', 'shop'];
  const wrongContext = await kubectl([...common, '--context', 'two']);
  assert.equal(wrongContext.code, 1, wrongContext.stderr);
  assert.match(wrongContext.stderr, /no such context in .*kubeconfig \(has: one\)/);
  const both = await kubectl([...common, '--context', 'one', '--kube-context', 'two']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--context "one" and --kube-context "two" name two contexts; give one/);
  const noNamespace = await kubectl(['tailor', 'recommend', '--prometheus-url', 'http://127.0.0.1:1', '-n']);
  assert.equal(noNamespace.code, 2);
  assert.match(noNamespace.stderr, /option '-n, --namespace <ns>' argument missing/);
});
