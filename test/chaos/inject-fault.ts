/**
 * The chaos lane's faults carried out (fault-schedule.ts says which and when): each kind's act on
 * the lane's cluster, Tailor in it and the Prometheus on this machine. A lasting fault returns its
 * undo, which the runner calls when the fault's time is up. A kind the lane cannot carry out yet
 * says so in its outcome (`injected: false`), and the runner counts it apart from the faults made.
 */
import { spawnSync } from 'node:child_process';
import * as k8s from '@kubernetes/client-node';
import { NO_FAULTS, type ApiFaultProxy, type ApiFaults } from './api-fault-proxy.ts';
import type { Fault, FaultKind } from './fault-schedule.ts';
import { restartLaneProcess, type LaneProcessDirs } from './lane-process.ts';
import { COMPONENTS, TAILOR_NAMESPACE, crash, replicasOf, rollout, stopGracefully, type Component } from './tailor-faults.ts';

/** What a fault may touch. */
export interface FaultTargets {
  readonly kc: k8s.KubeConfig;
  readonly kubeconfig: string;
  readonly dirs: LaneProcessDirs;
  /** The lane's node names, node 1 first. */
  readonly nodes: readonly string[];
  /** The pid of the Prometheus Tailor reads. */
  readonly prometheusPid: number;
  /** Tailor's MutatingWebhookConfiguration. */
  readonly webhookConfiguration: string;
  /** The proxy between Tailor and the API server, if Tailor talks through one. */
  readonly apiProxy?: ApiFaultProxy;
}

/** The API errors fault: this share of Tailor's requests answered with 500, 429 or 503, the rest delayed. */
export const API_FAULTS: ApiFaults = { errorRate: 0.2, latencyMs: 250 };

/** What became of one fault. */
export interface FaultOutcome {
  readonly injected: boolean;
  /** What was done (or why not). */
  readonly detail: string;
  /** Ends a lasting fault. */
  readonly undo?: () => Promise<string>;
}

const notYet = (why: string): FaultOutcome => ({ injected: false, detail: `not injected: ${why}` });

async function killReplica(t: FaultTargets, component: Component, which: 'leader' | 'standby' | 'any'): Promise<FaultOutcome> {
  const { leader, others } = await replicasOf(t.kc, component);
  const pod = which === 'leader' ? leader : which === 'standby' ? others[0] : (leader ?? others[0]);
  if (!pod) return { injected: false, detail: `no ${which === 'any' ? '' : `${which} `}replica of the ${component} running` };
  const killed = crash(pod, COMPONENTS[component].container);
  return { injected: true, detail: `SIGKILL ${killed.pod} (pid ${killed.pid})` };
}

function run(command: string, args: readonly string[]): string {
  const out = spawnSync(command, args, { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${out.status}): ${out.stderr}${out.stdout}`);
  return out.stdout.trim();
}

/** Removes the webhook's endpoints (the admission Deployment at 0) under `policy`; the undo restores both. */
async function webhookGone(t: FaultTargets, policy: 'Ignore' | 'Fail'): Promise<FaultOutcome> {
  const admission = t.kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  const apps = t.kc.makeApiClient(k8s.AppsV1Api);
  const config = await admission.readMutatingWebhookConfiguration({ name: t.webhookConfiguration });
  const policies = (config.webhooks ?? []).map((w) => w.failurePolicy ?? 'Fail');
  const setPolicies = (values: readonly string[]) =>
    admission.patchMutatingWebhookConfiguration(
      {
        name: t.webhookConfiguration,
        body: (config.webhooks ?? []).map((_, i) => ({ op: 'replace', path: `/webhooks/${i}/failurePolicy`, value: values[i] })),
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
  const name = COMPONENTS.admission.deployment;
  const replicas = (await apps.readNamespacedDeployment({ namespace: TAILOR_NAMESPACE, name })).spec?.replicas ?? 2;
  const scale = (n: number) =>
    apps.patchNamespacedDeploymentScale(
      { namespace: TAILOR_NAMESPACE, name, body: { spec: { replicas: n } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
  await setPolicies(policies.map(() => policy));
  await scale(0);
  return {
    injected: true,
    detail: `${name} scaled 0 (from ${replicas}), failurePolicy ${policy}`,
    undo: async () => {
      await scale(replicas);
      await setPolicies(policies);
      return `${name} scaled ${replicas}, failurePolicy ${policies.join(',')}`;
    },
  };
}

/** Carries out `fault`. */
export async function injectFault(t: FaultTargets, fault: Fault): Promise<FaultOutcome> {
  const node = t.nodes[fault.node - 1] ?? t.nodes[0]!;
  const kinds: Record<FaultKind, () => Promise<FaultOutcome>> = {
    'kill-updater-leader': () => killReplica(t, 'updater', 'leader'),
    'kill-updater-standby': () => killReplica(t, 'updater', 'standby'),
    'kill-recommender': () => killReplica(t, 'recommender', 'any'),
    'kill-admission': () => killReplica(t, 'admission', 'any'),
    'stop-updater-leader': async () => {
      const { leader } = await replicasOf(t.kc, 'updater');
      if (!leader) return { injected: false, detail: 'no updater leader running' };
      await stopGracefully(t.kc, leader);
      return { injected: true, detail: `deleted ${leader.metadata!.name}` };
    },
    'rollout-tailor': async () => {
      await rollout(t.kc);
      return { injected: true, detail: "every Deployment's template restartedAt" };
    },
    'restart-apiserver': async () => {
      const pids = await restartLaneProcess(t.dirs, 'kube-apiserver', { signal: 'SIGTERM' });
      return { injected: true, detail: `kube-apiserver pid ${pids.before} → ${pids.after}` };
    },
    'restart-etcd': async () => {
      const pids = await restartLaneProcess(t.dirs, 'etcd', { signal: 'SIGKILL', downMs: 5_000 });
      return { injected: true, detail: `etcd SIGKILL, 5 s down, pid ${pids.before} → ${pids.after} (data kept)` };
    },
    'restart-kubelet': async () => {
      const pids = await restartLaneProcess(t.dirs, `kubelet-${fault.node}`, { signal: 'SIGTERM', downMs: 10_000 });
      return { injected: true, detail: `kubelet-${fault.node} down 10 s, pid ${pids.before} → ${pids.after}` };
    },
    'restart-containerd': async () => {
      const pids = await restartLaneProcess(t.dirs, `containerd-${fault.node}`, { signal: 'SIGTERM', downMs: 5_000 });
      return { injected: true, detail: `containerd-${fault.node} down 5 s, pid ${pids.before} → ${pids.after}` };
    },
    'drain-node': async () => {
      // kubectl drain evicts through the Eviction API (PDBs hold); it gives up, leaving the rest, after its timeout.
      const out = spawnSync(
        'kubectl',
        ['--kubeconfig', t.kubeconfig, 'drain', node, '--ignore-daemonsets', '--delete-emptydir-data', '--force', '--timeout=90s'],
        { encoding: 'utf8' },
      );
      const evicted = (out.stdout.match(/evicted/g) ?? []).length;
      return {
        injected: true,
        detail: `${node} cordoned and drained (${evicted} pods evicted${out.status === 0 ? '' : `, drain ended ${out.status}: PDBs held the rest`})`,
        undo: async () => `${run('kubectl', ['--kubeconfig', t.kubeconfig, 'uncordon', node])}`,
      };
    },
    'prometheus-down': async () => {
      // Stopped, not killed: no scrape (a gap in the data) and every query hangs until it times out.
      process.kill(t.prometheusPid, 'SIGSTOP');
      return {
        injected: true,
        detail: `Prometheus pid ${t.prometheusPid} stopped (SIGSTOP)`,
        undo: async () => {
          process.kill(t.prometheusPid, 'SIGCONT');
          return `Prometheus pid ${t.prometheusPid} continued`;
        },
      };
    },
    'webhook-gone-ignore': () => webhookGone(t, 'Ignore'),
    'webhook-gone-fail': () => webhookGone(t, 'Fail'),
    'api-errors': async () => {
      const proxy = t.apiProxy;
      if (!proxy) return notYet('Tailor does not talk through the chaos proxy in this run');
      proxy.set(API_FAULTS);
      const cut = proxy.cutWatches();
      return {
        injected: true,
        detail: `${API_FAULTS.errorRate * 100}% of Tailor's requests answered 500/429/503, the rest ${API_FAULTS.latencyMs} ms late, ${cut} watches cut`,
        undo: async () => {
          proxy.set(NO_FAULTS);
          return `the proxy passes every request again (${proxy.counts.failed} answered with an error so far)`;
        },
      };
    },
  };
  return kinds[fault.kind]();
}
