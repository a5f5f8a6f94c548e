/**
 * Fairwinds Goldilocks as a consumer of Tailor's recommendations on the real cluster. Goldilocks is
 * built from its own source ($TAILOR_GOLDILOCKS_SRC, build-goldilocks.sh) and runs on the host:
 * `goldilocks controller` creates a VPA (updateMode Off) for the Deployment of a namespace labelled
 * `goldilocks.fairwinds.com/enabled=true`; Tailor's recommender (`tailor run --components
 * recommender`, its default strategy, Debian's Prometheus scraping the kubelets) fills that VPA's
 * status; `goldilocks summary -n <ns>` then shows, for both containers, the lower bound, target,
 * upper bound and uncapped target Tailor wrote (memory rounded up to a MiB for display, as
 * Goldilocks rounds it: goldilocks-summary.ts). Prints the times it took.
 *
 * Without TAILOR_GOLDILOCKS_SRC (or with a path that is not Goldilocks' source) the binary cannot be
 * built: the file says "SKIPPED: …" and its test is skipped. Set but not built: it fails (lane.sh
 * builds it before the cluster comes up). Runs with `npm run test:real-cluster goldilocks` (as root).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import type { LocalPrometheus } from '../../src/local-prometheus/prometheus-process.ts';
import { BUSYBOX_IMAGE, containerId, dropNamespace, installCrd, laneKubeConfig, laneKubeconfigPath, waitFor } from './lane-cluster.ts';
import { startLanePrometheus } from './lane-prometheus.ts';
import { BOUNDS, summaryContainers, summaryMismatches, type StatusRecommendation } from './goldilocks-summary.ts';

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const ENABLED_LABEL = 'goldilocks.fairwinds.com/enabled';
const MINUTES = 60_000;
const WORKLOAD = 'web';
const CONTAINERS = ['busy', 'idle'] as const;
/** Both processes' whole logs, kept after the run for a look (failures quote only their ends). */
const LOGS = { goldilocks: join(tmpdir(), 'tailor-lane-goldilocks.log'), tailor: join(tmpdir(), 'tailor-lane-goldilocks-tailor.log') };

interface VpaObject {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { targetRef?: { apiVersion?: string; kind?: string; name?: string }; updatePolicy?: { updateMode?: string } };
  status?: { recommendation?: { containerRecommendations?: StatusRecommendation[] } };
}

/** The cached Goldilocks binary (build-goldilocks.sh --check), or why the test cannot run. */
function goldilocksBinary(): { bin: string } | { skip: string } {
  const check = spawnSync('bash', ['test/real-cluster/build-goldilocks.sh', '--check'], { encoding: 'utf8' });
  const said = check.stdout.trim().split('\n').at(-1) ?? '';
  if (check.status === 0) return { bin: said };
  if (check.status === 2) return { skip: said.replace(/^SKIPPED: /, '') };
  throw new Error(
    `Goldilocks is not built: ${said || check.stderr} (lane.sh builds it when TAILOR_GOLDILOCKS_SRC is set; TAILOR_CLUSTER_NO_BUILD=1 needs it cached)`,
  );
}

/** A Deployment of two busybox containers: `busy` a CPU loop held at its 200m limit, `idle` asleep. */
function deployment(): k8s.V1Deployment {
  const labels = { app: WORKLOAD };
  const container = (name: string, command: string[], resources: k8s.V1ResourceRequirements): k8s.V1Container => ({
    name,
    image: BUSYBOX_IMAGE,
    imagePullPolicy: 'Never',
    command,
    resources,
  });
  return {
    metadata: { name: WORKLOAD, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [
            container('busy', ['sh', '-c', 'while :; do :; done'], { requests: { cpu: '50m', memory: '32Mi' }, limits: { cpu: '200m', memory: '32Mi' } }),
            container('idle', ['sleep', '3600'], { requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '100m', memory: '16Mi' } }),
          ],
        },
      },
    },
  };
}

/** Runs a child, its stdout and stderr into `log` and the last 20,000 characters kept for messages. */
function start(
  command: string,
  args: string[],
  log: string,
  env: NodeJS.ProcessEnv = process.env,
): { child: ChildProcess; tail: () => string; file: WriteStream } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const file = createWriteStream(log);
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-20_000);
      file.write(d);
    });
  }
  return { child, tail: () => output.slice(-2_000), file };
}

/** SIGTERM, then SIGKILL after 10 s. */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killed = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
  if (killed) {
    child.kill('SIGKILL');
    await exited;
  }
}

const found = goldilocksBinary();
if ('skip' in found) {
  console.log(`SKIPPED: goldilocks.lane.ts: ${found.skip}`);
  test("Goldilocks reads Tailor's recommendations on the real cluster", { skip: found.skip }, () => {});
} else {
  describe("Goldilocks reads Tailor's recommendations on the real cluster", () => {
    const kc = laneKubeConfig();
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const kubeconfig = laneKubeconfigPath();
    let namespace = '';
    let prometheus: LocalPrometheus | undefined;
    let goldilocks: ReturnType<typeof start> | undefined;
    let tailor: ReturnType<typeof start> | undefined;
    const times: Record<string, number> = {};
    const vpaName = `goldilocks-${WORKLOAD}`;
    const readVpa = async () => (await custom.getNamespacedCustomObject({ ...VPA, namespace, name: vpaName })) as VpaObject;
    const alive = () => {
      for (const [name, p] of Object.entries({ goldilocks, tailor })) {
        if (p && p.child.exitCode !== null) throw new Error(`${name} exited with ${p.child.exitCode}:\n${p.tail()}`);
      }
    };

    before(async () => {
      for (const file of ['verticalpodautoscalers.yaml', 'verticalpodautoscalercheckpoints.yaml']) await installCrd(kc, file);
      const ns = await core.createNamespace({ body: { metadata: { generateName: 'lane-goldilocks-', labels: { [ENABLED_LABEL]: 'true' } } } });
      namespace = ns.metadata!.name!;
      await waitFor(`service account default in ${namespace}`, MINUTES, async () =>
        core.readNamespacedServiceAccount({ namespace, name: 'default' }).then(
          () => true,
          () => undefined,
        ),
      );
      await apps.createNamespacedDeployment({ namespace, body: deployment() });
      prometheus = await startLanePrometheus(kc, 5);

      // Goldilocks' `--kubeconfig` flag is parsed but never read: its clients come from
      // controller-runtime's config.GetConfig(), whose own --kubeconfig flag lives on Go's flag set,
      // which Goldilocks does not parse. So the lane's kubeconfig goes in $KUBECONFIG, which it reads.
      // --on-by-default=false (its default): only the labelled namespace gets VPAs.
      goldilocks = start(found.bin, ['controller', '--on-by-default=false', '--kubeconfig', kubeconfig, '-v', '2'], LOGS.goldilocks, {
        ...process.env,
        KUBECONFIG: kubeconfig,
      });
      times['goldilocks started'] = Date.now();
      // The recommender alone, at its default strategy (tailor-low-churn), with a short loop and
      // history so that minutes of samples are enough; leader election off (one process).
      tailor = start(
        process.execPath,
        [
          'bin/tailor.mjs',
          'run',
          '--components',
          'recommender',
          '--kubeconfig',
          kubeconfig,
          '--namespace',
          namespace,
          '--no-leader-elect',
          '--prometheus-url',
          prometheus.url,
          '--interval',
          '10s',
          '--history',
          '10m',
          '--history-step',
          '10s',
          '--checkpoint-interval',
          '10s',
          '--metrics-address',
          '127.0.0.1',
          '--metrics-port',
          '0',
        ],
        LOGS.tailor,
      );
      times['tailor started'] = Date.now();
    });

    after(async () => {
      await stop(goldilocks?.child);
      await stop(tailor?.child);
      goldilocks?.file.end();
      tailor?.file.end();
      await prometheus?.stop();
      if (namespace) await dropNamespace(core, namespace);
      const since = (from: string, to: string) => (times[from] && times[to] ? `${((times[to]! - times[from]!) / 1000).toFixed(1)} s` : '—');
      console.log(
        [
          '',
          'Goldilocks on the real cluster (logs: ' + `${LOGS.goldilocks}, ${LOGS.tailor}):`,
          `  goldilocks started → VPA ${vpaName} created: ${since('goldilocks started', 'vpa created')}`,
          `  tailor started → first recommendation (both containers): ${since('tailor started', 'recommended')}`,
          `  VPA created → first recommendation: ${since('vpa created', 'recommended')}`,
          `  recommendation → goldilocks summary agreed: ${since('recommended', 'summary agreed')}`,
          `  goldilocks summary (one run): ${times['summary ms'] ?? '—'} ms`,
        ].join('\n'),
      );
    });

    test(`goldilocks controller creates VPA ${vpaName} for the Deployment, updateMode Off`, async () => {
      await waitFor('the Deployment pod Running with both containers', 2 * MINUTES, async () => {
        const pods = await core.listNamespacedPod({ namespace, labelSelector: `app=${WORKLOAD}` });
        return pods.items.find((p) => p.status?.phase === 'Running' && CONTAINERS.every((c) => containerId(p, c)));
      });
      const vpa = await waitFor(
        `VPA ${vpaName} made by goldilocks`,
        2 * MINUTES,
        async () => {
          alive();
          return readVpa().catch(() => undefined);
        },
        () => `goldilocks' last output:\n${goldilocks!.tail()}`,
      );
      times['vpa created'] = Date.now();
      assert.deepEqual(vpa.spec?.targetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: WORKLOAD });
      assert.equal(vpa.spec?.updatePolicy?.updateMode, 'Off');
      assert.deepEqual(vpa.metadata?.labels, { creator: 'Fairwinds', source: 'goldilocks' });
    });

    test("Tailor's recommender writes the VPA's recommendation for both containers", async () => {
      const recs = await waitFor(
        `a recommendation for ${CONTAINERS.join(' and ')} in VPA ${vpaName}`,
        5 * MINUTES,
        async () => {
          alive();
          const list = (await readVpa()).status?.recommendation?.containerRecommendations ?? [];
          return CONTAINERS.every((c) => list.some((r) => r.containerName === c && BOUNDS.every((b) => r[b]?.cpu && r[b]?.memory))) ? list : undefined;
        },
        () => `tailor's last output:\n${tailor!.tail()}`,
      );
      times['recommended'] = Date.now();
      console.log(`Tailor's recommendation in ${namespace}/${vpaName}: ${JSON.stringify(recs)}`);
    });

    test('goldilocks summary shows the lower bound, target, upper bound and uncapped target Tailor wrote, per container', async () => {
      // Tailor rewrites the status every 10 s: compare only a summary taken between two equal reads.
      let last = '';
      const agreed = await waitFor(
        'a goldilocks summary equal to the VPA status around it',
        2 * MINUTES,
        async () => {
          alive();
          const before = (await readVpa()).status?.recommendation?.containerRecommendations ?? [];
          const started = Date.now();
          // Asynchronously: a blocked event loop would stop draining the other processes' pipes.
          const run = await promisify(execFile)(found.bin, ['summary', '--namespace', namespace, '--kubeconfig', kubeconfig], {
            encoding: 'utf8',
            env: { ...process.env, KUBECONFIG: kubeconfig },
            timeout: MINUTES,
            maxBuffer: 16 * 2 ** 20,
          }).catch((error: unknown) => {
            throw new Error(`goldilocks summary failed: ${(error as { stderr?: string }).stderr?.slice(-2000) ?? ''}`, { cause: error });
          });
          times['summary ms'] = Date.now() - started;
          const after = (await readVpa()).status?.recommendation?.containerRecommendations ?? [];
          const json = run.stdout.split('\n').find((l) => l.startsWith('{'));
          if (!json) throw new Error(`goldilocks summary printed no JSON: ${run.stdout.slice(-2000)}`);
          last = json;
          if (JSON.stringify(before) !== JSON.stringify(after)) return undefined;
          const shown = summaryContainers(JSON.parse(json), namespace, WORKLOAD);
          return { status: after, shown, mismatches: summaryMismatches(after, shown) };
        },
        () => last,
      );
      times['summary agreed'] = Date.now();
      assert.deepEqual(agreed.mismatches, [], `goldilocks summary: ${last}`);
      assert.deepEqual([...agreed.shown.keys()].sort(), [...CONTAINERS].sort());
      for (const name of CONTAINERS) {
        const shown = agreed.shown.get(name)!;
        console.log(`goldilocks summary, ${name}: ${BOUNDS.map((b) => `${b} ${shown[b]?.cpu} / ${shown[b]?.memory}`).join('; ')}`);
      }
    });
  });
}
