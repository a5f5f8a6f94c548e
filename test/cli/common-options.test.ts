import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeResult } from '../../src/cli/common-options.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-common-options-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A writable that keeps what is written. */
function sink(): NodeJS.WritableStream & { text: string } {
  const s = { text: '', write: (chunk: string) => ((s.text += chunk), true) };
  return s as unknown as NodeJS.WritableStream & { text: string };
}

test('writeResult: standard output without --output, and with --output - (no file named -); a file otherwise', async () => {
  const none = sink();
  await writeResult('a\n', undefined, none);
  assert.equal(none.text, 'a\n');
  const dash = sink();
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    await writeResult('b\n', '-', dash);
  } finally {
    process.chdir(cwd);
  }
  assert.equal(dash.text, 'b\n');
  assert.deepEqual(readdirSync(dir), []);
  const file = join(dir, 'out.txt');
  const unused = sink();
  await writeResult('c\n', file, unused);
  assert.equal(readFileSync(file, 'utf8'), 'c\n');
  assert.equal(unused.text, '');
});
