import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rateWindowMs, typicalInterval } from '../../src/metrics/scrape-interval.ts';
import { cpuUsageQuery, rawCpuSamplesQuery } from '../../src/metrics/promql-queries.ts';
import { queryConfig } from '../../src/metrics/metric-names.ts';

const S = 1000;

test('the rate window is 4 scrape intervals, at least the step, the step while the interval is unknown', () => {
  assert.equal(rateWindowMs(60 * S, 15 * S), 60 * S);
  assert.equal(rateWindowMs(60 * S, 30 * S), 120 * S);
  assert.equal(rateWindowMs(60 * S, 300 * S), 1200 * S);
  assert.equal(rateWindowMs(600 * S, 30 * S), 600 * S);
  assert.equal(rateWindowMs(60 * S, undefined), 60 * S);
});

test('the typical interval is the median gap, robust to a missed scrape; none without two samples', () => {
  assert.equal(typicalInterval([[0, 300 * S, 600 * S, 900 * S, 1500 * S]]), 300 * S);
  assert.equal(typicalInterval([[0, 15 * S, 30 * S], [7 * S, 22 * S], [5 * S]]), 15 * S);
  assert.equal(typicalInterval([[5 * S], []]), undefined);
  assert.equal(typicalInterval([]), undefined);
});

test("the sparsest series decide: cAdvisor's 15 s container samples beside a 5 s endpoint give 15 s", () => {
  const every = (gap: number, n: number) => Array.from({ length: n }, (_, i) => i * gap);
  const fast = [every(5 * S, 100), every(5 * S, 100)];
  const slow = Array.from({ length: 8 }, () => every(15 * S, 9));
  // Pooled, the 198 gaps of 5 s outnumber the 64 of 15 s (median 5 s); per series, eight of ten are 15 s apart.
  assert.equal(typicalInterval([...fast, ...slow]), 15 * S);
  // One odd series among 23 (a container housekept every minute) does not widen every window.
  assert.equal(typicalInterval([...fast, ...Array.from({ length: 20 }, () => every(5 * S, 9)), every(60 * S, 3)]), 5 * S);
});

test('the CPU query takes the rate window; the detection query reads raw samples of the namespaces', () => {
  const cfg = queryConfig();
  assert.match(
    cpuUsageQuery(cfg, ['a'], 60 * S, 1200 * S),
    /rate\(container_cpu_usage_seconds_total\{namespace="a",container!="",container!="POD"\}\[1200s\]\)/,
  );
  assert.equal(rawCpuSamplesQuery(cfg, ['a'], 3600 * S), 'container_cpu_usage_seconds_total{namespace="a",container!="",container!="POD"}[3600s]');
});
