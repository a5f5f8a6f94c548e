/**
 * The audit's chart: a usage series of one point (27 minutes of data in an 8-day window) draws a
 * visible dot, not a path of one `M` that draws nothing; a bucket alone between gaps does too; the
 * texts sit in strips outside the plot, so no line crosses them; the SVG has a viewBox and no
 * fixed size, for the page's CSS to fit it to its column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'node-html-parser';
import { CHART_HEIGHT, CHART_WIDTH, usageChart, usagePath, usagePoints } from '../../../src/report/audit/usage-chart.ts';

const svgOf = (html: string) => parse(html).querySelector('svg')!;
const num = (el: { getAttribute(n: string): string | undefined }, name: string) => Number(el.getAttribute(name));

test('a single-point usage series draws a visible mark inside the plot', () => {
  const svg = svgOf(usageChart({ usage: [420], request: 500, target: 450, label: 'cpu' }));
  const dots = svg.querySelectorAll('circle.usage-point');
  assert.equal(dots.length, 1);
  const dot = dots[0]!;
  assert.ok(num(dot, 'r') >= 2, `radius ${dot.getAttribute('r')}`);
  const frame = svg.querySelector('rect.frame')!;
  assert.ok(num(dot, 'cx') > 0 && num(dot, 'cx') < CHART_WIDTH);
  assert.ok(num(dot, 'cy') > num(frame, 'y') && num(dot, 'cy') < num(frame, 'y') + num(frame, 'height'));
});

test('the one point of a long window (the rest empty) is a dot too; runs of two or more are lines without dots', () => {
  const usage = [...new Array<number | null>(99).fill(null), 300];
  assert.equal(svgOf(usageChart({ usage, request: null, target: null, label: 'x' })).querySelectorAll('circle.usage-point').length, 1);
  assert.equal(usagePoints([1, 2, null, 3, null, 4, 5], 10).match(/<circle/g)?.length, 1);
  assert.equal(usagePoints([1, 2, 3], 10), '');
  assert.match(usagePath([1, 2, null, 3], 10), /^M\S+ \S+ L\S+ \S+ M\S+ \S+$/);
});

test('the scale and time labels sit outside the plot: no request, recommendation or usage line crosses them', () => {
  const svg = svgOf(
    usageChart({
      usage: [100, 600, 650],
      request: 700,
      target: 640,
      label: 'cpu',
      topText: () => 'CPU, scale to 770m',
      xLabels: { start: '01-01 06:00', end: '01-09 06:00' },
    }),
  );
  const frame = svg.querySelector('rect.frame')!;
  const plotTop = num(frame, 'y');
  const plotBottom = plotTop + num(frame, 'height');
  const texts = svg.querySelectorAll('text');
  assert.equal(texts.length, 3);
  const [scale, ...times] = texts;
  // A 9px text's glyphs reach from its baseline up to about 9px above it.
  assert.ok(num(scale!, 'y') <= plotTop, `scale text at y=${scale!.getAttribute('y')}, plot from ${plotTop}`);
  for (const t of times) assert.ok(num(t, 'y') - 9 >= plotBottom, `time text at y=${t.getAttribute('y')}, plot to ${plotBottom}`);
  for (const line of svg.querySelectorAll('line'))
    assert.ok(num(line, 'y1') > plotTop && num(line, 'y1') < plotBottom, `${line.getAttribute('class')} at ${line.getAttribute('y1')}`);
  // The highest value, the request, stays below the scale's text.
  assert.ok(num(svg.querySelector('line.request')!, 'y1') - 1 > num(scale!, 'y'));
});

test('the chart has a viewBox and no fixed width or height', () => {
  const svg = svgOf(usageChart({ usage: [1, 2], request: 1, target: 1, label: 'x' }));
  assert.equal(svg.getAttribute('viewBox'), `0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`);
  assert.equal(svg.getAttribute('width'), undefined);
  assert.equal(svg.getAttribute('height'), undefined);
});
