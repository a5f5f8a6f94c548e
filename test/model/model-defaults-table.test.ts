import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { modelDefaultsTable, modelDefaultsTableKeys } from '../../src/model/model-defaults-table.ts';
import { MODEL_DEFAULTS } from '../../src/model/model-options.ts';

const MODEL_PAGE = 'docs/recommender-model.md';

test('the defaults table covers every model option once', () => {
  assert.deepEqual([...modelDefaultsTableKeys()].sort(), Object.keys(MODEL_DEFAULTS).sort());
});

test('the table shows the values in the units people read', () => {
  const table = modelDefaultsTable();
  assert.match(table, /\| `cpuHalfLifeMs` \| 24h \|/);
  assert.match(table, /\| `oomMinBumpUpBytes` \| 100 MiB \|/);
  assert.match(table, /\| `targetCpuPercentile` \| 0\.9 \(p90\) \|/);
  assert.match(table, /\| `podMinCpuMillicores` \| 25m \|/);
  assert.match(table, /\| `memoryMaxBytes` \| 1e12 bytes \|/);
  assert.match(modelDefaultsTable({ ...MODEL_DEFAULTS, safetyMarginFraction: 0.2 }), /\| `safetyMarginFraction` \| 0\.2 \(\+20%\) \|/);
});

test('docs/recommender-model.md "Defaults" section contains exactly the generated defaults table', () => {
  const page = readFileSync(MODEL_PAGE, 'utf8');
  const start = page.indexOf('\n## Defaults\n');
  assert.ok(start >= 0, `${MODEL_PAGE} has a "## Defaults" section`);
  const rest = page.slice(start + 1);
  const next = rest.indexOf('\n## ', 1);
  const section = next < 0 ? rest : rest.slice(0, next);
  assert.ok(section.includes(modelDefaultsTable()), 'regenerate it with: node --import tsx scripts/model-defaults-table.ts');
});
