import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { rawRequest, startSim, type SimFixture } from './sim-fixture.ts';

let sim: SimFixture;
before(async () => {
  sim = await startSim();
});
after(async () => {
  await sim?.close();
});

const complete = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { generateName: 'web-0.' },
  eventTime: '2026-03-01T10:00:00.000000Z',
  reportingController: 'tailor.dev/updater',
  reportingInstance: 'tailor-0',
  action: 'Resize',
  reason: 'ResizedInPlace',
  type: 'Normal',
  note: 'cpu 250m -> 300m',
  regarding: { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: 'default' },
};

const cases: { name: string; change: Record<string, unknown>; field?: string }[] = [
  { name: 'a complete events.k8s.io/v1 event is stored', change: {} },
  { name: 'eventTime is required', change: { eventTime: undefined }, field: 'eventTime' },
  { name: 'reportingController is required', change: { reportingController: undefined }, field: 'reportingController' },
  { name: 'action is required', change: { action: undefined }, field: 'action' },
  { name: 'type must be Normal or Warning', change: { type: 'Info' }, field: 'type' },
  { name: 'the regarding namespace must match', change: { regarding: { kind: 'Pod', name: 'x', namespace: 'other' } }, field: 'regarding.namespace' },
];

for (const c of cases) {
  test(`events.k8s.io/v1: ${c.name}`, async () => {
    const body = JSON.parse(JSON.stringify({ ...complete, ...c.change })) as Record<string, unknown>;
    const res = await rawRequest(sim.server, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', body);
    if (!c.field) {
      assert.equal(res.status, 201, res.text);
      return;
    }
    assert.equal(res.status, 422, res.text);
    const causes = (res.json() as { details: { causes: { field: string }[] } }).details.causes;
    assert.ok(
      causes.some((x) => x.field === c.field),
      JSON.stringify(causes),
    );
  });
}

test('core/v1 events through client-node, with an involvedObject namespace check and field selectors', async () => {
  const event: k8s.CoreV1Event = {
    metadata: { name: 'web-0.1' },
    involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'default' },
    reason: 'Resized',
    message: 'resized in place',
    type: 'Normal',
    source: { component: 'tailor-updater' },
  };
  await sim.core.createNamespacedEvent({ namespace: 'default', body: event });
  await assert.rejects(
    sim.core.createNamespacedEvent({
      namespace: 'default',
      body: { ...event, metadata: { name: 'bad' }, involvedObject: { ...event.involvedObject, namespace: 'elsewhere' } },
    }),
    (err) => (err as { code?: number }).code === 422,
  );
  const found = await sim.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=web-0,reason=Resized,source=tailor-updater' });
  assert.deepEqual(
    found.items.map((e) => e.metadata?.name),
    ['web-0.1'],
  );
});

test('malformed CRDs are 422 with the real causes', async () => {
  const res = await rawRequest(sim.server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' }, versions: [{ name: 'v1', served: true, storage: false }] },
  });
  assert.equal(res.status, 422);
  const causes = (res.json() as { details: { causes: { field: string; message: string }[] } }).details.causes;
  assert.deepEqual(
    causes.map((c) => c.field),
    ['metadata.name', 'spec.versions'],
  );
  assert.equal(causes[0]?.message, 'Invalid value: "gadgets": must be spec.names.plural+"."+spec.group');
});

test('events.k8s.io/v1 and core/v1 Events are one collection seen through two schemas', async () => {
  const res = await rawRequest(sim.server, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', { ...complete, metadata: { name: 'shared.1' } });
  assert.equal(res.status, 201, res.text);
  const core = await sim.core.readNamespacedEvent({ namespace: 'default', name: 'shared.1' });
  assert.equal(core.involvedObject.name, 'web-0');
  assert.equal(core.message, 'cpu 250m -> 300m');
  assert.equal(core.reportingComponent, 'tailor.dev/updater');
  assert.equal(core.action, 'Resize');
  const eventsApi = sim.kc.makeApiClient(k8s.EventsV1Api);
  const viaNew = await eventsApi.listNamespacedEvent({ namespace: 'default', fieldSelector: 'regarding.name=web-0,reason=Resized' });
  assert.deepEqual(
    viaNew.items.map((e) => [e.metadata?.name, e.note, e.deprecatedSource?.component]),
    [['web-0.1', 'resized in place', 'tailor-updater']],
  );
  const viaCore = await sim.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=web-0,reason=ResizedInPlace' });
  assert.ok(viaCore.items.some((e) => e.metadata?.name === 'shared.1'));
});
