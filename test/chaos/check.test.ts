/** The checker's command on a run's files: the VPA found through the watch record, the counts line, the exit status. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { container, pod } from '../builders/pods.ts';
import { vpa } from '../builders/vpas.ts';
import { auditLine, leaseLine, UPDATER } from './audit-builders.ts';
import { checkRun } from './check.ts';

const web = pod({ name: 'web-abc12-xyz', containers: [container('app')] });
web.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc12', uid: 'u', controller: true }];
web.metadata!.labels = { 'pod-template-hash': 'abc12' };
const capped = vpa({ policies: [{ containerName: 'app', maxAllowed: { cpu: '500m' } }] });
const at = Date.parse('2026-12-07T10:00:00Z');
const watch = [
  { at: at - 60_000, resource: 'pods', type: 'ADDED', object: web },
  { at: at - 60_000, resource: 'vpas', type: 'ADDED', object: capped },
]
  .map((r) => JSON.stringify(r))
  .join('\n');
const resizeTo = (cpu: string, second: string) =>
  auditLine({
    verb: 'patch',
    subresource: 'resize',
    pod: 'web-abc12-xyz',
    at: `2026-12-07T10:00:${second}Z`,
    request: [
      { op: 'test', path: '/spec/containers/0/name', value: 'app' },
      { op: 'add', path: '/spec/containers/0/resources/requests/cpu', value: cpu },
    ],
  });

/** The updater's leader (auditLine's default sender) renewing its Lease just before the writes. */
const held = leaseLine('tailor-updater-1', '2026-12-07T10:00:00Z');

test('a resize above the maxAllowed of the VPA the watch saw is a violation; the counts line says how much was checked', () => {
  const bad = checkRun([held, resizeTo('400m', '01'), resizeTo('700m', '02')].join('\n'), watch, UPDATER, 15_000);
  assert.deepEqual(bad.lines, [
    '2026-12-07T10:00:02.000Z bounds shop/web-abc12-xyz: app cpu request 700m above maxAllowed',
    `checked 2 resizes, 0 evictions, 0 deletions by ${UPDATER}: 1 violations`,
  ]);
  assert.equal(bad.status, 1);
  assert.deepEqual(bad.counts, { resizes: 2, evictions: 0, violations: 1, byRule: { bounds: 1 } });
  assert.equal(checkRun([held, resizeTo('400m', '01')].join('\n'), watch, UPDATER, 15_000).status, 0);
});

test("one-leader from the audit log's Lease renewals: a write with no renewal before it, or another Lease's, is flagged", () => {
  const alone = checkRun(resizeTo('400m', '01'), watch, UPDATER, 15_000);
  assert.deepEqual(alone.counts.byRule, { 'one-leader': 1 });
  assert.match(alone.lines[0]!, /one-leader shop\/web-abc12-xyz: tailor-updater-1 wrote before any replica held the leader Lease/);
  const recommenderLease = leaseLine('tailor-updater-1', '2026-12-07T10:00:00Z', { name: 'tailor-recommender' });
  assert.equal(checkRun([recommenderLease, resizeTo('400m', '01')].join('\n'), watch, UPDATER, 15_000).counts.byRule['one-leader'], 1);
  assert.equal(checkRun([recommenderLease, resizeTo('400m', '01')].join('\n'), watch, UPDATER, 15_000, 'tailor-system/tailor-recommender').status, 0);
});

const dir = mkdtempSync(join(tmpdir(), 'chaos-check-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the command: exit 1 on a violation, 2 with a usage line on missing arguments or a missing file, never a stack trace', () => {
  writeFileSync(join(dir, 'audit.log'), [held, resizeTo('700m', '02')].join('\n'));
  writeFileSync(join(dir, 'watch.jsonl'), watch);
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'check.ts'), ...args], { encoding: 'utf8' });
  const found = run('--audit', join(dir, 'audit.log'), '--watch', join(dir, 'watch.jsonl'));
  assert.equal(found.status, 1, found.stderr);
  assert.match(found.stdout, /bounds shop\/web-abc12-xyz/);
  const usage = run('--audit', join(dir, 'audit.log'));
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /^usage: check\.ts/);
  const missing = run('--audit', join(dir, 'nope.log'), '--watch', join(dir, 'watch.jsonl'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^check: ENOENT/);
  assert.doesNotMatch(missing.stderr, /at .*\.ts:\d+/);
});
