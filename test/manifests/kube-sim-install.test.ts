/**
 * `kubectl apply` of the rendered install to kube-sim (the whole simulated cluster, so the
 * Deployments roll out into running pods): every object is accepted, a second apply changes
 * nothing, and the Deployments reach their replicas.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from 'kube-sim/test/e2e/cluster-fixture';
import { find, kubectl, MANIFESTS, render } from './kustomize.ts';

const MONITORING_CRDS = fileURLToPath(new URL('./fixtures/prometheus-operator-crds.yaml', import.meta.url));

test('kubectl apply -k install-with-monitoring to kube-sim: all accepted, idempotent, pods running', async (t) => {
  const cluster = await startCluster('1.35');
  const dir = await mkdtemp(join(tmpdir(), 'tailor-manifests-'));
  t.after(async () => {
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });
  const kubeconfig = join(dir, 'kubeconfig');
  await cluster.sim.server.writeKubeconfig(kubeconfig);
  const k = (...args: string[]) => kubectl(['--kubeconfig', kubeconfig, ...args]);

  const crds = await k('apply', '-f', MONITORING_CRDS);
  assert.equal(crds.code, 0, crds.stderr);

  const { objects } = await render('install-with-monitoring');
  const first = await k('apply', '-k', join(MANIFESTS, 'install-with-monitoring'));
  assert.equal(first.code, 0, first.stderr);
  const lines = first.stdout.trim().split('\n');
  assert.equal(lines.length, objects.length, first.stdout);
  // The VPA CRDs already exist in kube-sim (it installs them at start): "configured"; the rest is new.
  for (const line of lines) assert.match(line, /^\S+ (created|configured)$/, line);
  assert.equal(lines.filter((l) => l.endsWith(' created')).length, objects.length - 2);

  // A second apply changes nothing: the store's resourceVersion (one global counter, bumped by
  // every write that changes an object) stays where it was. kubectl itself still reports the PDB
  // "configured": its selector has patchStrategy replace, so kubectl's patch is never empty.
  const version = async () => (await k('get', 'namespaces', '-o', 'jsonpath={.metadata.resourceVersion}')).stdout;
  const before = await version();
  const second = await k('apply', '-k', join(MANIFESTS, 'install-with-monitoring'));
  assert.equal(second.code, 0, second.stderr);
  const changed = second.stdout
    .trim()
    .split('\n')
    .filter((l) => !l.endsWith(' unchanged'));
  assert.deepEqual(changed, ['poddisruptionbudget.policy/tailor-admission configured'], second.stdout);
  assert.equal(await version(), before);

  // What was stored is what was rendered, e.g. the updater's rules and the webhook's policy.
  const stored = await k('get', 'clusterrole', 'tailor-updater', '-o', 'jsonpath={range .rules[*]}{.resources}{" "}{.verbs}{"\\n"}{end}');
  assert.equal(stored.code, 0, stored.stderr);
  assert.match(stored.stdout, /^\["pods\/resize"\] \["patch"\]$/m);
  assert.match(stored.stdout, /^\["pods\/eviction"\] \["create"\]$/m);

  // The simulated controllers, scheduler and kubelet roll the Deployments out.
  for (let i = 0; i < 10; i++) await cluster.tick(1000);
  const ready = await k(
    'get',
    'deployments',
    '-n',
    'tailor-system',
    '-o',
    'jsonpath={range .items[*]}{.metadata.name}={.status.readyReplicas}/{.spec.replicas}{"\\n"}{end}',
  );
  assert.equal(ready.code, 0, ready.stderr);
  assert.deepEqual(ready.stdout.trim().split('\n').sort(), ['tailor-admission=2/2', 'tailor-recommender=1/1', 'tailor-updater=1/1']);
  const pods = await k('get', 'pods', '-n', 'tailor-system', '-o', 'jsonpath={range .items[*]}{.spec.serviceAccountName} {.status.phase}{"\\n"}{end}');
  assert.deepEqual(pods.stdout.trim().split('\n').sort(), [
    'tailor-admission Running',
    'tailor-admission Running',
    'tailor-recommender Running',
    'tailor-updater Running',
  ]);

  // The webhook replaces its configurations with a caBundle (as registerWebhooks does: the desired
  // object, no kubectl annotation); applying the manifests again keeps that caBundle.
  const server = cluster.sim.server;
  const mutating = await server.execute({
    verb: 'get',
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    resource: 'mutatingwebhookconfigurations',
    name: 'tailor',
  });
  const current = mutating.body as { metadata: { resourceVersion: string }; webhooks: { clientConfig: object }[] };
  const caBundle = Buffer.from('-----BEGIN CERTIFICATE-----\ntest\n-----END CERTIFICATE-----\n').toString('base64');
  const desired = find(objects, 'MutatingWebhookConfiguration', 'tailor') as unknown as { metadata: object; webhooks: { clientConfig: object }[] };
  await server.execute({
    verb: 'update',
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    resource: 'mutatingwebhookconfigurations',
    name: 'tailor',
    body: {
      ...desired,
      metadata: { ...desired.metadata, resourceVersion: current.metadata.resourceVersion },
      webhooks: desired.webhooks.map((h) => ({ ...h, clientConfig: { ...h.clientConfig, caBundle } })),
    },
  });
  const third = await k('apply', '-k', join(MANIFESTS, 'install-with-monitoring'));
  assert.equal(third.code, 0, third.stderr);
  const kept = await k('get', 'mutatingwebhookconfiguration', 'tailor', '-o', 'jsonpath={.webhooks[0].clientConfig.caBundle}');
  assert.equal(kept.stdout, caBundle);
});
