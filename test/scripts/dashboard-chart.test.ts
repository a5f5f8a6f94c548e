import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clipTop, drawnSeries, panelSpec } from '../../scripts/dashboard-chart.ts';

test('clipTop cuts only series more than 10x above the magnitude of every lower one', () => {
  const r = (...maxima: number[]) => maxima.map((max) => ({ min: 0, max }));
  assert.equal(clipTop(r(2, 3, 4000)), 4.5);
  assert.equal(clipTop(r(2, 3, 25)), undefined);
  assert.equal(clipTop(r(0, 0, 1)), undefined, 'over series at zero only, the axis would stop at 0: nothing is cut');
  assert.equal(
    clipTop([
      { min: -8.3, max: 0 },
      { min: 0, max: 0.465 },
      { min: 0, max: 0.04 },
    ]),
    undefined,
    'savings: a large negative outweighs the positives',
  );
  assert.equal(clipTop(r(1, 100, 100_000)), 1.5, 'each step over 10x is cut');
});

test('drawnSeries leaves out the series that stay at zero, unless all do', () => {
  const zero = {
    name: 'z',
    points: [
      [1, 0],
      [2, 0],
    ] as const,
  };
  const one = {
    name: 'o',
    points: [
      [1, 0],
      [2, 1],
    ] as const,
  };
  assert.deepEqual(
    drawnSeries([zero, one]).map((s) => s.name),
    ['o'],
  );
  assert.deepEqual(
    drawnSeries([zero]).map((s) => s.name),
    ['z'],
  );
});

test('panelSpec: bytes in MiB, time from the first sample, the off-scale series named and capped', () => {
  const MiB = 1024 * 1024;
  const spec = panelSpec(
    {
      title: 'Memory',
      unit: 'bytes',
      series: [
        {
          name: 'usage',
          points: [
            [100, 100 * MiB],
            [102, 120 * MiB],
          ],
        },
        { name: 'upper', points: [[100, 100_000 * MiB]] },
      ],
    },
    400,
    200,
  ) as unknown as { data: { values: Array<{ t: number; v: number; series: string }> }; encoding: { y: { title: string; scale?: { domainMax: number } } } };
  assert.equal(spec.encoding.y.title, 'MiB');
  assert.equal(spec.encoding.y.scale?.domainMax, 180);
  assert.deepEqual(spec.data.values, [
    { t: 0, v: 100, series: 'usage' },
    { t: 2, v: 120, series: 'usage' },
    { t: 0, v: 180, series: 'upper (off scale)' },
  ]);
});
