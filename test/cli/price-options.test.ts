// The price options of recommend and audit (docs/cost.md): flags, a prices file (--prices, YAML or
// JSON) with the flags winning over it, and the errors: a bad flag is exit 2 before the file is
// read; a file that cannot be read or holds anything else is exit 1 naming the file and the field.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPrices, PriceFileError, priceFileOptions, pricesOf } from '../../src/cli/price-options.ts';
import { UsageError } from '../../src/cli/exit-codes.ts';
import { FileError } from '../../src/cli/file-errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-prices-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

test('flags: both prices or none; the currency defaults to USD and needs the prices', () => {
  assert.equal(pricesOf({}), undefined);
  assert.deepEqual(pricesOf({ cpuHourPrice: '0.03', memoryGibHourPrice: '0.004' }), { cpuHour: 0.03, memoryGiBHour: 0.004, currency: 'USD' });
  assert.deepEqual(pricesOf({ cpuHourPrice: '0', memoryGibHourPrice: '0.004', currency: 'EUR' }), { cpuHour: 0, memoryGiBHour: 0.004, currency: 'EUR' });
  assert.throws(
    () => pricesOf({ cpuHourPrice: '0.03' }),
    (e: Error) => e instanceof UsageError && e.message === '--cpu-hour-price needs --memory-gib-hour-price too (0 for a resource not to price)',
  );
  assert.throws(() => pricesOf({ currency: 'EUR' }), UsageError);
  assert.throws(() => pricesOf({ cpuHourPrice: '-0.03', memoryGibHourPrice: '0.004' }), /--cpu-hour-price: "-0.03" is not a price/);
});

test('a prices file, YAML or JSON; each flag wins over its field', async () => {
  const yaml = file('prices.yaml', 'cpuHour: 0.0316\nmemoryGiBHour: 0.0042\ncurrency: EUR\n');
  assert.deepEqual(await loadPrices({ prices: yaml }), { cpuHour: 0.0316, memoryGiBHour: 0.0042, currency: 'EUR' });
  const json = file('prices.json', '{"cpuHour": "0.03", "memoryGiBHour": 0.004}');
  assert.deepEqual(await loadPrices({ prices: json }), { cpuHour: 0.03, memoryGiBHour: 0.004, currency: 'USD' });
  assert.deepEqual(await loadPrices({ prices: yaml, cpuHourPrice: '0.05', currency: 'CHF' }), { cpuHour: 0.05, memoryGiBHour: 0.0042, currency: 'CHF' });
});

test('a prices file that is not right is an input error naming the file and the field; a bad flag is refused before it is read', async () => {
  assert.throws(
    () => priceFileOptions('cpuHour: -1\nmemoryGiBHour: 0.004\n', 'p.yaml'),
    (e: Error) => e instanceof PriceFileError && e.message === 'p.yaml: cpuHour: "-1" is not a price: expected a decimal number of at least 0, e.g. 0.0316',
  );
  assert.throws(() => priceFileOptions('cpuHour: 0.03\n', 'p.yaml'), /p\.yaml: needs both cpuHour and memoryGiBHour/);
  assert.throws(() => priceFileOptions('cpuHour: 0.03\nmemoryGiBHour: 0.004\nram: 1\n', 'p.yaml'), /p\.yaml: unknown field ram/);
  assert.throws(() => priceFileOptions('- 1\n', 'p.yaml'), /p\.yaml: expected an object with cpuHour, memoryGiBHour, currency/);
  assert.throws(() => priceFileOptions('{', 'p.yaml'), /p\.yaml: not YAML or JSON/);
  await assert.rejects(
    loadPrices({ prices: join(dir, 'missing.yaml') }),
    (e: Error) => e instanceof FileError && /missing\.yaml: cannot read: no such file/.test(e.message),
  );
  await assert.rejects(loadPrices({ prices: join(dir, 'missing.yaml'), cpuHourPrice: 'lots' }), UsageError);
});

test('tailor recommend --prices with a file that cannot be used: exit 1, one line naming it, before Prometheus is asked', () => {
  const bad = file('bad.yaml', 'cpuHour: cheap\nmemoryGiBHour: 0.004\n');
  const r = spawnSync(process.execPath, ['bin/tailor.mjs', 'recommend', '--prometheus-url', 'http://127.0.0.1:1', '--prices', bad], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr, `tailor recommend: ${bad}: cpuHour: "cheap" is not a price: expected a decimal number of at least 0, e.g. 0.0316\n`);
});
