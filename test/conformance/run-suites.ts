/**
 * The conformance lane's driver (run by run.sh, which builds, brings the cluster up and down): for
 * each of upstream's suites, installs the autoscaler under test with only the components upstream
 * deploys for that suite, runs upstream's e2e binary on that suite with a JUnit report, uninstalls
 * it, and prints one row per spec. The autoscaler (TAILOR_CONFORMANCE_AUTOSCALER):
 *   tailor    (default) Tailor, installed from its manifests as a user would (`kubectl apply -k` of an
 *             overlay that sets the lane-built image, points Tailor at a Prometheus on this machine
 *             and scales to zero the components upstream does not deploy for that suite);
 *   upstream  upstream VPA v1.8.1 itself, from its own deploy/ manifests in kube-system
 *             (upstream-install.ts), for upstream's own table on the same cluster.
 *
 * Usage: node --import tsx test/conformance/run-suites.ts [suite...]
 * Environment (set by run.sh): TAILOR_CONFORMANCE_SUITE (the test binary), TAILOR_CONFORMANCE_RESULTS
 * (the report directory), TAILOR_CONFORMANCE_SLOW=0 (skip `[Slow]`), TAILOR_CONFORMANCE_OFF_BY_DEFAULT=1,
 * TAILOR_CONFORMANCE_FOCUS (an extra ginkgo focus), TAILOR_CONFORMANCE_TIMEOUT (ginkgo's, default 3h);
 * tailor: TAILOR_CONFORMANCE_IMAGE; upstream: TAILOR_CONFORMANCE_UPSTREAM_DEPLOY (deploy/ of the VPA
 * module), TAILOR_CONFORMANCE_UPSTREAM_IMAGES (the imported images, space-separated),
 * TAILOR_CONFORMANCE_METRICS_SERVER (its binary), TAILOR_CLUSTER_STATE.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startLocalPrometheus, type LocalPrometheus } from '../../src/local-prometheus/prometheus-process.ts';
import { laneKubeconfigPath, laneKubeConfig, laneKubectl, waitFor } from '../real-cluster/lane-cluster.ts';
import { allowPrometheus, forward, kubeletScrapeConfig, kubeletTargets, lanePkiDir } from '../real-cluster/lane-prometheus.ts';
import { AUTOSCALER_NAMES, autoscalerMode, type ConformanceAutoscaler } from './autoscaler.ts';
import {
  ginkgoSelection,
  markdownTable,
  markNotApplicable,
  NOT_APPLICABLE,
  readJunit,
  selectSuites,
  SUITES,
  tally,
  TAILOR_DEPLOYMENTS,
  type NotApplicable,
  type SpecRow,
  type TailorComponent,
} from './suites.ts';
import { upstreamAutoscaler } from './upstream-install.ts';

const NS = 'tailor-system';
/** kustomize components every suite's install adds: the switch to upstream's webhook names (docs/install.md). */
const COMPAT_COMPONENTS = ['manifests/components/upstream-webhook'];
const kc = laneKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run test/conformance/run.sh, not this file)`);
  return value;
}

function log(message: string): void {
  console.log(`[conformance ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

const kubectl = laneKubectl;

/** The overlay a user would write: the image, the Prometheus URL, the suite's components only. */
function overlay(dir: string, image: string, prometheusUrl: string, components: readonly TailorComponent[]): string {
  const [name, tag] = [image.slice(0, image.lastIndexOf(':')), image.slice(image.lastIndexOf(':') + 1)];
  const off = (Object.keys(TAILOR_DEPLOYMENTS) as TailorComponent[]).filter((c) => !components.includes(c));
  return [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    `  - ${relative(dir, resolve('manifests/install'))}`,
    'components:',
    ...COMPAT_COMPONENTS.map((c) => `  - ${relative(dir, resolve(c))}`),
    'images:',
    '  - name: tailor',
    `    newName: ${name}`,
    `    newTag: ${tag}`,
    ...(off.length > 0 ? ['replicas:', ...off.flatMap((c) => [`  - name: ${TAILOR_DEPLOYMENTS[c]}`, '    count: 0'])] : []),
    'configMapGenerator:',
    '  - name: tailor-config',
    `    namespace: ${NS}`,
    '    behavior: merge',
    '    literals:',
    `      - TAILOR_PROMETHEUS_URL=${prometheusUrl}`,
    '',
  ].join('\n');
}

async function installTailor(dir: string, components: readonly TailorComponent[]): Promise<void> {
  kubectl('apply', '-k', dir);
  let last = '';
  await waitFor(
    `Tailor's ${components.join(', ')} Ready`,
    300_000,
    async () => {
      const states = await Promise.all(components.map((c) => apps.readNamespacedDeployment({ namespace: NS, name: TAILOR_DEPLOYMENTS[c] })));
      last = states.map((d) => `${d.metadata?.name} ${d.status?.readyReplicas ?? 0}/${d.spec?.replicas}`).join(', ');
      return states.every((d) => (d.status?.readyReplicas ?? 0) === d.spec?.replicas && (d.status?.updatedReplicas ?? 0) === d.spec?.replicas)
        ? true
        : undefined;
    },
    () => last,
  );
}

/**
 * Until the admission webhook answers the API server: a server-side dry run of a VPA with an unknown
 * update mode is denied by `vpa.k8s.io`. Tailor's manifests create `vpa-webhook-config` before the
 * webhook serves (failurePolicy Ignore: pods are admitted unchanged meanwhile), while upstream's
 * admission controller creates it itself once serving, and the specs wait for the configuration only.
 */
async function webhookAnswers(dir: string): Promise<number> {
  const started = Date.now();
  const file = join(dir, 'probe-vpa.yaml');
  writeFileSync(
    file,
    [
      'apiVersion: autoscaling.k8s.io/v1',
      'kind: VerticalPodAutoscaler',
      'metadata: {name: conformance-probe, namespace: default}',
      'spec: {targetRef: {apiVersion: apps/v1, kind: Deployment, name: probe}, updatePolicy: {updateMode: NotAMode}}',
      '',
    ].join('\n'),
  );
  let last = '';
  await waitFor(
    'the admission webhook to answer (a dry run of an invalid VPA denied by vpa.k8s.io)',
    120_000,
    async () => {
      try {
        kubectl('create', '--dry-run=server', '-f', file);
        last = 'the invalid VPA was accepted';
        return undefined;
      } catch (error) {
        last = (error as Error).message;
        return /admission webhook "vpa\.k8s\.io" denied/.test(last) ? true : undefined;
      }
    },
    () => last,
  );
  return Date.now() - started;
}

async function uninstallTailor(dir: string): Promise<void> {
  kubectl('delete', '-k', dir, '--ignore-not-found', '--wait=false');
  await waitFor(`namespace ${NS} deleted`, 300_000, () =>
    core.readNamespace({ name: NS }).then(
      () => undefined,
      () => true,
    ),
  );
  await waitFor('the VPA CRDs deleted', 120_000, async () => {
    const crds = await ext.listCustomResourceDefinition();
    return crds.items.some((c) => c.spec.group === 'autoscaling.k8s.io') ? undefined : true;
  });
}

/** Runs the suite binary on one suite; resolves with its exit status (its output goes to `logFile`). */
function runSuite(binary: string, suite: string, namespace: string, junit: string, logFile: string, notApplicable: readonly NotApplicable[]): Promise<number> {
  const args = [
    `--kubeconfig=${laneKubeconfigPath()}`,
    ...ginkgoSelection(suite, {
      offByDefault: process.env.TAILOR_CONFORMANCE_OFF_BY_DEFAULT === '1',
      slow: process.env.TAILOR_CONFORMANCE_SLOW !== '0',
      focus: process.env.TAILOR_CONFORMANCE_FOCUS || undefined,
      skipSpecs: notApplicable.filter((n) => n.suite === suite).map((n) => n.spec),
    }),
    `--ginkgo.junit-report=${junit}`,
    `--ginkgo.timeout=${process.env.TAILOR_CONFORMANCE_TIMEOUT ?? '3h'}`,
    '--ginkgo.no-color',
    // The lane's kube-system runs no pods: do not wait for them.
    '--minStartupPods=-1',
    '--disable-log-dump',
  ];
  const out = createWriteStream(logFile);
  log(`${suite}: ${binary} ${args.join(' ')} (output: ${logFile})`);
  const child = spawn(binary, args, { env: { ...process.env, VPA_NAMESPACE: namespace, KUBECONFIG: laneKubeconfigPath() }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  return new Promise((ok, fail) => {
    child.once('error', fail);
    child.once('close', (code, signal) => {
      out.end();
      ok(code ?? (signal ? 128 : 1));
    });
  });
}

/** Tailor as the lane's autoscaler: its manifests, per suite; a Prometheus on this machine for all. */
function tailorAutoscaler(image: string): ConformanceAutoscaler {
  let prometheus: LocalPrometheus | undefined;
  let forwarder: Server | undefined;
  let prometheusUrl = '';
  let dir: string | undefined;
  return {
    name: AUTOSCALER_NAMES.tailor,
    namespace: NS,
    logName: 'tailor',
    async start() {
      // Tailor's recommender reads Prometheus: one on this machine scraping the kubelets, reachable from
      // pods on node 1's bridge address (the lane has no Service routing).
      await allowPrometheus(kc);
      const targets = await kubeletTargets(core);
      prometheus = await startLocalPrometheus({ config: kubeletScrapeConfig(targets, lanePkiDir(), 5) });
      const nodeIp = targets[0]!.slice(0, targets[0]!.lastIndexOf(':'));
      const forwarded = await forward(nodeIp, Number(new URL(prometheus.url).port));
      forwarder = forwarded.server;
      prometheusUrl = `http://${nodeIp}:${forwarded.port}`;
    },
    async install(suite, components) {
      dir = mkdtempSync(join(tmpdir(), `tailor-conformance-${suite}-`));
      writeFileSync(join(dir, 'kustomization.yaml'), overlay(dir, image, prometheusUrl, components));
      log(`${suite}: installing Tailor (${components.join(', ')}) from manifests/install`);
      await installTailor(dir, components);
      if (components.includes('admission')) log(`${suite}: the admission webhook answered ${await webhookAnswers(dir)} ms after Tailor was Ready`);
    },
    logs() {
      return kubectl('logs', '-n', NS, '-l', 'app.kubernetes.io/name=tailor', '--all-containers', '--prefix', '--tail=-1');
    },
    async uninstall() {
      if (!dir) return;
      try {
        await uninstallTailor(dir);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        dir = undefined;
      }
    },
    async stop() {
      forwarder?.close();
      await prometheus?.stop();
    },
  };
}

function chooseAutoscaler(): ConformanceAutoscaler {
  const mode = autoscalerMode(process.env.TAILOR_CONFORMANCE_AUTOSCALER);
  if (mode === 'tailor') return tailorAutoscaler(env('TAILOR_CONFORMANCE_IMAGE'));
  return upstreamAutoscaler(kc, {
    deployDir: env('TAILOR_CONFORMANCE_UPSTREAM_DEPLOY'),
    images: env('TAILOR_CONFORMANCE_UPSTREAM_IMAGES').split(/\s+/).filter(Boolean),
    metricsServer: env('TAILOR_CONFORMANCE_METRICS_SERVER'),
    state: env('TAILOR_CLUSTER_STATE'),
  });
}

async function main(): Promise<number> {
  const suites = selectSuites(process.argv.slice(2));
  const binary = env('TAILOR_CONFORMANCE_SUITE');
  const results = env('TAILOR_CONFORMANCE_RESULTS');
  const autoscaler = chooseAutoscaler();
  // Upstream's own run keeps the specs that check its implementation details.
  const notApplicable = autoscaler.name === AUTOSCALER_NAMES.tailor ? NOT_APPLICABLE : [];
  mkdirSync(results, { recursive: true });
  log(`autoscaler under test: ${autoscaler.name} (components in ${autoscaler.namespace})`);

  const rows: SpecRow[] = [];
  let failedRuns = 0;
  try {
    await autoscaler.start();
    for (const suite of suites) {
      const components = SUITES[suite]!;
      const junit = join(results, `${suite}.junit.xml`);
      const started = Date.now();
      try {
        await autoscaler.install(suite, components);
        const status = await runSuite(binary, suite, autoscaler.namespace, junit, join(results, `${suite}.log`), notApplicable);
        const suiteRows = existsSync(junit) ? markNotApplicable(readJunit(suite, readFileSync(junit, 'utf8'), suite), notApplicable) : [];
        if (suiteRows.length === 0) {
          failedRuns++;
          log(`${suite}: the suite exited ${status} and reported no spec (see ${join(results, `${suite}.log`)})`);
        }
        rows.push(...suiteRows);
        const t = tally(suiteRows);
        log(
          `${suite}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.notApplicable} not applicable in ${Math.round((Date.now() - started) / 1000)} s`,
        );
      } catch (error) {
        failedRuns++;
        log(`${suite}: could not run: ${(error as Error).message}`);
      } finally {
        // The components' logs are kept with the report: the reasons behind a failure are often there.
        try {
          writeFileSync(join(results, `${suite}.${autoscaler.logName}.log`), autoscaler.logs());
        } catch {
          /* none running */
        }
        await autoscaler.uninstall().catch((error: unknown) => {
          failedRuns++;
          log(`${suite}: uninstall failed: ${(error as Error).message}`);
        });
      }
    }
  } finally {
    await autoscaler.stop();
  }

  const table = markdownTable(rows, autoscaler.name);
  writeFileSync(join(results, 'table.md'), `${table}\n`);
  console.log(table);
  const t = tally(rows);
  log(`report: ${results} (table.md, <suite>.junit.xml, <suite>.log, <suite>.${autoscaler.logName}.log)`);
  console.log(
    `conformance (${autoscaler.name}): ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.notApplicable} not applicable (${suites.join(', ')})`,
  );
  return failedRuns > 0 || t.failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${(error as Error).message}`);
    process.exit(1);
  },
);
