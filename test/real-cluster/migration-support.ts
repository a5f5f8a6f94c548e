/**
 * What migration.lane.ts uses: upstream's cached binaries (or why the test is skipped), host
 * processes with their output kept, the workloads and VPAs, and snapshots of the VPAs'
 * recommendations, the checkpoints and the pods, compared within a tolerance.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { BUSYBOX_IMAGE, waitFor } from './lane-cluster.ts';

const CACHE = process.env.TAILOR_CLUSTER_CACHE ?? '/var/cache/tailor-real-cluster';
export const VPA_BIN = join(CACHE, 'vertical-pod-autoscaler-v1.8.1');
export const METRICS_SERVER = join(CACHE, 'metrics-server-v0.9.0', 'metrics-server');
export const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
export const CHECKPOINT = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalercheckpoints' };

/** Why the test cannot run here (upstream's binaries not cached), or undefined. */
export function missingUpstream(): string | undefined {
  const need = ['vpa-recommender', 'vpa-updater', 'vpa-admission-controller', 'vpa-v1-crd-gen.yaml'].map((f) => join(VPA_BIN, f));
  const missing = [...need, METRICS_SERVER].filter((f) => !existsSync(f));
  return missing.length ? `upstream VPA v1.8.1 is not cached (${missing.join(', ')}): run test/real-cluster/build-upstream-vpa.sh once` : undefined;
}

/** A host process with its output appended to a log file and kept (the end) in memory. */
export class HostProcess {
  readonly child: ChildProcess;
  private tail = '';
  constructor(
    readonly name: string,
    command: string,
    args: string[],
    logFile: string,
  ) {
    writeFileSync(logFile, `$ ${command} ${args.join(' ')}\n`);
    this.child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => {
      this.tail = (this.tail + d.toString()).slice(-20_000);
      writeFileSync(logFile, d, { flag: 'a' });
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
  }
  output(): string {
    return this.tail;
  }
  /** Throws with its output when it has exited. */
  check(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null)
      throw new Error(`${this.name} exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.tail.slice(-3000)}`);
  }
  /** SIGTERM (a graceful stop: Tailor flushes its checkpoints), SIGKILL after 20 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((ok) => this.child.once('exit', () => ok()));
    this.child.kill('SIGTERM');
    await Promise.race([exited, sleep(20_000)]);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** A self-signed CA and a serving certificate for 127.0.0.1, for upstream's webhook (registered by URL). */
export function webhookCerts(dir: string): { cert: string; key: string; ca: string } {
  mkdirSync(dir, { recursive: true });
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=vpa-webhook-ca']);
  run(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(join(dir, 'ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'ext']);
  return { cert: join(dir, 'server.crt'), key: join(dir, 'server.key'), ca: join(dir, 'ca.crt') };
}

/** A workload of the test: a Deployment (one replica unless `replicas`) with a VPA in `mode`. */
export interface Workload {
  readonly name: string;
  readonly mode: 'Off' | 'Initial' | 'Recreate' | 'InPlaceOrRecreate';
  readonly requests: { readonly cpu: string; readonly memory: string };
  readonly limits: { readonly cpu: string; readonly memory: string };
  /** Busy at its cpu limit for the spike's seconds, then asleep. */
  readonly spike?: true;
  /** Busy at its cpu limit all along (else asleep). */
  readonly busy?: true;
  readonly replicas?: number;
}

/** The workloads: name, VPA update mode, command, requests and limits. */
export const WORKLOADS: readonly Workload[] = [
  // Busy for SPIKE_SECONDS at its 300m limit, then asleep: the recommendation remembers the spike
  // only through the histogram (upstream's checkpoint); usage read afresh after the spike is idle.
  { name: 'spiky', mode: 'Off', requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '300m', memory: '64Mi' }, spike: true },
  { name: 'web', mode: 'Initial', requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '150m', memory: '64Mi' }, busy: true },
  { name: 'idle', mode: 'InPlaceOrRecreate', requests: { cpu: '25m', memory: '256Mi' }, limits: { cpu: '100m', memory: '512Mi' } },
];

/**
 * A `Recreate` VPA over two replicas (so either updater may evict), asleep with requests within
 * upstream's bounds: any pod replaced across a switch is one the switch caused.
 */
export const RECREATE_WORKLOAD: Workload = {
  name: 'batch',
  mode: 'Recreate',
  requests: { cpu: '50m', memory: '256Mi' },
  limits: { cpu: '100m', memory: '512Mi' },
  replicas: 2,
};

export function deployment(w: Workload, spikeSeconds: number): k8s.V1Deployment {
  const labels = { app: w.name };
  const script = w.spike ? `timeout ${spikeSeconds} sh -c 'while :; do :; done'; exec sleep 36000` : w.busy ? 'while :; do :; done' : 'exec sleep 36000';
  return {
    metadata: { name: w.name, labels },
    spec: {
      replicas: w.replicas ?? 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [
            {
              name: 'app',
              image: BUSYBOX_IMAGE,
              imagePullPolicy: 'Never',
              command: ['sh', '-c', script],
              resources: { requests: { ...w.requests }, limits: { ...w.limits } },
              // Resized without a restart: an updater acting on a bound that collapsed at the switch
              // shows in the pods' requests (podSnapshot), not only as a restart.
              resizePolicy: [
                { resourceName: 'cpu', restartPolicy: 'NotRequired' },
                { resourceName: 'memory', restartPolicy: 'NotRequired' },
              ],
            },
          ],
        },
      },
    },
  };
}

export function vpaObject(w: Workload): object {
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: w.name },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: w.name }, updatePolicy: { updateMode: w.mode, minReplicas: 1 } },
  };
}

/** A Kubernetes quantity as a number (cores, bytes). */
export function quantity(q: string): number {
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(q);
  if (!m) throw new Error(`not a quantity: ${q}`);
  const units: Record<string, number> = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };
  if (!(m[2]! in units)) throw new Error(`unknown unit in ${q}`);
  return Number(m[1]) * units[m[2]!]!;
}

/** `vpa/container` → the target's cpu (cores) and memory (bytes), and the upper bound's. */
export type Targets = Record<string, { cpu: number; memory: number; upperCpu: number; upperMemory: number }>;

export async function readTargets(custom: k8s.CustomObjectsApi, namespace: string): Promise<Targets> {
  const list = (await custom.listNamespacedCustomObject({ ...VPA, namespace })) as {
    items: {
      metadata: { name: string };
      status?: {
        recommendation?: { containerRecommendations?: { containerName: string; target: Record<string, string>; upperBound?: Record<string, string> }[] };
      };
    }[];
  };
  const out: Targets = {};
  for (const v of list.items)
    for (const r of v.status?.recommendation?.containerRecommendations ?? [])
      out[`${v.metadata.name}/${r.containerName}`] = {
        cpu: quantity(r.target.cpu ?? '0'),
        memory: quantity(r.target.memory ?? '0'),
        upperCpu: quantity(r.upperBound?.cpu ?? '0'),
        upperMemory: quantity(r.upperBound?.memory ?? '0'),
      };
  return out;
}

export interface CheckpointView {
  name: string;
  samples: number;
  /** The memory histogram's total weight (upstream leaves the current interval's peak out). */
  memoryWeight: number;
  lastUpdateTime: string;
  managers: { manager: string; time: string }[];
}

export async function readCheckpoints(custom: k8s.CustomObjectsApi, namespace: string): Promise<CheckpointView[]> {
  const list = (await custom.listNamespacedCustomObject({ ...CHECKPOINT, namespace })) as {
    items: {
      metadata: { name: string; managedFields?: { manager?: string; time?: string }[] };
      status?: { totalSamplesCount?: number; lastUpdateTime?: string; memoryHistogram?: { totalWeight?: number } };
    }[];
  };
  return list.items.map((c) => ({
    name: c.metadata.name,
    samples: c.status?.totalSamplesCount ?? 0,
    memoryWeight: c.status?.memoryHistogram?.totalWeight ?? 0,
    lastUpdateTime: c.status?.lastUpdateTime ?? '',
    managers: (c.metadata.managedFields ?? []).map((f) => ({ manager: f.manager ?? '', time: f.time ?? '' })),
  }));
}

/** Every pod of the namespace: uid → name, the sum of its containers' restartCounts and their requests (a resize shows too). */
export async function podSnapshot(core: k8s.CoreV1Api, namespace: string): Promise<Record<string, string>> {
  const pods = await core.listNamespacedPod({ namespace });
  return Object.fromEntries(
    pods.items.map((p) => {
      const restarts = (p.status?.containerStatuses ?? []).reduce((s, c) => s + c.restartCount, 0);
      const requests = p.spec!.containers.map((c) => `${c.name} ${c.resources?.requests?.cpu}/${c.resources?.requests?.memory}`).join(', ');
      return [p.metadata!.uid!, `${p.metadata!.name} restarts=${restarts} requests ${requests}`];
    }),
  );
}

/**
 * Containers whose target moved by more than `factor` (either way) from `before`, or that lost
 * their recommendation: the failures, each as one line.
 */
export function targetsMoved(before: Targets, after: Targets, factor: number): string[] {
  const bad: string[] = [];
  for (const [key, b] of Object.entries(before)) {
    const a = after[key];
    if (!a) {
      bad.push(`${key}: no recommendation after the switch`);
      continue;
    }
    for (const r of ['cpu', 'memory'] as const) {
      const ratio = a[r] / b[r];
      if (!(ratio <= factor && ratio >= 1 / factor))
        bad.push(`${key} ${r}: ${b[r]} → ${a[r]} (x${ratio.toFixed(3)}, allowed x${(1 / factor).toFixed(3)}-x${factor})`);
    }
  }
  return bad;
}

export function showTargets(t: Targets): string {
  return Object.entries(t)
    .map(
      ([k, v]) =>
        `${k} cpu ${Math.round(v.cpu * 1000)}m (upper ${Math.round(v.upperCpu * 1000)}m) memory ${(v.memory / 2 ** 20).toFixed(1)}Mi (upper ${(v.upperMemory / 2 ** 20).toFixed(1)}Mi)`,
    )
    .join('; ');
}

/**
 * How far a target may move across a switch: two buckets of the histograms either way. Both keep CPU
 * and memory in upstream's exponential histograms (buckets 5% apart); a checkpoint stores each
 * bucket's weight rounded to an integer of at most 10,000, and samples added after the switch move
 * the percentile by up to a bucket.
 */
export const TOLERANCE = 1.05 ** 2;

/** A side's last word before a switch, or the other side's after it. */
export interface SwitchState {
  readonly targets: Targets;
  readonly checkpoints: readonly CheckpointView[];
}

/**
 * What a switch lost, one line each: a target moved beyond TOLERANCE (or gone), a checkpoint with
 * fewer samples than `before` wrote (`after` did not continue it).
 */
export function switchLosses(before: SwitchState, after: SwitchState, side: string): string[] {
  const lost = targetsMoved(before.targets, after.targets, TOLERANCE);
  for (const c of before.checkpoints) {
    const now = after.checkpoints.find((t) => t.name === c.name);
    if (!now) lost.push(`checkpoint ${c.name}: ${side} holds none, ${c.samples} samples were written before`);
    else if (now.samples < c.samples) lost.push(`checkpoint ${c.name}: ${side} holds ${now.samples} samples, ${c.samples} were written before`);
  }
  return lost;
}

/**
 * Waits until each of the namespace's `count` checkpoints was written by a manager `who` accepts
 * since `since` (ms), then a loop more (25 s); `check` throws when a process the wait depends on has
 * died, `describe` says what to show on a timeout.
 */
export async function checkpointsWrittenBy(
  custom: k8s.CustomObjectsApi,
  namespace: string,
  count: number,
  what: { name: string; since: number; who: (manager: string) => boolean; timeoutMs: number },
  describe: () => string,
  check: () => void = () => undefined,
): Promise<CheckpointView[]> {
  await waitFor(
    what.name,
    what.timeoutMs,
    async () => {
      check();
      const cps = await readCheckpoints(custom, namespace);
      const fresh = cps.filter((c) => c.managers.some((m) => what.who(m.manager) && Date.parse(m.time) >= what.since - 1000));
      return cps.length >= count && fresh.length === cps.length ? true : undefined;
    },
    describe,
  );
  await sleep(25_000);
  check();
  return readCheckpoints(custom, namespace);
}
