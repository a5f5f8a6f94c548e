import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { parseManifestText } from '../../src/api/manifest-text.ts';

test('the objects of a manifest, by position; empty documents are left out', () => {
  assert.deepEqual(parseManifestText('---\nkind: Pod\n---\n---\n{"kind": "VerticalPodAutoscaler"}\n'), {
    ok: true,
    documents: [
      { index: 1, value: { kind: 'Pod' } },
      { index: 3, value: { kind: 'VerticalPodAutoscaler' } },
    ],
  });
  assert.deepEqual(parseManifestText(''), { ok: true, documents: [] });
});

test('random bytes, prose and a top-level list are not YAML or JSON manifests; a syntax error names its document', () => {
  // Random bytes decoded as UTF-8, as a file is read: NULs or invalid sequences, whatever the seed.
  for (let i = 0; i < 20; i++) assert.deepEqual(parseManifestText(randomBytes(4096).toString('utf8')), { ok: false, error: 'not YAML or JSON: binary data' });
  assert.deepEqual(parseManifestText('hello world\n'), { ok: false, error: 'not YAML or JSON objects: document 1 is a string, not an object' });
  assert.deepEqual(parseManifestText('kind: Pod\n---\n- a\n- b\n'), { ok: false, error: 'not YAML or JSON objects: document 2 is a list, not an object' });
  assert.deepEqual(parseManifestText('42\n'), { ok: false, error: 'not YAML or JSON objects: document 1 is a number, not an object' });
  const broken = parseManifestText('a: 1\n---\nb: [\n');
  assert.equal(broken.ok, false);
  assert.match(broken.ok ? '' : broken.error, /^document 2: /);
});
