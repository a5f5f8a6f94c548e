/**
 * metrics-server on the real-cluster lane, for upstream's VPA (its recommender reads
 * metrics.k8s.io): the binary build-upstream-vpa.sh caches, run as a process on this machine on
 * node 1's address, and registered as the v1beta1.metrics.k8s.io APIService through a Service with
 * a hand-written Endpoints (the API server resolves it itself: the lane has no kube-proxy). Used by
 * compare-upstream.ts and the conformance lane's upstream mode.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { waitFor } from './lane-cluster.ts';

/** Where and how to run it. */
export interface LaneMetricsServerOptions {
  /** The metrics-server binary. */
  readonly binary: string;
  /** The lane's state directory (admin.kubeconfig and pki/ under it). */
  readonly state: string;
  /** A directory of its own for the serving certificate it makes. */
  readonly workDir: string;
  /** The address it listens on, reachable from the API server: node 1's bridge address. */
  readonly address?: string;
  readonly port?: number;
}

/** A running metrics-server. */
export interface LaneMetricsServer {
  /** Its output so far (the last lines). */
  log(): string;
  /** Removes the APIService, Service and Endpoints and ends the process. */
  stop(): Promise<void>;
}

/** The objects that make the API server send metrics.k8s.io to `address:port`. */
export function metricsServerObjects(address: string, port: number): k8s.KubernetesObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'metrics-server', namespace: 'kube-system' },
      spec: { ports: [{ port: 443, targetPort: port }] },
    } as k8s.V1Service,
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'metrics-server', namespace: 'kube-system' },
      subsets: [{ addresses: [{ ip: address }], ports: [{ port }] }],
    } as k8s.V1Endpoints,
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: {
        service: { name: 'metrics-server', namespace: 'kube-system', port: 443 },
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 100,
        versionPriority: 100,
      },
    } as k8s.KubernetesObject,
  ];
}

/** Starts metrics-server and waits until metrics.k8s.io serves node metrics. */
export async function startLaneMetricsServer(kc: k8s.KubeConfig, options: LaneMetricsServerOptions): Promise<LaneMetricsServer> {
  const address = options.address ?? '10.213.1.1';
  const port = options.port ?? 34443;
  const admin = join(options.state, 'admin.kubeconfig');
  const pki = join(options.state, 'pki');
  const child = spawn(
    options.binary,
    [
      `--secure-port=${port}`,
      `--bind-address=${address}`,
      `--cert-dir=${join(options.workDir, 'metrics-server-certs')}`,
      `--kubeconfig=${admin}`,
      `--authentication-kubeconfig=${admin}`,
      `--authorization-kubeconfig=${admin}`,
      '--kubelet-use-node-status-port',
      '--kubelet-preferred-address-types=InternalIP',
      `--kubelet-certificate-authority=${pki}/ca.crt`,
      '--metric-resolution=15s',
      '--v=1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  const keep = (d: Buffer) => {
    lines.push(d.toString());
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((ok) => child.once('close', () => ok()));
  const log = () => lines.join('');

  const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
  const specs = metricsServerObjects(address, port);
  const stop = async () => {
    for (const spec of [...specs].reverse()) await objects.delete(spec).catch(() => undefined);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  try {
    for (const spec of specs) {
      await objects.create(spec).catch((error: unknown) => {
        if ((error as { code?: number }).code !== 409) throw new Error(`creating ${spec.kind} ${spec.metadata?.name}`, { cause: error });
      });
    }
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    await waitFor(
      'metrics.k8s.io serving node metrics',
      180_000,
      async () => {
        if (child.exitCode !== null) throw new Error(`metrics-server exited (${child.exitCode}): ${log().slice(-1500)}`);
        const nodes = await custom.listClusterCustomObject({ group: 'metrics.k8s.io', version: 'v1beta1', plural: 'nodes' }).then(
          (r) => r as { items?: unknown[] },
          () => undefined,
        );
        return nodes?.items?.length ? true : undefined;
      },
      () => log().slice(-1500),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { log, stop };
}
