import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { KubeSimApiServer } from '../../src/apiserver/index.ts';
import { kubeConfigFor } from './sim-fixture.ts';
import { VPA_CRDS } from '../support/vpa-crds.ts';

// Guards against accidental O(n^2) paths at the updater benchmark's scale (2,000 pods, 1,000
// VPAs). Bounds are generous but an O(n^2) store or watch fan-out would blow far past them. They
// are on this process's CPU time (client and server both run here), which other processes on a
// loaded machine do not inflate as they do wall-clock time.
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let server: KubeSimApiServer;
before(async () => {
  server = new KubeSimApiServer({ tls: false, crdManifests: VPA_CRDS });
  await server.start();
});
after(async () => {
  await server?.close();
});

test('2,000 pods and 1,000 VPAs: creates, selector lists, status patches and watch fan-out stay fast', async () => {
  const events: number[] = [0, 0, 0];
  const stops = events.map((_, i) => server.store.subscribe('pods', () => (events[i] = (events[i] ?? 0) + 1)));
  let started = cpuMs();
  for (let i = 0; i < 2000; i += 1) {
    await server.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p-${i}`, namespace: 'default', labels: { app: `a${i % 1000}` } },
      spec: { containers: [{ name: 'c', image: 'x:1', resources: { requests: { cpu: '100m', memory: '100Mi' } } }] },
    });
  }
  for (let i = 0; i < 1000; i += 1) {
    await server.create({
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: `v-${i}`, namespace: 'default' },
      spec: { targetRef: { kind: 'Deployment', name: `a${i}` } },
    });
  }
  const createMs = cpuMs() - started;
  started = cpuMs();
  for (let i = 0; i < 1000; i += 1) {
    await server.execute({
      verb: 'patch',
      group: '',
      version: 'v1',
      resource: 'pods',
      subresource: 'status',
      namespace: 'default',
      name: `p-${i}`,
      contentType: 'application/merge-patch+json',
      body: { status: { phase: 'Running' } },
    });
  }
  const patchMs = cpuMs() - started;
  started = cpuMs();
  for (let i = 0; i < 200; i += 1) {
    const res = await server.execute({ verb: 'list', group: '', version: 'v1', resource: 'pods', namespace: 'default', query: { labelSelector: `app=a${i}` } });
    assert.equal((res.body as { items: unknown[] }).items.length, 2);
  }
  const listMs = cpuMs() - started;
  for (const stop of stops) stop();
  assert.deepEqual(events, [3000, 3000, 3000]);
  assert.ok(createMs < 15_000, `3,000 creates took ${createMs} ms of CPU`);
  assert.ok(patchMs < 5_000, `1,000 status patches took ${patchMs} ms of CPU`);
  assert.ok(listMs < 5_000, `200 selector lists over 2,000 pods took ${listMs} ms of CPU`);

  const core = kubeConfigFor(server).makeApiClient(k8s.CoreV1Api);
  started = cpuMs();
  const all = await core.listPodForAllNamespaces();
  assert.equal(all.items.length, 2000);
  assert.ok(cpuMs() - started < 5_000, `listing 2,000 pods over HTTP took ${cpuMs() - started} ms of CPU`);
});
