/** docs/updater.md stays true to the code: its options table lists every option with its default. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_UPDATER_OPTIONS, type UpdaterOptions } from '../../src/policy/update-thresholds.ts';

const doc = readFileSync(new URL('../../docs/updater.md', import.meta.url), 'utf8');
const optionsSection = doc.slice(doc.indexOf('## Options'));

/** How the doc writes a default: durations as 12h / 2 min, bytes as MiB, the rest as is. */
function written(name: keyof UpdaterOptions, value: number | boolean): string {
  if (typeof value === 'boolean') return String(value);
  if (name.endsWith('Ms')) return value % 3_600_000 === 0 ? `${value / 3_600_000}h` : `${value / 60_000} min`;
  if (name.endsWith('Bytes')) return `${value / (1024 * 1024)} MiB`;
  return String(value);
}

test('the options table in docs/updater.md has every option with its default', () => {
  const rows = new Map([...optionsSection.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));
  for (const [name, value] of Object.entries(DEFAULT_UPDATER_OPTIONS) as [keyof UpdaterOptions, number | boolean][]) {
    assert.equal(rows.get(name), written(name, value), `docs/updater.md: ${name}`);
  }
  const documented = [...rows.keys()].filter((k) => !(k in DEFAULT_UPDATER_OPTIONS));
  assert.deepEqual(documented, [], 'the doc lists options the code does not have');
});
