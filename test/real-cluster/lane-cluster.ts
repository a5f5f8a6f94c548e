/**
 * What the real-cluster lane's tests share: the lane's kubeconfig, a namespace per test, polling
 * with a deadline, reading a running container's CPU quota from the node's cgroup filesystem, and
 * Tailor's updater run on the host.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';

/** The image the lane builds and imports (busybox-static), and the sandbox image. */
export const BUSYBOX_IMAGE = 'localhost/tailor-busybox:lane';

/** The lane's test container: busybox sleeping, Guaranteed at 200m / 64Mi, cpu resized without a restart, memory with one. */
export function guaranteedApp(): k8s.V1Container {
  return {
    name: 'app',
    image: BUSYBOX_IMAGE,
    imagePullPolicy: 'Never',
    command: ['sleep', '3600'],
    resources: { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '200m', memory: '64Mi' } },
    resizePolicy: [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
    ],
  };
}

/** The lane's admin kubeconfig path (lane.sh exports it; cluster:up writes it under the state). */
export function laneKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.TAILOR_CLUSTER_STATE ?? '/var/lib/tailor-real-cluster';
  return env.TAILOR_CLUSTER_KUBECONFIG ?? join(state, 'admin.kubeconfig');
}

/** The lane's KubeConfig; a clear error when the cluster is not up. */
export function laneKubeConfig(): k8s.KubeConfig {
  const path = laneKubeconfigPath();
  if (!existsSync(path)) throw new Error(`no real cluster: ${path} does not exist (run 'npm run cluster:up' as root first)`);
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

/**
 * Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs` with
 * `what` and the last value seen (`describe` renders it).
 */
/**
 * The cluster's Kubernetes minor version (`/version`), for tests whose expectation differs by version
 * (1.36+ refuses a resize beyond the node's allocatable at admission; 1.35 marks it Infeasible).
 */
export async function serverMinor(kc: k8s.KubeConfig = laneKubeConfig()): Promise<number> {
  const info = await kc.makeApiClient(k8s.VersionApi).getCode();
  return Number.parseInt(info.minor, 10);
}

export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, describe: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${describe() ? `; last seen: ${describe()}` : ''}`);
    await sleep(200);
  }
}

/** Creates a fresh namespace and waits for its default service account (pods need it). */
export async function freshNamespace(core: k8s.CoreV1Api, prefix: string): Promise<string> {
  const ns = await core.createNamespace({ body: { metadata: { generateName: `${prefix}-` } } });
  const name = ns.metadata!.name!;
  await waitFor(`service account default in ${name}`, 60_000, async () =>
    core.readNamespacedServiceAccount({ namespace: name, name: 'default' }).then(
      () => true,
      () => undefined,
    ),
  );
  return name;
}

/** Deletes a namespace without waiting for its pods to go (down.sh removes anything left). */
export async function dropNamespace(core: k8s.CoreV1Api, name: string): Promise<void> {
  await core.deleteNamespace({ name, gracePeriodSeconds: 0 }).catch(() => undefined);
}

/** The containerd id of a pod's container, from its status (`containerd://<id>`). */
export function containerId(pod: k8s.V1Pod, container: string): string | undefined {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const id = statuses.find((s) => s.name === container)?.containerID;
  return id?.replace(/^[a-z]+:\/\//, '');
}

function findDir(root: string, name: string, depth: number): string | undefined {
  if (depth < 0 || !existsSync(root)) return undefined;
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(root, entry.name);
    if (entry.name === name) return path;
    const found = findDir(path, name, depth - 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The CFS quota (µs per 100 ms period) of a running container, read from its cgroup on this node:
 * cgroup v1 `cpu.cfs_quota_us` under /sys/fs/cgroup/cpu, v2 the first field of `cpu.max`
 * (-1 for "max"). Throws when the container has no cgroup here.
 */
export function cpuQuota(id: string): number {
  const v1 = findDir('/sys/fs/cgroup/cpu', id, 5);
  if (v1) return Number(readFileSync(join(v1, 'cpu.cfs_quota_us'), 'utf8').trim());
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers') ? findDir('/sys/fs/cgroup', id, 6) : undefined;
  if (v2) {
    const quota = readFileSync(join(v2, 'cpu.max'), 'utf8').trim().split(' ')[0];
    return quota === 'max' ? -1 : Number(quota);
  }
  throw new Error(`container ${id} has no cgroup under /sys/fs/cgroup on this machine`);
}

/**
 * The host pid of a running container's first process (its entrypoint), from the `cgroup.procs`
 * of its cgroup on this node (v1: under /sys/fs/cgroup/cpu; v2: under /sys/fs/cgroup).
 */
export function containerProcess(id: string): number {
  const dir = findDir('/sys/fs/cgroup/cpu', id, 5) ?? (existsSync('/sys/fs/cgroup/cgroup.controllers') ? findDir('/sys/fs/cgroup', id, 6) : undefined);
  if (!dir) throw new Error(`container ${id} has no cgroup under /sys/fs/cgroup on this machine`);
  const pids = readFileSync(join(dir, 'cgroup.procs'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .sort((a, b) => a - b);
  if (pids.length === 0) throw new Error(`container ${id} has no process (${join(dir, 'cgroup.procs')} is empty)`);
  return pids[0]!;
}

/** Creates the VPA CRD of manifests/crds (if it is not there) and waits until it is Established. */
export async function installVpaCrd(kc: k8s.KubeConfig): Promise<void> {
  await installCrd(kc, 'verticalpodautoscalers.yaml');
}

/** Creates the CRD of manifests/crds/`file` (if it is not there) and waits until it is Established. */
export async function installCrd(kc: k8s.KubeConfig, file: string): Promise<void> {
  const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
  // loadYaml maps the YAML's field names to client-node's (x-kubernetes-int-or-string →
  // xKubernetesIntOrString); a plain YAML parse loses those markers in client-node's serializer
  // and the real apiserver refuses the CRD (422 "type: Required value").
  const crd = k8s.loadYaml<k8s.V1CustomResourceDefinition>(readFileSync(`manifests/crds/${file}`, 'utf8'));
  await ext.createCustomResourceDefinition({ body: crd }).catch((error: unknown) => {
    if ((error as { code?: number }).code !== 409) throw error;
  });
  await waitFor(`CRD ${crd.metadata!.name} Established`, 60_000, async () => {
    const got = await ext.readCustomResourceDefinition({ name: crd.metadata!.name! });
    return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
  });
}

/** The VPA and checkpoint CRDs: their names and plurals (group autoscaling.k8s.io, version v1). */
const VPA_CRDS = [
  { name: 'verticalpodautoscalers.autoscaling.k8s.io', plural: 'verticalpodautoscalers' },
  { name: 'verticalpodautoscalercheckpoints.autoscaling.k8s.io', plural: 'verticalpodautoscalercheckpoints' },
] as const;

/**
 * Deletes the VPA and checkpoint CRDs an earlier lane test left installed (installVpaCrd leaves them
 * for the next test), so that a test can install another VPA's own CRDs as a user would on a fresh
 * cluster. Waits (3 min) for objects still being removed with their namespaces; refuses when one
 * outlives that, since deleting the CRD would delete it too.
 */
export async function removeLeftoverVpaCrds(kc: k8s.KubeConfig): Promise<void> {
  const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  for (const { name, plural } of VPA_CRDS) {
    const present = await ext.readCustomResourceDefinition({ name }).then(
      () => true,
      () => false,
    );
    if (!present) continue;
    let left: string[] = [];
    await waitFor(
      `no ${plural} left before the CRD is deleted`,
      180_000,
      async () => {
        const list = (await custom.listClusterCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', plural })) as {
          items: { metadata: { namespace: string; name: string } }[];
        };
        left = list.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
        return left.length === 0 ? true : undefined;
      },
      () => left.join(', '),
    );
    await ext.deleteCustomResourceDefinition({ name });
    await waitFor(`CRD ${name} deleted`, 120_000, () =>
      ext.readCustomResourceDefinition({ name }).then(
        () => undefined,
        () => true,
      ),
    );
  }
}

/**
 * The memory limit (bytes) of a running container, read from its cgroup on this node: cgroup v1
 * `memory.limit_in_bytes` under /sys/fs/cgroup/memory, v2 `memory.max` (-1 for "max").
 */
export function memoryLimitBytes(id: string): number {
  const v1 = findDir('/sys/fs/cgroup/memory', id, 5);
  if (v1) return Number(readFileSync(join(v1, 'memory.limit_in_bytes'), 'utf8').trim());
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers') ? findDir('/sys/fs/cgroup', id, 6) : undefined;
  if (v2) {
    const max = readFileSync(join(v2, 'memory.max'), 'utf8').trim();
    return max === 'max' ? -1 : Number(max);
  }
  throw new Error(`container ${id} has no memory cgroup under /sys/fs/cgroup on this machine`);
}

/** The memory limit (bytes) of the pod cgroup around a running container (cgroup v1 or v2). */
export function podMemoryLimitBytes(id: string): number {
  const v1 = findDir('/sys/fs/cgroup/memory', id, 5);
  if (v1) return Number(readFileSync(join(v1, '..', 'memory.limit_in_bytes'), 'utf8').trim());
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers') ? findDir('/sys/fs/cgroup', id, 6) : undefined;
  if (v2) {
    const max = readFileSync(join(v2, '..', 'memory.max'), 'utf8').trim();
    return max === 'max' ? -1 : Number(max);
  }
  throw new Error(`container ${id} has no memory cgroup under /sys/fs/cgroup on this machine`);
}

/** The CFS quota (µs per 100 ms) of the pod cgroup around a running container (cgroup v1 or v2; -1 for "max"). */
export function podCpuQuota(id: string): number {
  const v1 = findDir('/sys/fs/cgroup/cpu', id, 5);
  if (v1) return Number(readFileSync(join(v1, '..', 'cpu.cfs_quota_us'), 'utf8').trim());
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers') ? findDir('/sys/fs/cgroup', id, 6) : undefined;
  if (v2) {
    const quota = readFileSync(join(v2, '..', 'cpu.max'), 'utf8')
      .trim()
      .split(' ')[0];
    return quota === 'max' ? -1 : Number(quota);
  }
  throw new Error(`container ${id} has no cgroup under /sys/fs/cgroup on this machine`);
}

/** Tailor's updater running on the host against the lane's cluster, its output collected. */
export interface HostUpdater {
  process: ChildProcess;
  /** Everything it printed so far (JSON log lines). */
  output(): string;
  /** Throws, with its last output, if it has exited. */
  alive(): void;
  /** SIGTERM, and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `tailor run --components updater` (no leader election, 10 s loops, metrics on a free
 * loopback port) for `namespace`, with `extraArgs` after.
 */
export function startHostUpdater(namespace: string, extraArgs: readonly string[] = []): HostUpdater {
  const args = ['bin/tailor.mjs', 'run', '--components', 'updater', '--kubeconfig', laneKubeconfigPath(), '--namespace', namespace, '--no-leader-elect'];
  const child = spawn(process.execPath, [...args, '--interval', '10s', '--metrics-address', '127.0.0.1', '--metrics-port', '0', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return {
    process: child,
    output: () => output,
    alive: () => {
      if (child.exitCode !== null) throw new Error(`tailor exited with ${child.exitCode}:\n${output.slice(-3000)}`);
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Runs kubectl against the lane's cluster (the admin kubeconfig); its output, or an error with its stderr. */
export function laneKubectl(...args: string[]): string {
  try {
    return execFileSync('kubectl', ['--kubeconfig', laneKubeconfigPath(), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  } catch (error) {
    const e = error as { code?: string; stderr?: string };
    if (e.code === 'ENOENT')
      throw new Error('kubectl is not on PATH (the lane applies the manifests with kubectl apply -k, as docs/install.md says)', { cause: error });
    throw new Error(`kubectl ${args.join(' ')} failed: ${e.stderr ?? ''}`, { cause: error });
  }
}
