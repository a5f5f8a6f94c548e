import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapIntervals, lowerFrontier, quantile, slackAtRisk, type RiskPoint } from '../../bench/risk-frontier.ts';
import { beatsLeastRisk, compareAtRisk, AXES, lossContainers, niceTicks, riskStatistics, type PointFigures, type TraceRisk } from '../../bench/risk-report.ts';
import { QualityTally } from '../../src/replay/quality-tally.ts';

const p = (risk: number, slack: number, label = `${risk}/${slack}`): RiskPoint => ({ risk, slack, label });

test('the lower frontier keeps the points nothing beats on both risk and slack, by increasing risk', () => {
  const frontier = lowerFrontier([p(3, 42), p(1, 50), p(2, 45), p(4, 30), p(2, 40)]);
  assert.deepEqual(
    frontier.map((x) => [x.risk, x.slack]),
    [
      [1, 50],
      [2, 40],
      [4, 30],
    ],
  );
});

test('a point with the same slack but more risk is not on the frontier; NaN points are dropped', () => {
  assert.deepEqual(
    lowerFrontier([p(1, 50), p(2, 50), p(NaN, 10)]).map((x) => [x.risk, x.slack]),
    [[1, 50]],
  );
});

const POINTS = [p(1, 50, 'a'), p(2, 40, 'b'), p(4, 30, 'c'), p(6, 35, 'd'), p(3, 48, 'e')];

test('between two frontier points the slack is interpolated linearly: risk 3 between (2, 40) and (4, 30) is 35', () => {
  const at = slackAtRisk(POINTS, 3);
  assert.equal(at.kind, 'interpolated');
  assert.ok(at.kind === 'interpolated');
  assert.equal(at.slack, 35);
  assert.equal(at.below.label, 'b');
  assert.equal(at.above.label, 'c');
  // a quarter of the way from (1, 50) to (2, 40)
  const quarter = slackAtRisk(POINTS, 1.25);
  assert.ok(quarter.kind === 'interpolated');
  assert.equal(quarter.slack, 47.5);
});

test("on a frontier point the slack is that point's, and the dominated point (3, 48) plays no part", () => {
  const at = slackAtRisk(POINTS, 2);
  assert.ok(at.kind === 'interpolated');
  assert.equal(at.slack, 40);
  assert.equal(at.below.label, 'b');
  assert.equal(at.above.label, 'b');
  const first = slackAtRisk(POINTS, 1);
  assert.ok(first.kind === 'interpolated');
  assert.equal(first.slack, 50);
});

test("past the riskiest frontier point but within the sweep the slack stays that point's (flat), never lower", () => {
  const at = slackAtRisk(POINTS, 5);
  assert.equal(at.kind, 'flat');
  assert.ok(at.kind === 'flat');
  assert.equal(at.slack, 30);
  assert.equal(at.below.label, 'c');
});

test('outside the swept risks there is no figure: no extrapolation', () => {
  assert.deepEqual(slackAtRisk(POINTS, 0.5), { kind: 'outside', side: 'below', min: 1, max: 6, least: POINTS[0] });
  assert.deepEqual(slackAtRisk(POINTS, 7), { kind: 'outside', side: 'above', min: 1, max: 6, least: POINTS[0] });
});

test('quantiles interpolate between order statistics', () => {
  assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
  assert.equal(quantile([1, 2, 3, 4], 0), 1);
  assert.equal(quantile([1, 2, 3, 4], 1), 4);
});

test('the paired bootstrap of a constant difference is that constant; of a varying one it brackets the mean', () => {
  const a = [10, 20, 30, 40];
  const constant = bootstrapIntervals(4, (idx) => new Map([['d', idx.reduce((s, i) => s + (a[i]! + 1 - a[i]!), 0) / idx.length]]));
  assert.deepEqual(constant.get('d'), { low: 1, high: 1, defined: 1000, resamples: 1000 });
  const mean = bootstrapIntervals(4, (idx) => new Map([['m', idx.reduce((s, i) => s + a[i]!, 0) / idx.length]]));
  const m = mean.get('m');
  assert.ok(m && m.low < 25 && m.high > 25 && m.low >= 10 && m.high <= 40);
  // the same seed gives the same interval
  assert.deepEqual(
    bootstrapIntervals(4, (idx) => new Map([['m', idx.reduce((s, i) => s + a[i]!, 0) / idx.length]])),
    mean,
  );
});

test('a statistic defined in fewer than 95% of the resamples gets no interval', () => {
  const out = bootstrapIntervals(2, (idx) => new Map([['x', idx[0] === 0 ? 1 : null]]));
  assert.equal(out.get('x'), null);
});

function figures(cpuShortfall: number, cpuSlack: number, ooms: number | null = null, memSlack: number | null = null): PointFigures {
  return { cpuSlack, cpuShortfall, memSlack, ooms, oomDays: ooms === null ? null : ooms / 10 };
}

const SWEEP: TraceRisk['sweep'] = [
  { label: 'p0.9 m0.15', isDefault: true, figures: figures(4, 50, 100, 40) },
  { label: 'p0.8 m0', isDefault: false, figures: figures(8, 30, 300, 20) },
  { label: 'p0.99 m0.3', isDefault: false, figures: figures(1, 70, 10, 60) },
];

test("a strategy at CPU shortfall 6% is set against vpa's 40% there (halfway from 50% at 4 to 30% at 8)", () => {
  const cpu = AXES.find((a) => a.id === 'cpu')!;
  const c = compareAtRisk(SWEEP, figures(6, 36), cpu);
  assert.ok(c);
  assert.equal(c.vpa.kind, 'interpolated');
  assert.equal(c.difference, -4);
});

test('memory against OOM kills: 55 kills lies halfway between 10 (60%) and 100 (40%): vpa 50%', () => {
  const memory = AXES.find((a) => a.id === 'memory')!;
  const c = compareAtRisk(SWEEP, figures(6, 36, 55, 45), memory);
  assert.ok(c);
  assert.equal(c.difference, -5);
  assert.equal(compareAtRisk(SWEEP, figures(6, 36), memory), null, 'no memory, no comparison');
  assert.equal(compareAtRisk(SWEEP, figures(6, 36, 5, 45), memory)?.difference, null, 'fewer kills than any vpa setting: outside');
});

test("the bootstrap statistics are the equal-risk differences and the differences at vpa's defaults", () => {
  const stats = riskStatistics(SWEEP, { 'tailor-low-churn': figures(6, 36, 55, 45), 'oracle-rules': figures(0, 20, 0, 10) });
  assert.equal(stats.get('tailor-low-churn:cpu'), -4);
  assert.equal(stats.get('tailor-low-churn:memory'), -5);
  assert.equal(stats.get('oracle-rules:cpu'), null);
  assert.equal(stats.get('defaults:cpuSlack'), -14);
  assert.equal(stats.get('defaults:ooms'), -45);
});

test('axis ticks are round numbers', () => {
  assert.deepEqual(niceTicks(0, 48), [0, 10, 20, 30, 40]);
  assert.deepEqual(niceTicks(20, 90), [20, 40, 60, 80]);
});

test('the containers behind a loss are those whose figure rose most, as shares of all the rises', () => {
  const tally = (name: string, memorySlackSum: number) => Object.assign(new QualityTally(name), { memorySlackSum });
  const loss = lossContainers('memSlack', [tally('a', 130), tally('b', 50), tally('c', 110)], [tally('a', 100), tally('b', 60), tally('c', 100)]);
  assert.deepEqual(loss, {
    figure: 'memSlack',
    containers: [
      { name: 'a', share: 0.75 },
      { name: 'c', share: 0.25 },
    ],
  });
});

test("below the sweep with less slack than vpa's least-risk setting, a strategy beats that setting on both", () => {
  const cpu = AXES.find((a) => a.id === 'cpu')!;
  const c = compareAtRisk(SWEEP, figures(0.5, 49), cpu);
  assert.ok(c && c.vpa.kind === 'outside');
  assert.equal(c.difference, null);
  assert.equal(beatsLeastRisk(c), true);
  const worse = compareAtRisk(SWEEP, figures(0.5, 80), cpu);
  assert.ok(worse);
  assert.equal(beatsLeastRisk(worse), false);
});
