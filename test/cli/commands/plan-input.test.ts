// Reading `tailor plan`'s objects: documents and `kind: List` items flattened, sorted by kind into
// what the updater loop reads from its caches; VPAs kept as read (the loop's sequence validates them).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { objectsByKind, objectsIn, readPlanObjects } from '../../../src/cli/commands/plan-input.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-plan-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('documents and List items are flattened, in order; empty documents are nothing', () => {
  const text =
    'kind: Pod\nmetadata: {name: a}\n---\n---\nkind: PodList\nitems: [{kind: Pod, metadata: {name: b}}, {kind: List, items: [{kind: Pod, metadata: {name: c}}]}]\n';
  assert.deepEqual(
    objectsIn(text, 'x.yaml').map((o) => (o.metadata as { name: string }).name),
    ['a', 'b', 'c'],
  );
  assert.throws(() => objectsIn('hello world\n', 'notes.txt'), /^Error: notes\.txt: not YAML or JSON objects: document 1 is a string, not an object$/);
});

test('objects are sorted by kind; an invalid VPA is kept as read and other kinds are left out', () => {
  const bad = { kind: 'VerticalPodAutoscaler', metadata: { name: 'bad' }, spec: {} };
  const sorted = objectsByKind([
    { kind: 'Pod', metadata: { name: 'p' } },
    bad,
    { kind: 'StatefulSet', metadata: { name: 's' } },
    { kind: 'Job', metadata: { name: 'j' } },
    { kind: 'LimitRange', metadata: { name: 'l' } },
    { kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' } },
    { kind: 'Service', metadata: { name: 'svc' } },
    { metadata: { name: 'no-kind' } },
  ]);
  const names = (list: readonly unknown[]) => list.map((o) => (o as { metadata: { name: string } }).metadata.name);
  assert.deepEqual(names(sorted.pods), ['p']);
  assert.equal(sorted.vpas[0], bad);
  assert.deepEqual(names(sorted.workloads), ['s', 'j']);
  assert.deepEqual(names(sorted.limitRanges), ['l']);
  assert.deepEqual(names(sorted.hpas), ['h']);
});

test('several files are read in order; the first that cannot be read is named in words', async () => {
  const a = join(dir, 'a.yaml');
  const b = join(dir, 'b.json');
  writeFileSync(a, 'kind: Pod\nmetadata: {name: a}\n');
  writeFileSync(b, JSON.stringify({ kind: 'List', items: [{ kind: 'Pod', metadata: { name: 'b' } }] }));
  assert.deepEqual(
    (await readPlanObjects([a, b])).pods.map((p) => p.metadata?.name),
    ['a', 'b'],
  );
  await assert.rejects(readPlanObjects([a, join(dir, 'none.yaml')]), { name: 'FileError', message: `${join(dir, 'none.yaml')}: cannot read: no such file` });
  await assert.rejects(readPlanObjects([dir]), { message: `${dir}: cannot read: is a directory` });
});
