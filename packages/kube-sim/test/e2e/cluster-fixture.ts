/**
 * Test fixture: a whole kube-sim (API server + simulated cluster) on a free port, driven by hand
 * (`tick`), with @kubernetes/client-node clients over HTTPS. `close()` stops everything; register
 * it with `t.after` so it runs on failure too.
 */
import { get } from 'node:https';
import * as k8s from '@kubernetes/client-node';
import { startKubeSim, type KubeSim } from '../../src/kube-sim.ts';
import { defaultScenario, type NodeSpec, type Scenario } from '../../src/scenario.ts';
import type { ServerVersion } from '../../src/server-version.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';

export const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);

export interface ClusterFixture {
  sim: KubeSim;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  /** Advances simulated time and lets every component react. */
  tick(ms: number): Promise<void>;
  /** GETs a path of the sim over HTTPS and returns the body. */
  scrape(path: string): Promise<string>;
  close(): Promise<void>;
}

export async function startCluster(version: ServerVersion, nodes?: Partial<NodeSpec>[], extra: Partial<Scenario> = {}): Promise<ClusterFixture> {
  const scenario = defaultScenario();
  if (nodes) scenario.nodes = nodes.map((n, i) => ({ name: `node-${i + 1}`, cpu: '4', memory: '16Gi', pods: 110, labels: {}, resizeSupport: true, ...n }));
  scenario.actuationDelayMs = 5000;
  const sim = await startKubeSim({ crdManifests: VPA_CRDS, version, scenario: { ...scenario, ...extra }, startAt: T0 });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.server.kubeconfig());
  const ca = Buffer.from(sim.server.certificateAuthority!.caBundle, 'base64');
  return {
    sim,
    core: kc.makeApiClient(k8s.CoreV1Api),
    apps: kc.makeApiClient(k8s.AppsV1Api),
    async tick(ms: number) {
      await sim.cluster.tick(ms);
      await sim.cluster.settle();
    },
    scrape: (path: string) =>
      new Promise((resolve, reject) => {
        get(`${sim.url}${path}`, { ca }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(body));
        }).on('error', reject);
      }),
    close: () => sim.close(),
  };
}

/** A pod manifest with one container `app`. */
export function appPod(
  name: string,
  resources: k8s.V1ResourceRequirements,
  extra: { resizePolicy?: k8s.V1ContainerResizePolicy[]; annotations?: Record<string, string> } = {},
): k8s.V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources, ...(extra.resizePolicy ? { resizePolicy: extra.resizePolicy } : {}) }] },
  };
}

/** The HTTP code and parsed Status of a client-node ApiException. */
export function apiFailure(err: unknown): {
  code?: number;
  status: { reason?: string; message?: string; code?: number; details?: { causes?: Array<{ reason?: string; field?: string; message?: string }> } };
} {
  const e = err as { code?: number; body?: unknown };
  let status = {};
  if (typeof e.body === 'string') {
    try {
      status = JSON.parse(e.body) as object;
    } catch {
      status = {};
    }
  } else if (e.body && typeof e.body === 'object') status = e.body;
  return { code: e.code, status };
}

/** JSON Patch replacing container 0's resources (what Tailor's updater sends). */
export function resizeOps(resources: k8s.V1ResourceRequirements): object[] {
  return [{ op: 'replace', path: '/spec/containers/0/resources', value: resources }];
}

export const JSON_PATCH = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch);
export const STRATEGIC_MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);

/** Reasons of the events recorded for an object, oldest first. */
export async function eventReasons(core: k8s.CoreV1Api, namespace: string, name: string): Promise<string[]> {
  const list = await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${name}` });
  return list.items.map((e) => e.reason ?? '');
}
