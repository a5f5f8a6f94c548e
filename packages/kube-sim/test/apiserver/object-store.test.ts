import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectStore } from '../../src/apiserver/object-store.ts';
import { EventHistory } from '../../src/apiserver/event-history.ts';
import type { StoreEvent } from '../../src/apiserver/store-event.ts';
import type { KubeObject } from '../../src/apiserver/types.ts';

const NOW = Date.parse('2026-03-01T10:00:00Z');
const store = (): ObjectStore => new ObjectStore({ now: () => NOW });
const cm = (name: string, data: Record<string, string> = {}, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', ...extra },
  data,
});

test('create assigns uid, creationTimestamp, generation 1 and the next global resourceVersion', () => {
  const s = store();
  const a = s.create('configmaps', cm('a'));
  const b = s.create('secrets', cm('b'));
  assert.equal(a.metadata.resourceVersion, '1');
  assert.equal(b.metadata.resourceVersion, '2', 'one counter across resources');
  assert.equal(a.metadata.creationTimestamp, '2026-03-01T10:00:00Z');
  assert.equal(a.metadata.generation, 1);
  assert.ok(Object.isFrozen(a.metadata), 'stored objects are frozen');
  assert.throws(() => s.create('configmaps', cm('a')), { code: 409, reason: 'AlreadyExists' });
});

test('update: stale resourceVersion is 409, no-op keeps the version, spec changes bump generation', () => {
  const s = store();
  const a = s.create('configmaps', cm('a', { k: '1' }));
  assert.equal(s.update('configmaps', { ...cm('a', { k: '1' }), metadata: { ...a.metadata } }).metadata.resourceVersion, '1', 'no-op update');
  const changed = s.update('configmaps', { ...cm('a', { k: '2' }), metadata: { ...a.metadata } });
  assert.equal(changed.metadata.resourceVersion, '2');
  assert.equal(changed.metadata.generation, 2, 'data counts as spec for generation');
  const labelled = s.update('configmaps', { ...cm('a', { k: '2' }), metadata: { ...changed.metadata, labels: { x: 'y' } } });
  assert.equal(labelled.metadata.generation, 2, 'metadata changes do not bump generation');
  assert.throws(() => s.update('configmaps', { ...cm('a', { k: '3' }), metadata: { ...a.metadata } }), { code: 409, reason: 'Conflict' });
  assert.throws(() => s.update('configmaps', cm('missing')), { code: 404 });
});

test('mutate with keepGeneration changes the spec part without bumping the generation (pods/binding)', () => {
  const s = store();
  s.create('configmaps', cm('b', { k: '1' }));
  const kept = s.mutate('configmaps', 'ns', 'b', (d) => void ((d as { data?: Record<string, string> }).data = { k: '2' }), { keepGeneration: true });
  assert.equal(kept.metadata.generation, 1);
  assert.equal(kept.metadata.resourceVersion, '2', 'still a write');
  const bumped = s.mutate('configmaps', 'ns', 'b', (d) => void ((d as { data?: Record<string, string> }).data = { k: '3' }));
  assert.equal(bumped.metadata.generation, 2);
});

test('finalizers keep a deleted object until the last one is removed', () => {
  const s = store();
  const events: string[] = [];
  s.subscribe('configmaps', (e) => events.push(`${e.type}@${e.resourceVersion}`));
  s.create('configmaps', cm('f', {}, { finalizers: ['example.com/hold'] }));
  const marked = s.delete('configmaps', 'ns', 'f');
  assert.equal(marked.finalizing, true);
  assert.equal(marked.object.metadata.deletionTimestamp, '2026-03-01T10:00:00Z');
  assert.equal(marked.object.metadata.generation, 2, 'the mark for deletion bumps the generation');
  assert.ok(s.get('configmaps', 'ns', 'f'));
  s.mutate('configmaps', 'ns', 'f', (d) => {
    d.metadata.finalizers = [];
  });
  assert.equal(s.get('configmaps', 'ns', 'f'), undefined);
  assert.deepEqual(events, ['ADDED@1', 'MODIFIED@2', 'DELETED@3']);
});

test('deleting an owner deletes its dependents, unless Orphan', () => {
  const s = store();
  const owner = s.create('replicasets.apps', cm('rs'));
  const ref = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: owner.metadata.uid ?? '', controller: true }];
  s.create('pods', cm('p1', {}, { ownerReferences: ref }));
  s.create('pods', cm('p2', {}, { ownerReferences: ref }));
  s.delete('replicasets.apps', 'ns', 'rs');
  assert.equal(s.count('pods'), 0);
  const owner2 = s.create('replicasets.apps', cm('rs2'));
  s.create('pods', cm('p3', {}, { ownerReferences: [{ ...ref[0]!, name: 'rs2', uid: owner2.metadata.uid ?? '' }] }));
  s.delete('replicasets.apps', 'ns', 'rs2', { propagationPolicy: 'Orphan' });
  assert.equal(s.count('pods'), 1);
});

test('delete preconditions on uid and resourceVersion are 409', () => {
  const s = store();
  s.create('configmaps', cm('a'));
  assert.throws(() => s.delete('configmaps', 'ns', 'a', { preconditions: { uid: 'other' } }), {
    code: 409,
    message: /Precondition failed: UID in precondition: other/,
  });
  assert.throws(() => s.delete('configmaps', 'ns', 'a', { preconditions: { resourceVersion: '99' } }), { code: 409 });
});

test('listeners see changes in resourceVersion order even when a listener writes', () => {
  const s = store();
  const seen: [string, number][] = [];
  s.subscribe('configmaps', (e) => {
    if (e.object.metadata.name === 'a' && e.type === 'ADDED') s.create('configmaps', cm('b'));
  });
  s.subscribe('configmaps', (e) => seen.push([e.object.metadata.name ?? '', e.resourceVersion]));
  s.create('configmaps', cm('a'));
  assert.deepEqual(seen, [
    ['a', 1],
    ['b', 2],
  ]);
});

test('event history: a window of 3 over events 4, 7, 9, 12 compacts 4', () => {
  const h = new EventHistory(3);
  const ev = (rv: number): StoreEvent => ({ type: 'ADDED', resource: 'x', object: { metadata: {} }, resourceVersion: rv });
  for (const rv of [4, 7, 9, 12]) h.append(ev(rv));
  assert.equal(h.compactedRevision, 4);
  assert.equal(h.isExpired(3), true);
  assert.equal(h.isExpired(4), false);
  assert.deepEqual(
    h.since(4).map((e) => e.resourceVersion),
    [7, 9, 12],
  );
  assert.deepEqual(
    h.since(9).map((e) => e.resourceVersion),
    [12],
  );
  assert.deepEqual(h.since(12), []);
  h.compact(20);
  assert.equal(h.isExpired(12), true);
});

test('a throwing listener does not stop delivery to the others or fail the write', () => {
  const errors: unknown[] = [];
  const s = new ObjectStore({ now: () => NOW, onListenerError: (err) => errors.push(err) });
  const seen: string[] = [];
  s.subscribe('configmaps', () => {
    throw new Error('controller bug');
  });
  s.subscribe('configmaps', (e) => seen.push(e.object.metadata.name ?? ''));
  s.create('configmaps', cm('a'));
  s.create('configmaps', cm('b'));
  assert.deepEqual(seen, ['a', 'b']);
  assert.equal(errors.length, 2);
});
