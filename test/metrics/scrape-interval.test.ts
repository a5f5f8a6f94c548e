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

test('the CPU query takes the rate window; the detection query reads raw samples of the namespaces', () => {
  const cfg = queryConfig();
  assert.match(cpuUsageQuery(cfg, ['a'], 60 * S, 1200 * S), /rate\(container_cpu_usage_seconds_total\{namespace="a",container!="",container!="POD"\}\[1200s\]\)/);
  assert.equal(rawCpuSamplesQuery(cfg, ['a'], 3600 * S), 'container_cpu_usage_seconds_total{namespace="a",container!="",container!="POD"}[3600s]');
});
