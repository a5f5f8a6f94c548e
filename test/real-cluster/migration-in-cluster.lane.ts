/**
 * Migration from upstream's VPA v1.8.1 to Tailor and back **in the cluster**, with the commands of
 * docs/migration.md as written (read from the page: migration-doc.ts), run through bash with the
 * lane's kubeconfig: where migration.lane.ts runs both autoscalers as processes on this machine,
 * here they run as users run them.
 *
 * 1. Upstream as it installs itself, on a cluster without the VPA CRDs (those an earlier lane test
 *    left are deleted first: removeLeftoverVpaCrds): its deploy/ manifests in kube-system (CRDs, RBAC, the three
 *    Deployments, its gencerts.sh Secrets; test/conformance/upstream-install.ts) on images made from
 *    the binaries the lane built (upstream-in-cluster.sh), metrics-server on this machine. Four
 *    Deployments and their VPAs: spiky (Off), web (Initial), idle (InPlaceOrRecreate) as in
 *    migration.lane.ts, and batch (Recreate, two replicas). It waits until the spike is over and
 *    upstream has recommended every container and written a checkpoint of each.
 * 2. The switch: the page's commands up to the updater's start (upstream scaled to 0, its webhook
 *    configuration deleted, `kubectl apply -k my-overlay`), then, two minutes after the apply (the
 *    page's "two minutes later"), the updater's. `my-overlay` is the page's kustomization with three
 *    things set for the lane: the lane-built image, TAILOR_PROMETHEUS_URL (a Prometheus on this
 *    machine, started at the switch, so the spike is in upstream's checkpoints only, reached by the
 *    pods through node 1's bridge address), and TAILOR_INTERVAL / TAILOR_CHECKPOINT_INTERVAL 20s to
 *    keep the test short. Then the page's "Check it" commands. After three updater loops every
 *    target must be within TOLERANCE of upstream's last, every checkpoint hold at least upstream's
 *    samples, and every pod be the same (uid, restartCount, requests).
 * 3. The switch back: the page's commands; the same checks against Tailor's last, once upstream
 *    has written every checkpoint again and its updater has had a loop.
 *
 * Skipped with one line when upstream's images are not cached (upstream-in-cluster.sh --check) or
 * Tailor's image is not (image.sh --check). Runs with `npm run test:real-cluster migration-in-cluster`
 * (as root). Leaves nothing behind: Tailor deleted with `kubectl delete -k my-overlay`, upstream's
 * manifests deleted, the CRDs gone.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import type { LocalPrometheus } from '../../src/local-prometheus/prometheus-process.ts';
import { upstreamAutoscaler } from '../conformance/upstream-install.ts';
import type { ConformanceAutoscaler } from '../conformance/autoscaler.ts';
import { dropNamespace, freshNamespace, laneKubeConfig, laneKubeconfigPath, removeLeftoverVpaCrds, waitFor } from './lane-cluster.ts';
import { readMigrationDoc, UPDATER_START } from './migration-doc.ts';
import { forward, startLanePrometheus } from './lane-prometheus.ts';
import {
  RECREATE_WORKLOAD,
  VPA,
  WORKLOADS,
  deployment,
  podSnapshot,
  readCheckpoints,
  readTargets,
  showTargets,
  checkpointsWrittenBy,
  switchLosses,
  vpaObject,
} from './migration-support.ts';

const SPIKE_SECONDS = Number(process.env.MIGRATION_SPIKE_SECONDS ?? 180);
const MINUTES = 60_000;
/** The page's "two minutes later": one --history-step (1m) and a cycle, counted from the apply. */
const UPDATER_AFTER_MS = 2 * MINUTES;
/** TAILOR_INTERVAL in the lane's overlay. */
const LOOP_MS = 20_000;
const STATE = process.env.TAILOR_CLUSTER_STATE ?? '/var/lib/tailor-real-cluster';
const ALL = [...WORKLOADS, RECREATE_WORKLOAD];
const PODS = ALL.reduce((n, w) => n + (w.replicas ?? 1), 0);

/** Why the test cannot run here, or undefined. */
function missing(): string | undefined {
  for (const [script, build] of [
    ['test/real-cluster/upstream-in-cluster.sh', 'test/real-cluster/build-upstream-vpa.sh and test/conformance/build-upstream.sh'],
    ['test/real-cluster/image.sh', 'test/real-cluster/image.sh'],
  ] as const) {
    const run = spawnSync('bash', [script, '--check'], { encoding: 'utf8' });
    if (run.status !== 0) return `${(run.stdout + run.stderr).trim().split('\n').at(-1)}: run ${build} once`;
  }
  return undefined;
}
const skip = missing();
if (skip) console.log(`SKIPPED: ${skip}`);

describe('migration in the cluster, upstream VPA v1.8.1 → Tailor → upstream with docs/migration.md as written', { skip }, () => {
  const kc = skip ? undefined! : laneKubeConfig();
  const core = kc?.makeApiClient(k8s.CoreV1Api);
  const apps = kc?.makeApiClient(k8s.AppsV1Api);
  const custom = kc?.makeApiClient(k8s.CustomObjectsApi);
  const doc = readMigrationDoc(readFileSync('docs/migration.md', 'utf8'));
  const work = mkdtempSync(join(tmpdir(), 'tailor-migration-in-cluster-'));
  let namespace = '';
  let upstream: ConformanceAutoscaler | undefined;
  let prometheus: LocalPrometheus | undefined;
  let forwarder: Server | undefined;
  let tailorApplied = false;
  const figures: Record<string, unknown> = {};

  /** One of the page's commands, as a user types it, in the directory that holds my-overlay. */
  function run(command: string): string {
    const out = spawnSync('bash', ['-c', command], { cwd: work, encoding: 'utf8', env: { ...process.env, KUBECONFIG: laneKubeconfigPath() } });
    if (out.status !== 0) throw new Error(`\`${command}\` failed (${out.status}): ${out.stderr}${out.stdout}`);
    console.log(`$ ${command}\n${out.stdout.trimEnd()}`);
    return out.stdout;
  }

  /** The page's overlay with the lane's image, Prometheus and short intervals; its paths made relative to `work`. */
  function writeOverlay(image: string, prometheusUrl: string): void {
    const overlay = k8s.loadYaml<Record<string, unknown> & { configMapGenerator: { literals: string[] }[] }>(doc.overlay);
    const manifests = relative(join(work, 'my-overlay'), resolve('manifests'));
    const rebase = (paths: unknown) => (paths as string[]).map((p) => p.replace(/^\.\.\/manifests\//, `${manifests}/`));
    overlay.resources = rebase(overlay.resources);
    overlay.components = rebase(overlay.components);
    const literals = overlay.configMapGenerator[0]!.literals.filter((l) => !l.startsWith('TAILOR_PROMETHEUS_URL='));
    literals.push(`TAILOR_PROMETHEUS_URL=${prometheusUrl}`, `TAILOR_INTERVAL=${LOOP_MS / 1000}s`, `TAILOR_CHECKPOINT_INTERVAL=${LOOP_MS / 1000}s`);
    overlay.configMapGenerator[0]!.literals = literals;
    const at = image.lastIndexOf(':');
    overlay.images = [{ name: 'tailor', newName: image.slice(0, at), newTag: image.slice(at + 1) }];
    mkdirSync(join(work, 'my-overlay'), { recursive: true });
    writeFileSync(join(work, 'my-overlay', 'kustomization.yaml'), k8s.dumpYaml(overlay));
  }

  /** Every checkpoint written by a manager `who` accepts since `since` (ms), then a loop more. */
  const checkpointsSince = (name: string, since: number, who: (manager: string) => boolean, logs: () => string) =>
    checkpointsWrittenBy(custom, namespace, ALL.length, { name, since, who, timeoutMs: 5 * MINUTES }, logs);

  /** The tail of the logs of a namespace's Deployments, for messages. */
  function logsOf(ns: string, deployments: readonly string[]): () => string {
    return () =>
      deployments
        .map((d) => {
          const out = spawnSync('kubectl', ['--kubeconfig', laneKubeconfigPath(), '-n', ns, 'logs', `deployment/${d}`, '--tail=15'], { encoding: 'utf8' });
          return `--- ${d}\n${out.stdout}${out.stderr}`;
        })
        .join('\n');
  }
  const upstreamLogs = logsOf('kube-system', ['vpa-recommender', 'vpa-updater', 'vpa-admission-controller']);
  const tailorLogs = logsOf('tailor-system', ['tailor-recommender', 'tailor-updater', 'tailor-admission']);

  async function deploymentsReady(ns: string, names: readonly string[]): Promise<void> {
    let last = '';
    await waitFor(
      `${names.join(', ')} Ready`,
      5 * MINUTES,
      async () => {
        const all = await Promise.all(names.map((name) => apps.readNamespacedDeployment({ namespace: ns, name })));
        last = all.map((d) => `${d.metadata?.name} ${d.status?.readyReplicas ?? 0}/${d.spec?.replicas}`).join(', ');
        return all.every((d) => (d.status?.readyReplicas ?? 0) === d.spec?.replicas && (d.status?.updatedReplicas ?? 0) === d.spec?.replicas)
          ? true
          : undefined;
      },
      () => last,
    );
  }

  before(async () => {
    const imported = JSON.parse(
      execFileSync('bash', ['test/real-cluster/upstream-in-cluster.sh', '--import'], { encoding: 'utf8' }).trim().split('\n').at(-1)!,
    ) as { deploy: string; images: string[]; metricsServer: string };
    upstream = upstreamAutoscaler(kc, { deployDir: imported.deploy, images: imported.images, metricsServer: imported.metricsServer, state: STATE });
    // Earlier lane tests leave Tailor's CRDs for the next; upstream installs its own, as on a fresh cluster.
    await removeLeftoverVpaCrds(kc);
    await upstream.start();
    await upstream.install('migration', ['recommender', 'updater', 'admission']);
    namespace = await freshNamespace(core, 'lane-migration-in-cluster');
    for (const w of ALL) await apps.createNamespacedDeployment({ namespace, body: deployment(w, SPIKE_SECONDS) });
    for (const w of ALL) await custom.createNamespacedCustomObject({ ...VPA, namespace, body: vpaObject(w) });
  });

  after(async () => {
    if (tailorApplied)
      spawnSync('bash', ['-c', 'kubectl delete -k my-overlay --ignore-not-found --wait=false'], {
        cwd: work,
        env: { ...process.env, KUBECONFIG: laneKubeconfigPath() },
      });
    await waitFor('namespace tailor-system deleted', 3 * MINUTES, () =>
      core.readNamespace({ name: 'tailor-system' }).then(
        () => undefined,
        () => true,
      ),
    );
    await upstream?.uninstall();
    await upstream?.stop();
    await prometheus?.stop();
    forwarder?.close();
    if (namespace) await dropNamespace(core, namespace);
    rmSync(work, { recursive: true, force: true });
    console.log(`migration in the cluster, figures: ${JSON.stringify(figures)}`);
  });

  test(
    "upstream → Tailor → upstream by the page's commands: targets within x1.1025, checkpoints continued, no pod replaced, restarted or resized",
    { timeout: 35 * MINUTES },
    async () => {
      const t0 = Date.now();
      const running = await waitFor('every workload pod Running', 3 * MINUTES, async () => {
        const pods = await core.listNamespacedPod({ namespace });
        return pods.items.length === PODS && pods.items.every((p) => p.status?.phase === 'Running') ? pods : undefined;
      });
      const spikeEnds = Math.max(...running.items.map((p) => Date.parse(String(p.status!.startTime)))) + SPIKE_SECONDS * 1000;

      // 1. Upstream alone, until the spike is over and every container has a target and a checkpoint.
      await waitFor(
        "upstream's recommendations and checkpoints, the spike over",
        SPIKE_SECONDS * 1000 + 6 * MINUTES,
        async () => {
          if (Date.now() < spikeEnds + 45_000) return undefined;
          const [targets, cps] = [await readTargets(custom, namespace), await readCheckpoints(custom, namespace)];
          return Object.keys(targets).length === ALL.length && cps.length === ALL.length && cps.every((c) => c.samples > 0) ? true : undefined;
        },
        upstreamLogs,
      );
      const podsBefore = await podSnapshot(core, namespace);

      // 2. The switch to Tailor: the page's commands, the updater's two minutes after the apply.
      const nodeIp = (await core.listNode()).items[0]!.status!.addresses!.find((a) => a.type === 'InternalIP')!.address;
      prometheus = await startLanePrometheus(kc, 5);
      const forwarded = await forward(nodeIp, Number(new URL(prometheus.url).port));
      forwarder = forwarded.server;
      const image = execFileSync('bash', ['test/real-cluster/image.sh', '--import'], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
      writeOverlay(image, `http://${nodeIp}:${forwarded.port}`);
      const updaterStart = doc.switchToTailor.find((c) => UPDATER_START.test(c))!;
      let upstreamLast = await readTargets(custom, namespace);
      let upstreamCheckpoints = await readCheckpoints(custom, namespace);
      let appliedAt = 0;
      for (const command of doc.switchToTailor) {
        if (command === updaterStart) continue;
        if (command.includes('apply -k')) {
          // What upstream wrote last, read once its recommender has stopped (scaled to 0 above).
          await waitFor("upstream's recommender gone", 2 * MINUTES, async () =>
            (await core.listNamespacedPod({ namespace: 'kube-system', labelSelector: 'app=vpa-recommender' })).items.length === 0 ? true : undefined,
          );
          upstreamLast = await readTargets(custom, namespace);
          upstreamCheckpoints = await readCheckpoints(custom, namespace);
          appliedAt = Date.now();
          tailorApplied = true;
        }
        run(command);
      }
      figures.upstreamPhaseS = Math.round((appliedAt - t0) / 1000);
      figures.upstreamLast = showTargets(upstreamLast);
      figures.upstreamSamples = Object.fromEntries(upstreamCheckpoints.map((c) => [c.name, c.samples]));
      assert.ok(
        upstreamLast['spiky/app']!.cpu >= 0.15,
        `upstream saw the spike (spiky cpu ${upstreamLast['spiky/app']!.cpu}); the test proves nothing otherwise`,
      );
      await deploymentsReady('tailor-system', ['tailor-recommender', 'tailor-admission']);
      const tailorFirst = await checkpointsSince("Tailor's checkpoints", appliedAt, (m) => m === 'tailor-recommender', tailorLogs);
      figures.tailorFirst = showTargets(await readTargets(custom, namespace));
      figures.tailorFirstSamples = Object.fromEntries(tailorFirst.map((c) => [c.name, c.samples]));
      await sleep(Math.max(0, appliedAt + UPDATER_AFTER_MS - Date.now()));
      run(updaterStart);
      await deploymentsReady('tailor-system', ['tailor-updater']);
      await sleep(3 * LOOP_MS);
      const check = doc.check.map(run);
      const tailorTargets = await readTargets(custom, namespace);
      const tailorCheckpoints = await readCheckpoints(custom, namespace);
      figures.switchToTailorS = Math.round((Date.now() - appliedAt) / 1000);
      figures.tailor = showTargets(tailorTargets);
      figures.tailorSamples = Object.fromEntries(tailorCheckpoints.map((c) => [c.name, c.samples]));
      for (const w of ALL) assert.match(check[0]!, new RegExp(`^${namespace}\\s+${w.name}\\s`, 'm'), `kubectl get vpa -A lists ${w.name}`);
      assert.equal(check[1]!.split('\n').filter((l) => l.startsWith(`${namespace} `)).length, ALL.length, 'kubectl get verticalpodautoscalercheckpoints -A');
      assert.equal(check[2]!.trim(), 'vpa.k8s.io tailor-system/tailor-webhook', "Tailor's webhook under upstream's name");
      assert.deepEqual(
        switchLosses({ targets: upstreamLast, checkpoints: upstreamCheckpoints }, { targets: tailorTargets, checkpoints: tailorCheckpoints }, 'Tailor'),
        [],
        "Tailor's targets and checkpoints against upstream's last",
      );
      assert.deepEqual(await podSnapshot(core, namespace), podsBefore, 'the same pods, none restarted or resized, after the switch to Tailor');

      // 3. The switch back: the page's commands, Tailor's last read once its recommender has stopped.
      const backAt = Date.now();
      for (const command of doc.switchBack) {
        if (command.startsWith('kubectl -n kube-system scale')) {
          await waitFor("Tailor's recommender gone (its graceful stop writes the checkpoints)", 2 * MINUTES, async () =>
            (await core.listNamespacedPod({ namespace: 'tailor-system', labelSelector: 'app.kubernetes.io/component=recommender' })).items.length === 0
              ? true
              : undefined,
          );
        }
        run(command);
      }
      const tailorLast = await readTargets(custom, namespace);
      const tailorFlushed = await readCheckpoints(custom, namespace);
      await deploymentsReady('kube-system', ['vpa-recommender', 'vpa-updater', 'vpa-admission-controller']);
      const backCheckpoints = await checkpointsSince("upstream's checkpoints again", backAt, (m) => m !== 'tailor-recommender', upstreamLogs);
      await sleep(MINUTES); // a loop of upstream's updater (--updater-interval 1m)
      const backTargets = await readTargets(custom, namespace);
      figures.switchBackS = Math.round((Date.now() - backAt) / 1000);
      figures.tailorLast = showTargets(tailorLast);
      figures.tailorFlushedSamples = Object.fromEntries(tailorFlushed.map((c) => [c.name, c.samples]));
      figures.upstreamAgain = showTargets(backTargets);
      figures.upstreamAgainSamples = Object.fromEntries(backCheckpoints.map((c) => [c.name, c.samples]));
      assert.deepEqual(
        switchLosses({ targets: tailorLast, checkpoints: tailorFlushed }, { targets: backTargets, checkpoints: backCheckpoints }, 'upstream'),
        [],
        "upstream's targets and checkpoints against Tailor's last",
      );
      assert.deepEqual(await podSnapshot(core, namespace), podsBefore, 'the same pods, none restarted or resized, after the switch back');
      figures.totalS = Math.round((Date.now() - t0) / 1000);
    },
  );
});
