import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCpu, formatMemory, parseCpu, parseMemory, QUANTITY_CACHE_LIMIT, QuantityError, quantityCacheSize, roundUpToMiB } from '../src/quantity.ts';

test('parses CPU quantities into millicores', () => {
  const cases: [string, number][] = [
    ['250m', 250],
    ['1.5', 1500],
    ['2', 2000],
    ['0.1', 100],
    ['.5', 500],
    ['100000u', 100],
    ['0.5m', 1], // rounds up like MilliValue()
    ['1k', 1_000_000],
    ['0', 0],
    ['500000000n', 500],
  ];
  for (const [input, expected] of cases) assert.equal(parseCpu(input), expected, input);
});

test('parses memory quantities into bytes', () => {
  const cases: [string, number][] = [
    ['512Mi', 536870912],
    ['1Gi', 1073741824],
    ['129M', 129000000],
    ['1e9', 1e9],
    ['128974848000m', 128974848],
    ['1.5Gi', 1610612736],
    ['100Ki', 102400],
    ['1E3', 1000],
    ['123', 123],
    ['1.5', 2], // a fractional byte rounds up, as Value() does
  ];
  for (const [input, expected] of cases) assert.equal(parseMemory(input), expected, input);
});

test('rejects malformed quantities with a message naming the value', () => {
  for (const bad of ['', 'abc', '1.2.3', '12 Mi', '1MB', 'Mi', '--1', '1e', '0x10', '1iB', '1e3m']) {
    assert.throws(
      () => parseMemory(bad),
      (err: unknown) => err instanceof QuantityError && err.message.includes(JSON.stringify(bad)),
      bad,
    );
  }
  assert.throws(() => parseCpu('-100m'), /negative/);
  assert.throws(() => parseCpu(undefined), QuantityError);
  assert.throws(() => parseMemory('1e99'), /out of range/);
});

test('formats recommendations the way users read them', () => {
  assert.equal(formatCpu(250), '250m');
  assert.equal(formatCpu(2000), '2');
  assert.equal(formatCpu(1500), '1500m');
  assert.equal(formatCpu(24.2), '25m');
  assert.equal(formatMemory(536870912), '512Mi');
  assert.equal(formatMemory(1073741824), '1Gi');
  assert.equal(formatMemory(1610612736), '1536Mi');
  assert.equal(formatMemory(129000000), '129000000');
  assert.equal(formatMemory(102400), '100Ki');
  assert.equal(formatMemory(0), '0');
  assert.throws(() => formatMemory(Number.NaN), QuantityError);
});

test('round trips: format then parse gives the same value', () => {
  for (const m of [1, 25, 999, 1000, 1001, 123456]) assert.equal(parseCpu(formatCpu(m)), m);
  for (const b of [1, 1023, 1024, 262144000, 2 ** 33, 129000000]) assert.equal(parseMemory(formatMemory(b)), b);
  assert.equal(roundUpToMiB(1), 1048576);
  assert.equal(roundUpToMiB(1048576), 1048576);
});

test('parsed quantities are remembered: the same value every time, errors every time, and a bounded number kept', () => {
  const inputs = ['250m', ' 250m ', '1.5', '512Mi', '129M', '0.5m', '1e9', '128974848000m'];
  const first = inputs.map((q) => [parseCpu(q), parseMemory(q)]);
  for (let i = 0; i < 3; i++)
    assert.deepEqual(
      inputs.map((q) => [parseCpu(q), parseMemory(q)]),
      first,
    );
  for (let i = 0; i < 2; i++) {
    assert.throws(() => parseCpu('-100m'), /negative/);
    assert.throws(() => parseMemory('1MB'), QuantityError);
  }
  for (let i = 0; i < 3 * QUANTITY_CACHE_LIMIT; i++) {
    assert.equal(parseCpu(`${i}m`), i);
    assert.equal(parseMemory(`${i}Ki`), i * 1024);
  }
  assert.ok(quantityCacheSize() <= 2 * QUANTITY_CACHE_LIMIT, `${quantityCacheSize()} remembered`);
  assert.deepEqual(
    inputs.map((q) => [parseCpu(q), parseMemory(q)]),
    first,
  );
});
