import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { applyVariant, occurrences, VARIANTS } from './variants.ts';

const dir = mkdtempSync(join(tmpdir(), 'chaos-variants-'));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const [name, variant] of Object.entries(VARIANTS)) {
  test(`variant ${name}: each edit's text is in the source exactly once, and applying it changes those files`, () => {
    for (const e of variant.edits) assert.equal(occurrences(readFileSync(e.file, 'utf8'), e.find), 1, `${e.file}: ${e.find}`);
    const root = join(dir, name);
    for (const file of new Set(variant.edits.map((e) => e.file))) cpSync(file, join(root, file), { recursive: true });
    applyVariant(root, variant);
    for (const e of variant.edits) {
      const text = readFileSync(join(root, e.file), 'utf8');
      assert.equal(occurrences(text, e.find), 0);
      assert.equal(occurrences(text, e.replace), 1);
    }
    assert.ok(variant.edits.length + variant.settings.length > 0, 'a variant breaks something');
  });
}

test('a variant whose text is gone says which edit, and changes nothing it could not', () => {
  const root = join(dir, 'stale');
  cpSync('src/policy/container-plan.ts', join(root, 'src/policy/container-plan.ts'));
  assert.throws(
    () =>
      applyVariant(root, { rule: 'bounds', broken: 'x', settings: [], edits: [{ file: 'src/policy/container-plan.ts', find: 'no such line', replace: '' }] }),
    /the variant for bounds no longer applies: src\/policy\/container-plan.ts: 'no such line' found 0 times \(want 1\)/,
  );
  assert.equal(readFileSync(join(root, 'src/policy/container-plan.ts'), 'utf8'), readFileSync('src/policy/container-plan.ts', 'utf8'));
});
