/** docs/workload-annotations.md lists every key of the registry with its format, default and example. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WORKLOAD_ANNOTATION_KEYS } from '../../src/policy/annotations/workload-annotations.ts';

const doc = readFileSync(new URL('../../docs/workload-annotations.md', import.meta.url), 'utf8');

test('the table in docs/workload-annotations.md is the registry', () => {
  const rows = [...doc.matchAll(/^\| `(tailor\.dev\/[a-z-]+)` \| (.+?) \| (.+?) \| `(.+?)` \|$/gm)].map((m) => [m[1], m[2], m[3], m[4]]);
  assert.deepEqual(
    rows,
    WORKLOAD_ANNOTATION_KEYS.map((k) => [k.key, k.format, k.default, k.example]),
  );
});
