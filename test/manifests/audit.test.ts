/**
 * The scheduled audit's manifests (manifests/audit): what they render, that the CronJob runs the
 * same image as the other components with arguments `tailor audit` accepts, that its store, Role
 * and ConfigMap name the same object, and, on kube-sim with RBAC enforced, that the audit's
 * service account can do exactly what the audit does with its store (get and update the one
 * ConfigMap, through the store's own code) and nothing more.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import * as k8s from '@kubernetes/client-node';
import { ConfigMapStore } from '../../src/report/audit/summary-store.ts';
import { find, inventory, kubectl, render, type Manifest } from './kustomize.ts';
import { installedOnSim } from './installed-on-sim.ts';
import { tailorInProcess } from '../cli/cli-in-process.ts';
import { freePort } from '../support/free-port.ts';

const NS = 'tailor-system';

interface PodSpec {
  serviceAccountName: string;
  securityContext: Record<string, unknown>;
  containers: { image: string; args: string[]; securityContext: Record<string, unknown> }[];
  volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[];
}
const podSpec = (cronJob: Manifest) =>
  (cronJob as unknown as { spec: { jobTemplate: { spec: { template: { spec: PodSpec } } } } }).spec.jobTemplate.spec.template.spec;
const argValue = (args: string[], flag: string) => args.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);

test('manifests/audit renders a CronJob of the install image, its service account, a Role on one ConfigMap, the ConfigMap and the reports volume', async () => {
  const { objects } = await render('audit');
  assert.deepEqual(inventory(objects), [
    'ConfigMap/tailor-audit',
    'CronJob/tailor-audit',
    'PersistentVolumeClaim/tailor-audit-reports',
    'Role/tailor-audit',
    'RoleBinding/tailor-audit',
    'ServiceAccount/tailor-audit',
  ]);
  for (const o of objects) assert.equal(o.metadata.namespace, NS, `${o.kind}/${o.metadata.name}`);
  const pod = podSpec(find(objects, 'CronJob', 'tailor-audit'));
  const recommender = (find((await render('install')).objects, 'Deployment', 'tailor-recommender') as unknown as { spec: { template: { spec: PodSpec } } }).spec
    .template.spec;
  assert.equal(pod.containers[0]!.image, recommender.containers[0]!.image);
  assert.deepEqual(pod.containers[0]!.securityContext, recommender.containers[0]!.securityContext);
  assert.equal(pod.serviceAccountName, 'tailor-audit');
  const args = pod.containers[0]!.args;
  assert.equal(args[0], 'audit');
  // The store, the Role and the ConfigMap are one object.
  assert.equal(argValue(args, '--store'), `configmap:${NS}/tailor-audit`);
  const role = find(objects, 'Role', 'tailor-audit') as unknown as { rules: unknown[] };
  assert.deepEqual(role.rules, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['tailor-audit'], verbs: ['get', 'update'] }]);
  // The reports go to the volume.
  assert.equal(argValue(args, '--output-dir'), '/reports');
  assert.deepEqual(pod.volumes.find((v) => v.name === 'reports')?.persistentVolumeClaim, { claimName: 'tailor-audit-reports' });
});

test("the CronJob's arguments are accepted by tailor audit (it gets as far as Prometheus)", async () => {
  const pod = podSpec(find((await render('audit')).objects, 'CronJob', 'tailor-audit'));
  const dir = await mkdtemp(join(tmpdir(), 'tailor-audit-args-'));
  try {
    const url = `http://127.0.0.1:${await freePort()}`;
    const args = pod.containers[0]!.args.map((a) =>
      a.startsWith('--prometheus-url=') ? `--prometheus-url=${url}` : a.startsWith('--output-dir=') ? `--output-dir=${dir}` : a,
    );
    const store = `--store=dir:${join(dir, 'store')}`;
    const result = await tailorInProcess([...args.map((a) => (a.startsWith('--store=') ? store : a)), '--retries', '0']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /Prometheus at http:\/\/127\.0\.0\.1:\d+ is unreachable/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('RBAC on kube-sim: the audit may get and update its ConfigMap, and nothing else', async (t) => {
  const { cluster, kubeconfig } = await installedOnSim(t, 'tailor-audit-rbac-');
  const server = cluster.sim.server;
  // kube-sim serves no PersistentVolumeClaims; everything else of manifests/audit is applied.
  const audit = (await render('audit')).objects.filter((o) => o.kind !== 'PersistentVolumeClaim');
  const applied = await kubectl(['--kubeconfig', kubeconfig, 'apply', '-f', '-'], audit.map((o) => stringify(o)).join('---\n'));
  assert.equal(applied.code, 0, applied.stderr);

  server.setAuthentication(true);
  server.setAuthorization(true);
  const admin = new k8s.KubeConfig();
  admin.loadFromString(server.kubeconfig());
  const adminCore = admin.makeApiClient(k8s.CoreV1Api);
  const token = await adminCore.createNamespacedServiceAccountToken({ namespace: NS, name: 'tailor-audit', body: { spec: { audiences: [] } } });
  const sa = new k8s.KubeConfig();
  sa.loadFromString(server.kubeconfig(token.status?.token ?? ''));
  const core = sa.makeApiClient(k8s.CoreV1Api);
  const username = `system:serviceaccount:${NS}:tailor-audit`;

  // What the audit does: the store's own read and write, as the service account.
  const store = new ConfigMapStore(core, NS, 'tailor-audit');
  assert.equal(await store.read(), undefined);
  await store.write('{"stored":true}');
  assert.equal((await adminCore.readNamespacedConfigMap({ namespace: NS, name: 'tailor-audit' })).data?.['summary.json'], '{"stored":true}');
  assert.equal(await new ConfigMapStore(core, NS, 'tailor-audit').read(), '{"stored":true}');
  assert.equal(server.requests.count({ username, code: 403 }), 0);

  const refused: [string, () => Promise<unknown>][] = [
    ['create a ConfigMap', () => core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'other' } } })],
    ['list ConfigMaps', () => core.listNamespacedConfigMap({ namespace: NS })],
    ['delete its ConfigMap', () => core.deleteNamespacedConfigMap({ namespace: NS, name: 'tailor-audit' })],
    ['get another ConfigMap', () => core.readNamespacedConfigMap({ namespace: NS, name: 'tailor-kube-state-metrics-vpa' })],
    ['list pods', () => core.listPodForAllNamespaces()],
    ['list Secrets', () => core.listNamespacedSecret({ namespace: NS })],
  ];
  for (const [call, run] of refused) {
    const before = server.requests.count({ username, code: 403 });
    await assert.rejects(run(), (err: { code?: number }) => err.code === 403, call);
    assert.equal(server.requests.count({ username, code: 403 }), before + 1, call);
  }
});
