import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MatrixStreamSplitter } from '../../src/metrics/matrix-stream.ts';

const series = [
  {
    metric: { namespace: 'a', pod: 'p-{1}', container: 'c"[x]"\\' },
    values: [
      [1700000000, '0.5'],
      [1700000060, 'NaN'],
    ],
  },
  { metric: { namespace: 'b', pod: 'ü-ß', container: 'c' }, values: [[1700000000, '+Inf']] },
  { metric: {}, values: [] },
];
const answer = JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: series }, warnings: ['w "1"', 'w [2]'], infos: [] }, null, 1);

function split(text: string, sizes: (i: number) => number): { items: unknown[]; skeleton: unknown } {
  const items: unknown[] = [];
  const splitter = new MatrixStreamSplitter((item) => items.push(item));
  const bytes = Buffer.from(text);
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const end = Math.min(bytes.length, at + sizes(i));
    splitter.write(Buffer.from(bytes.subarray(at, end)));
    at = end;
  }
  return { items, skeleton: splitter.end() };
}

test('each series comes out parsed, the rest as a skeleton with an empty result, whatever the chunking', () => {
  const expected = { items: series, skeleton: { status: 'success', data: { resultType: 'matrix', result: [] }, warnings: ['w "1"', 'w [2]'], infos: [] } };
  // One byte at a time (every boundary, inside multi-byte UTF-8 too), a few irregular sizes, all at once.
  for (const sizes of [() => 1, (i: number) => 1 + ((i * 7) % 13), () => 64, () => 1 << 20]) assert.deepEqual(split(answer, sizes), expected);
});

test('an error answer has no series and keeps its words', () => {
  const error = { status: 'error', errorType: 'bad_data', error: 'parse error' };
  assert.deepEqual(
    split(JSON.stringify(error), () => 3),
    { items: [], skeleton: error },
  );
});

test('an answer cut short is an error, not a partial result taken as whole', () => {
  const splitter = new MatrixStreamSplitter(() => {});
  splitter.write(Buffer.from(answer.slice(0, answer.length / 2)));
  assert.throws(() => splitter.end(), /ended in the middle/);
});
