import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { podManifest, rawRequest, startSim, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim({ serverVersion: '1.35' });
  sim.server.registerSubresource('pods', 'resize', { update: ({ current }) => current });
});
after(async () => {
  await sim?.close();
});

interface ResourceEntry {
  name: string;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
  namespaced: boolean;
  shortNames?: string[];
}

test('/version reports the configured server version', async () => {
  const version = await sim.kc.makeApiClient(k8s.VersionApi).getCode();
  assert.equal(version.major, '1');
  assert.equal(version.minor, '35');
  assert.equal(version.gitVersion, 'v1.35.0');
});

test('/api/v1 lists pods with status, eviction, binding and the registered resize subresource', async () => {
  const res = (await rawRequest(sim.server, 'GET', '/api/v1')).json() as { groupVersion: string; resources: ResourceEntry[] };
  assert.equal(res.groupVersion, 'v1');
  const byName = new Map(res.resources.map((r) => [r.name, r]));
  assert.deepEqual(byName.get('pods')?.shortNames, ['po']);
  assert.deepEqual(byName.get('pods/resize')?.verbs, ['get', 'patch', 'update']);
  assert.equal(byName.get('pods/resize')?.kind, 'Pod');
  assert.deepEqual(byName.get('pods/eviction'), {
    name: 'pods/eviction',
    singularName: '',
    namespaced: true,
    kind: 'Eviction',
    verbs: ['create'],
    group: 'policy',
    version: 'v1',
  });
  assert.equal(byName.get('namespaces')?.namespaced, false);
  assert.equal(byName.get('serviceaccounts/token')?.kind, 'TokenRequest');
});

test('replicationcontrollers are served (list, discovery) as on a real server (upstream VPA components wait for their informer)', async () => {
  const list = await rawRequest(sim.server, 'GET', '/api/v1/replicationcontrollers');
  assert.equal(list.status, 200, list.text);
  assert.deepEqual((list.json() as { kind: string; items: unknown[] }).kind, 'ReplicationControllerList');
  const res = (await rawRequest(sim.server, 'GET', '/api/v1')).json() as { resources: ResourceEntry[] };
  assert.deepEqual(res.resources.find((r) => r.name === 'replicationcontrollers')?.shortNames, ['rc']);
});

test('/apis lists the groups with preferred versions; group versions list their resources', async () => {
  const groups = (await rawRequest(sim.server, 'GET', '/apis')).json() as { groups: { name: string; preferredVersion: { groupVersion: string } }[] };
  const names = groups.groups.map((g) => g.name);
  for (const g of [
    'apps',
    'autoscaling.k8s.io',
    'policy',
    'coordination.k8s.io',
    'admissionregistration.k8s.io',
    'apiextensions.k8s.io',
    'rbac.authorization.k8s.io',
    'events.k8s.io',
  ])
    assert.ok(names.includes(g), g);
  assert.equal(groups.groups.find((g) => g.name === 'autoscaling.k8s.io')?.preferredVersion.groupVersion, 'autoscaling.k8s.io/v1');
  const apps = (await rawRequest(sim.server, 'GET', '/apis/apps/v1')).json() as { resources: ResourceEntry[] };
  const scale = apps.resources.find((r) => r.name === 'deployments/scale');
  assert.deepEqual([scale?.kind, scale?.group, scale?.version], ['Scale', 'autoscaling', 'v1']);
  const unknown = await rawRequest(sim.server, 'GET', '/apis/nope.example.com/v1');
  assert.equal(unknown.status, 404);
});

test('kubectl-style Table output for get, list and watch', async () => {
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('table') });
  const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
  const list = (await rawRequest(sim.server, 'GET', '/api/v1/namespaces/default/pods', undefined, { accept })).json() as {
    kind: string;
    columnDefinitions: { name: string }[];
    rows: { cells: unknown[] }[];
  };
  assert.equal(list.kind, 'Table');
  assert.deepEqual(
    list.columnDefinitions.map((c) => c.name),
    ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node'],
  );
  assert.deepEqual(list.rows[0]?.cells.slice(0, 4), ['table', '0/1', 'Pending', 0]);
  const watch = await rawRequest(sim.server, 'GET', '/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1', undefined, { accept });
  const first = JSON.parse(watch.text.split('\n')[0] ?? '{}') as { type: string; object: { kind: string; rows: { cells: unknown[] }[] } };
  assert.equal(first.type, 'ADDED');
  assert.equal(first.object.kind, 'Table');
  assert.equal(first.object.rows[0]?.cells[0], 'table');
});
