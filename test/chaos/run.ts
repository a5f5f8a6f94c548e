/**
 * The chaos lane (issue 31): `npm run test:chaos -- --seed N --minutes M [--variant NAME]` (as
 * root). Brings the lane's cluster up with the audit log if none is up, installs Tailor from its
 * manifests (two updaters, two recommenders) reading a Prometheus on this machine, applies the 32
 * workloads with their VPAs, drives their usage and the faults on the seed's schedules, records the
 * pods and VPAs, measures the recovery after the last fault (every VPA's checkpoint written again
 * within 2 minutes: recovery.ts), then judges what the API server recorded (check.ts) and ends
 * with one line: `chaos: seed N, M min: R resizes, E evictions, F faults, V violations` (V counts
 * the checker's violations, Tailor pods in a crash loop and VPAs late to recover; exit 1 when
 * V > 0, 2 when the run could not be made). `--variant` runs a deliberately broken Tailor
 * (variants.ts) and says whether its rule was caught. Tears down what it made. The run's record
 * (events, faults, the watch, the audit slice) stays in --out (default
 * /var/tmp/tailor-chaos/seed-N-<time>).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, closeSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import type { LocalPrometheus } from '../../src/local-prometheus/prometheus-process.ts';
import { laneKubeconfigPath } from '../real-cluster/lane-cluster.ts';
import { forward, lanePkiDir, startLanePrometheus } from '../real-cluster/lane-prometheus.ts';
import { startApiFaultProxy } from './api-fault-proxy.ts';
import type { VerticalPodAutoscalerCheckpoint } from '../../src/api/vpa-checkpoint.ts';
import { checkRun } from './check.ts';
import { applyHostile, listVpas } from './hostile-apply.ts';
import { hostileSummary, judgeHostile, type CreateResult } from './hostile-outcome.ts';
import { hostileCases } from './hostile-vpas.ts';
import { faultSchedule, type Fault } from './fault-schedule.ts';
import { injectFault, type FaultTargets } from './inject-fault.ts';
import { proxyCertificate } from './proxy-cert.ts';
import { noteUpdates, recovery, RECOVERY_MS } from './recovery.ts';
import { installTailor, uninstallTailor } from './tailor-install.ts';
import { TAILOR_NAMESPACE } from './tailor-faults.ts';
import { levelLine } from './usage-driver.ts';
import { usageSchedule } from './usage-schedule.ts';
import { applyVariant, VARIANTS, type Variant } from './variants.ts';
import { parseChaosArgs, verdictLine, type ChaosArgs } from './verdict.ts';
import { recordWatches } from './watch-recorder.ts';
import { BYSTANDER, CHAOS_WORKLOADS, LEVELS_CONFIGMAP, controller, extras, vpaFor } from './workloads.ts';

const STATE = process.env.TAILOR_CLUSTER_STATE ?? '/var/lib/tailor-real-cluster';
const NAMESPACE = 'chaos';
const UPDATER_USER = `system:serviceaccount:${TAILOR_NAMESPACE}:tailor-updater`;
const LEASE_MS = 15_000;
const LOOP_SECONDS = 20;
/** When the hostile VPAs are sent: after Tailor's first loops, before the first fault (fault-schedule.ts: 2 minutes). */
const HOSTILE_AT_MS = 90_000;
/** Aborted by Ctrl-C or SIGTERM: the waits end, lasting faults end at once, the teardown runs. */
const stopping = new AbortController();

/** One line of the run's event log, on stdout and in events.log. */
function say(out: string, line: string): void {
  const stamped = `[chaos ${new Date().toISOString().slice(11, 19)}] ${line}`;
  console.log(stamped);
  appendFileSync(join(out, 'events.log'), `${stamped}\n`);
}

function bash(script: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  const run = spawnSync('bash', [script, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  if (run.status !== 0)
    throw new Error(`${script} ${args.join(' ')} failed (${run.status}): ${(run.stdout + run.stderr).trim().split('\n').slice(-5).join('\n')}`);
  return run.stdout.trim();
}

/** Calls `act` until it succeeds, every 2 s for `timeoutMs`; the last error then, with its cause. */
async function retry(what: string, timeoutMs: number, act: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await act();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what}: still failing after ${timeoutMs / 1000} s: ${(error as Error).message}`, { cause: error });
      await sleep(2_000);
    }
  }
}

/** The audit log written since `offset` (bytes). */
function auditSince(path: string, offset: number): string {
  const size = statSync(path).size;
  const buffer = Buffer.alloc(Math.max(0, size - offset));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/** The image of HEAD with `variant`'s edits, built (image.sh) in a worktree of its own and imported into the nodes. */
function variantImage(variant: Variant, out: string): string {
  const tree = mkdtempSync(join(tmpdir(), 'tailor-chaos-variant-'));
  const git = (...a: string[]) => {
    const run = spawnSync('git', a, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`git ${a.join(' ')} failed: ${run.stderr}`);
  };
  git('worktree', 'add', '--detach', '--force', tree, 'HEAD');
  try {
    applyVariant(tree, variant);
    say(out, `building the ${variant.rule} variant's image (${variant.broken})`);
    bash(join(tree, 'test/real-cluster/image.sh'), []);
    return bash(join(tree, 'test/real-cluster/image.sh'), ['--import']).split('\n').at(-1)!;
  } finally {
    git('worktree', 'remove', '--force', tree);
  }
}

/** Every workload's objects, created in the namespace with the level ConfigMap first. */
async function applyWorkloads(kc: k8s.KubeConfig, levels: Record<string, string>): Promise<void> {
  const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
  await kc.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name: NAMESPACE } } });
  await kc.makeApiClient(k8s.CoreV1Api).createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name: LEVELS_CONFIGMAP }, data: levels } });
  for (const w of CHAOS_WORKLOADS) {
    for (const body of [controller(w, NAMESPACE), vpaFor(w, NAMESPACE), ...extras(w, NAMESPACE)]) await objects.create(body as k8s.KubernetesObject);
  }
  await objects.create(controller(BYSTANDER, NAMESPACE) as k8s.KubernetesObject);
}

async function runChaos(args: ChaosArgs, out: string): Promise<number> {
  const cleanups: Array<[string, () => Promise<unknown> | unknown]> = [];
  try {
    // 1. The cluster, with the audit log the checker reads.
    if (!existsSync(join(STATE, 'admin.kubeconfig'))) {
      say(out, 'no lane cluster up: bringing one up with the audit log');
      bash('test/real-cluster/up.sh', [], { TAILOR_CLUSTER_AUDIT: '1', TAILOR_CLUSTER_NO_BUILD: '1' });
      cleanups.push(['the lane cluster', () => bash('test/real-cluster/down.sh', [])]);
    }
    const auditLog = join(STATE, 'audit.log');
    if (!existsSync(auditLog)) throw new Error(`the lane cluster that is up has no audit log (${auditLog}): run 'npm run cluster:down', then this again`);
    const kubeconfig = laneKubeconfigPath();
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfig);
    const nodes = (await kc.makeApiClient(k8s.CoreV1Api).listNode()).items.sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
    const nodeIp = nodes[0]!.status!.addresses!.find((a) => a.type === 'InternalIP')!.address;

    // 2. Prometheus on this machine, reached by the pods through node 1's address; Tailor from its manifests.
    const prometheus: LocalPrometheus = await startLanePrometheus(kc, 5);
    cleanups.push(['Prometheus', () => prometheus.stop()]);
    const forwarded: { server: Server; port: number } = await forward(nodeIp, Number(new URL(prometheus.url).port));
    cleanups.push(['the Prometheus forwarder', () => forwarded.server.close()]);
    const variant = args.variant ? VARIANTS[args.variant]! : undefined;
    const image = variant && variant.edits.length > 0 ? variantImage(variant, out) : bash('test/real-cluster/image.sh', ['--import']).split('\n').at(-1)!;
    const work = mkdtempSync(join(tmpdir(), 'tailor-chaos-'));
    cleanups.push(['the work directory', () => rmSync(work, { recursive: true, force: true })]);
    // Tailor talks to the API server through the chaos proxy (the api-errors fault), on node 1's address.
    const pki = lanePkiDir();
    const apiProxy = await startApiFaultProxy({
      upstream: kc.getCurrentCluster()!.server,
      upstreamCa: readFileSync(join(pki, 'ca.crt'), 'utf8'),
      ...proxyCertificate(pki, work, [nodeIp]),
      host: nodeIp,
    });
    cleanups.push(['the API proxy', () => apiProxy.close()]);
    say(out, `installing Tailor (${image}) reading ${prometheus.url} as http://${nodeIp}:${forwarded.port}, its API server through ${apiProxy.url}`);
    const overlay = await installTailor(kc, kubeconfig, work, {
      image,
      prometheusUrl: `http://${nodeIp}:${forwarded.port}`,
      loopSeconds: LOOP_SECONDS,
      settings: variant?.settings ?? [],
      updaterRules: variant?.updaterRules ?? [],
      apiServer: { host: nodeIp, port: Number(new URL(apiProxy.url).port) },
    });
    cleanups.push(["Tailor's install", () => uninstallTailor(kubeconfig, overlay)]);

    // 3. The workloads at their first levels, recorded from now on.
    const auditOffset = statSync(auditLog).size;
    const watchFile = join(out, 'watch.jsonl');
    const recorder = recordWatches(kc, watchFile);
    cleanups.push(['the watch recorder', () => recorder.stop()]);
    const levels = usageSchedule(args.seed, args.minutes, [...CHAOS_WORKLOADS, BYSTANDER]);
    const first = Object.fromEntries(levels.filter((l) => l.at === 0).map((l) => [l.workload, levelLine(l.cpu, l.memory)]));
    await applyWorkloads(kc, first);
    cleanups.push([`namespace ${NAMESPACE}`, () => kc.makeApiClient(k8s.CoreV1Api).deleteNamespace({ name: NAMESPACE })]);
    say(out, `${CHAOS_WORKLOADS.length} workloads with a VPA and one without (${BYSTANDER.name}) applied in namespace ${NAMESPACE}`);

    // 4. The schedules: level changes and faults (and their ends), in time order.
    const faults = faultSchedule(args.seed, args.minutes, nodes.length);
    writeFileSync(join(out, 'faults.json'), JSON.stringify(faults, null, 1));
    const targets: FaultTargets = {
      kc,
      kubeconfig,
      dirs: { pids: join(STATE, 'pids'), logs: join(STATE, 'logs') },
      nodes: nodes.map((n) => n.metadata!.name!),
      prometheusPid: prometheus.pid!,
      webhookConfiguration: 'tailor',
      apiProxy,
    };
    type Step = { at: number; act: () => Promise<void> };
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const steps: Step[] = [];
    for (const at of [...new Set(levels.filter((l) => l.at > 0).map((l) => l.at))]) {
      const data = Object.fromEntries(levels.filter((l) => l.at === at).map((l) => [l.workload, levelLine(l.cpu, l.memory)]));
      steps.push({
        at,
        // Retried through an API server restart: a level lost would leave the usage where it was.
        act: () =>
          retry(`the levels at ${Math.round(at / 1000)} s`, 90_000, () =>
            core.patchNamespacedConfigMap(
              { namespace: NAMESPACE, name: LEVELS_CONFIGMAP, body: { data } },
              k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
            ),
          ),
      });
    }
    const made: Fault[] = [];
    const undos: Array<Promise<void>> = [];
    let lastFaultEnd = 0;
    const t0 = Date.now();
    // The checkpoints polled all through the run, every update time kept (recovery.ts).
    const updates = new Map<string, Set<number>>();
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    let polling = true;
    const poller = (async () => {
      while (polling && !stopping.signal.aborted) {
        await custom
          .listNamespacedCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', namespace: NAMESPACE, plural: 'verticalpodautoscalercheckpoints' })
          .then((list) => noteUpdates(updates, (list as { items: VerticalPodAutoscalerCheckpoint[] }).items))
          .catch(() => undefined); // an API server restart: the next poll
        await sleep(5_000, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    })();
    for (const fault of faults) {
      steps.push({
        at: fault.at,
        act: async () => {
          const outcome = await injectFault(targets, fault).catch((error: unknown) => ({
            injected: false,
            detail: `failed: ${(error as Error).message}`,
            undo: undefined,
          }));
          if (outcome.injected) made.push(fault);
          lastFaultEnd = Math.max(lastFaultEnd, Date.now());
          say(out, `fault ${fault.kind}${fault.lasts ? ` for ${Math.round(fault.lasts / 1000)} s` : ''}: ${outcome.detail}`);
          appendFileSync(
            join(out, 'faults.log'),
            `${JSON.stringify({ ...fault, ...outcome, undo: undefined, time: new Date().toISOString(), offset: Date.now() - t0 })}\n`,
          );
          if (outcome.undo) {
            const undo = outcome.undo;
            undos.push(
              sleep(Math.max(0, t0 + fault.at + fault.lasts - Date.now()), undefined, { signal: stopping.signal })
                .catch(() => undefined)
                .then(async () => {
                  // Retried: an end that meets an API server or etcd restart (the first 45-minute run left a node cordoned).
                  let detail = '';
                  await retry(`the end of ${fault.kind}`, 90_000, async () => (detail = await undo()));
                  return detail;
                })
                .then(
                  (detail) => {
                    lastFaultEnd = Math.max(lastFaultEnd, Date.now());
                    say(out, `fault ${fault.kind} over: ${detail}`);
                  },
                  (error: unknown) => say(out, `fault ${fault.kind}: its end failed: ${(error as Error).message}`),
                ),
            );
          }
        },
      });
    }
    // Bad input at volume (hostile-vpas.ts), sent beside the schedules once Tailor has had its first loops.
    const hostile = hostileCases(NAMESPACE);
    const hostileSent: Promise<Map<string, CreateResult>> = sleep(HOSTILE_AT_MS, undefined, { signal: stopping.signal })
      .then(async () => {
        const started = Date.now();
        const answers = await applyHostile(kc, hostile);
        const refused = [...answers.values()].filter((a) => a.status >= 300).length;
        say(
          out,
          `${hostile.length} hostile VPAs sent in ${Math.round((Date.now() - started) / 1000)} s: ${answers.size - refused} accepted, ${refused} refused`,
        );
        return answers;
      })
      .catch((error: unknown) => {
        say(out, `sending the hostile VPAs failed: ${(error as Error).message}`);
        return new Map<string, CreateResult>();
      });
    steps.sort((a, b) => a.at - b.at);
    say(out, `seed ${args.seed}: ${faults.length} faults and ${steps.length - faults.length} level changes over ${args.minutes} min`);
    for (const step of steps) {
      await sleep(Math.max(0, t0 + step.at - Date.now()), undefined, { signal: stopping.signal });
      await step.act().catch((error: unknown) => say(out, `step at ${Math.round(step.at / 1000)} s failed: ${(error as Error).message}`));
    }
    await Promise.all(undos);
    await sleep(Math.max(0, t0 + args.minutes * 60_000 - Date.now()), undefined, { signal: stopping.signal });
    polling = false;
    await poller;
    // Recovery: each VPA's first checkpoint written after the last fault ended (its act, or its end for a lasting one).
    const recovered = recovery(
      updates,
      CHAOS_WORKLOADS.map((w) => w.name),
      lastFaultEnd || t0,
    );
    say(
      out,
      `recovery after the last fault (${new Date(lastFaultEnd).toISOString()}): ` +
        (recovered.slowestMs === undefined ? 'not every VPA fresh by the end' : `every VPA fresh within ${Math.round(recovered.slowestMs / 1000)} s`) +
        (recovered.late.length > 0 ? `; late (over ${RECOVERY_MS / 1000} s): ${recovered.late.join(', ')}` : ''),
    );
    if (recovered.unserved.length > 0) {
      const served = (u: { vpa: string; firstAfterMs: number | undefined }) =>
        u.firstAfterMs === undefined ? `${u.vpa} never` : `${u.vpa} ${Math.round(u.firstAfterMs / 1000)} s after it`;
      say(out, `not served before the last fault (nothing to recover; first served): ${recovered.unserved.map(served).join(', ')}`);
    }

    // The hostile VPAs: each refused, or reported on its object (hostile-outcome.ts).
    const judged = judgeHostile(hostile, await hostileSent, await listVpas(kc, NAMESPACE).catch(() => new Map()));
    writeFileSync(join(out, 'hostile.json'), JSON.stringify(judged, null, 1));
    for (const line of hostileSummary(judged)) say(out, `hostile ${line}`);
    const silent = judged.filter((j) => !j.ok);
    for (const j of silent) say(out, `hostile ${j.name.slice(0, 60)} (${j.kind}: ${j.what}): ${j.outcome}: ${j.detail}`);

    // 5. The verdict from what the API server recorded.
    recorder.stop();
    const tailorPods = (await core.listNamespacedPod({ namespace: TAILOR_NAMESPACE })).items;
    const crashLooping = tailorPods.filter((p) => p.status?.containerStatuses?.some((c) => c.state?.waiting?.reason === 'CrashLoopBackOff'));
    const audit = auditSince(auditLog, auditOffset);
    writeFileSync(join(out, 'audit.log'), audit);
    const check = checkRun(audit, readFileSync(watchFile, 'utf8'), UPDATER_USER, LEASE_MS);
    for (const line of check.lines) say(out, line);
    const byKind = [...new Set(made.map((f) => f.kind))].map((k) => `${k} ${made.filter((f) => f.kind === k).length}`);
    say(out, `the API proxy: ${apiProxy.counts.passed} requests passed, ${apiProxy.counts.failed} answered with an error, ${apiProxy.counts.cut} watches cut`);
    say(out, `faults made: ${byKind.join(', ') || 'none'}; not made: ${faults.length - made.length}`);
    say(
      out,
      `Tailor's pods at the end: ${tailorPods.map((p) => `${p.metadata!.name} restarts ${p.status?.containerStatuses?.[0]?.restartCount ?? 0}`).join(', ')}`,
    );
    const violations = check.counts.violations + crashLooping.length + recovered.late.length + silent.length;
    if (crashLooping.length > 0) say(out, `crash loop: ${crashLooping.map((p) => p.metadata!.name).join(', ')}`);
    if (variant) {
      const caught = check.counts.byRule[variant.rule] ?? 0;
      say(
        out,
        `variant ${args.variant} (${variant.broken}): ${caught > 0 ? `caught, ${caught} ${variant.rule} violations` : `NOT caught: no ${variant.rule} violation`}`,
      );
    }
    console.log(verdictLine(args, { resizes: check.counts.resizes, evictions: check.counts.evictions, faults: made.length, violations }));
    return violations > 0 ? 1 : 0;
  } finally {
    for (const [what, cleanup] of cleanups.reverse()) {
      await Promise.resolve()
        .then(cleanup)
        .catch((error: unknown) => say(out, `tearing down ${what} failed: ${(error as Error).message}`));
    }
  }
}

async function main(): Promise<number> {
  let args: ChaosArgs;
  try {
    args = parseChaosArgs(process.argv.slice(2), Object.keys(VARIANTS));
  } catch (error) {
    console.error(`test:chaos: ${(error as Error).message}`);
    return 2;
  }
  if (process.getuid?.() !== 0) {
    console.error('test:chaos: run it as root (the lane runs containerd and kubelets, and kills processes on this machine)');
    return 2;
  }
  const cached = spawnSync('bash', ['test/real-cluster/build.sh', '--check'], { encoding: 'utf8' });
  if (cached.status !== 0) {
    console.error(`test:chaos: ${cached.stdout.trim()}: run test/real-cluster/build.sh once on this machine`);
    return 2;
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stopping.abort(new Error(`stopped by ${signal}`)));
  const out = args.out ?? join('/var/tmp/tailor-chaos', `seed-${args.seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(out, { recursive: true });
  try {
    return await runChaos(args, out);
  } catch (error) {
    console.error(`test:chaos: the run could not be made: ${(error as Error).message}`);
    if ((error as Error).cause) console.error(`  cause: ${String((error as Error).cause)}`);
    return 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main();
}
