/**
 * Where the audit keeps its summary: the ConfigMap store refuses a summary above its limit before
 * writing anything (the one stored before stays; the report itself was already written), keeps
 * the ConfigMap's other keys, creates it when missing; the directory store round-trips; `--store`
 * values are parsed or refused with what is expected.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiException, type V1ConfigMap } from '@kubernetes/client-node';
import {
  ConfigMapStore,
  DirectoryStore,
  parseStoreSpec,
  StoreLocationError,
  SummaryTooLargeError,
  type ConfigMapApi,
} from '../../src/report/audit/summary-store.ts';
import { completeAudit } from '../../src/report/audit/audit-run.ts';
import { reportRow } from './report-row-builder.ts';

/** An in-memory ConfigMap API recording the writes. */
function fakeApi(initial?: V1ConfigMap) {
  let stored = initial;
  const writes: string[] = [];
  const api: ConfigMapApi = {
    readNamespacedConfigMap: (async () => {
      if (!stored)
        throw new ApiException(404, 'not found', JSON.stringify({ kind: 'Status', reason: 'NotFound', code: 404, message: 'configmaps "x" not found' }), {});
      return structuredClone(stored);
    }) as ConfigMapApi['readNamespacedConfigMap'],
    createNamespacedConfigMap: (async ({ body }: { body: V1ConfigMap }) => {
      writes.push('create');
      stored = body;
      return body;
    }) as ConfigMapApi['createNamespacedConfigMap'],
    replaceNamespacedConfigMap: (async ({ body }: { body: V1ConfigMap }) => {
      writes.push('replace');
      stored = body;
      return body;
    }) as ConfigMapApi['replaceNamespacedConfigMap'],
  };
  return { api, writes, stored: () => stored };
}

const row = (name: string) => reportRow(name, { request: 500, target: 200 }, { request: 512 * 2 ** 20, target: 300 * 2 ** 20 });

test('a summary too large for the ConfigMap: the report is written, the stored summary is kept, the error says what to do', async () => {
  const before = { metadata: { name: 'tailor-audit', namespace: 'tailor-system' }, data: { 'summary.json': 'OLD', other: 'kept' } };
  const fake = fakeApi(before);
  const store = new ConfigMapStore(fake.api, 'tailor-system', 'tailor-audit', 2_000);
  const emitted: string[] = [];
  const rows = Array.from({ length: 40 }, (_, i) => row(`web-${i}`));
  await assert.rejects(
    completeAudit({
      rows,
      now: Date.UTC(2026, 0, 9),
      historyMs: 8 * 86_400_000,
      strategy: 'tailor',
      store,
      warn: () => {},
      emit: async (r) => void emitted.push(r.generatedAt),
    }),
    (err: unknown) => {
      assert.ok(err instanceof SummaryTooLargeError);
      assert.match(
        err.message,
        /^the summary is \d+ bytes, more than ConfigMap tailor-system\/tailor-audit can hold \(2000 bytes; a ConfigMap is at most 1 MiB\): it was not stored, the one stored before is kept; keep it on a volume with --store dir:PATH/,
      );
      return true;
    },
  );
  assert.deepEqual(emitted, ['2026-01-09T00:00:00.000Z']);
  assert.deepEqual(fake.writes, []);
  assert.deepEqual(fake.stored()!.data, { 'summary.json': 'OLD', other: 'kept' });
});

test('the ConfigMap store keeps other keys on replace and creates the ConfigMap when missing', async () => {
  const existing = fakeApi({ metadata: { name: 'a', namespace: 'n', resourceVersion: '7' }, data: { other: 'kept' } });
  const store = new ConfigMapStore(existing.api, 'n', 'a');
  assert.equal(await store.read(), undefined);
  await store.write('{"x":1}');
  assert.deepEqual(existing.writes, ['replace']);
  assert.deepEqual(existing.stored()!.data, { other: 'kept', 'summary.json': '{"x":1}' });
  assert.equal(existing.stored()!.metadata!.resourceVersion, '7');

  const missing = fakeApi();
  // Written without a read first (--previous given): it looks before it creates.
  await new ConfigMapStore(missing.api, 'n', 'b').write('{"y":2}');
  assert.deepEqual(missing.writes, ['create']);
  assert.deepEqual(missing.stored()!.data, { 'summary.json': '{"y":2}' });
});

test('the directory store round-trips and reads nothing before the first write', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tailor-store-'));
  try {
    const store = new DirectoryStore(join(dir, 'sub'));
    assert.equal(await store.read(), undefined);
    await store.write('{"a":1}');
    assert.equal(await store.read(), '{"a":1}');
    assert.equal(await readFile(join(dir, 'sub', 'summary.json'), 'utf8'), '{"a":1}');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('--store values', () => {
  assert.deepEqual(parseStoreSpec('configmap:tailor-system/tailor-audit'), { kind: 'configmap', namespace: 'tailor-system', name: 'tailor-audit' });
  assert.deepEqual(parseStoreSpec('dir:/reports'), { kind: 'dir', path: '/reports' });
  for (const bad of ['configmap:tailor-system', 'configmap:Bad_NS/x', 'configmap:ns/a/b', 'dir:', 's3://bucket'])
    assert.throws(() => parseStoreSpec(bad), StoreLocationError, bad);
});
