import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputDirError, prepareOutputDir, removeIfCreatedAndEmpty } from '../../../src/report/audit/output-dir.ts';

function scratch(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-output-dir-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Fails the test instead of hanging it (the issue saw 30 s, then 180 s inside the demo). */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

test('a missing folder in an existing one is created; an existing folder is used as it is', async (t) => {
  const root = scratch(t);
  assert.deepEqual(await prepareOutputDir(join(root, 'reports'), '--output-dir'), { created: true });
  assert.ok(existsSync(join(root, 'reports')));
  assert.deepEqual(await prepareOutputDir(join(root, 'reports'), '--output-dir'), { created: false });
});

test('its parents are not created: a missing parent is named, and nothing is left', async (t) => {
  const root = scratch(t);
  await assert.rejects(prepareOutputDir(join(root, 'typo', 'reports'), '--output-dir'), (err: Error) => {
    assert.ok(err instanceof OutputDirError);
    assert.equal(
      err.message,
      `--output-dir ${join(root, 'typo', 'reports')}: cannot create the folder: the folder ${join(root, 'typo')} does not exist (only the last folder of the path is created)`,
    );
    return true;
  });
  assert.equal(existsSync(join(root, 'typo')), false);
});

test('a file in the way, or a file as parent, is said in words', async (t) => {
  const root = scratch(t);
  writeFileSync(join(root, 'file'), 'x');
  await assert.rejects(prepareOutputDir(join(root, 'file'), '--audit-dir'), {
    message: `--audit-dir ${join(root, 'file')}: cannot use the folder: it is a file, not a folder`,
  });
  await assert.rejects(prepareOutputDir(join(root, 'file', 'sub'), '--audit-dir'), {
    message: `--audit-dir ${join(root, 'file', 'sub')}: cannot create the folder: a part of the path is not a folder`,
  });
});

test('/proc/nope fails at once (a recursive mkdir never returns there)', async () => {
  await assert.rejects(within(5_000, prepareOutputDir('/proc/nope', '--output-dir')), {
    message: '--output-dir /proc/nope: cannot create the folder: no folder can be created in /proc',
  });
});

test('a created folder is removed again when nothing was written in it; a used or older one is kept', async (t) => {
  const root = scratch(t);
  const fresh = join(root, 'fresh');
  await removeIfCreatedAndEmpty(fresh, await prepareOutputDir(fresh, '--output-dir'));
  assert.equal(existsSync(fresh), false);
  const used = join(root, 'used');
  const prepared = await prepareOutputDir(used, '--output-dir');
  writeFileSync(join(used, 'latest.html'), 'x');
  await removeIfCreatedAndEmpty(used, prepared);
  assert.ok(existsSync(join(used, 'latest.html')));
  const older = join(root, 'older');
  mkdirSync(older);
  await removeIfCreatedAndEmpty(older, await prepareOutputDir(older, '--output-dir'));
  assert.ok(existsSync(older));
});
