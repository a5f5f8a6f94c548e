import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeriesByName } from '../../src/replay/series-by-name.ts';

test('names are matched by bytes: same name, same builder; order of first sight kept', () => {
  const table = new SeriesByName();
  const row = (name: string) => {
    const bytes = Buffer.from(`1,${name},2`, 'utf8');
    return table.get(bytes, 2, 2 + Buffer.byteLength(name));
  };
  const a = row('web-1');
  const b = row('web-2');
  assert.notEqual(a, b);
  assert.equal(row('web-1'), a);
  assert.equal(row('web-2'), b);
  assert.equal(row('wéb'), row('wéb'));
  for (let i = 0; i < 1000; i++) row(`c${i}`);
  assert.equal(table.builders().length, 3 + 1000);
  assert.deepEqual(
    table
      .builders()
      .slice(0, 3)
      .map((s) => s.name),
    ['web-1', 'web-2', 'wéb'],
  );
});
