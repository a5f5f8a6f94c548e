/**
 * Several clusters in every format, on rows built here (src/report/clusters.ts and its users): the
 * same workload in two clusters stays two rows, each format names the cluster, the totals come per
 * cluster and over all, a cluster not read is named; a single-cluster report has no cluster anywhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReport, REPORT_FORMATS } from '../../src/report/report-format.ts';
import type { RowJson } from '../../src/report/report-json.ts';
import { withCluster } from '../../src/report/clusters.ts';
import { buildAudit, summaryOf } from '../../src/report/audit/audit-report.ts';
import { renderAuditHtml } from '../../src/report/audit/audit-html.ts';
import { parseSummary, serializeSummary } from '../../src/report/audit/audit-summary.ts';
import { reportRow } from './report-row-builder.ts';

const NOW = Date.UTC(2026, 0, 9);
const DAY = 86_400_000;
const PRICES = { cpuHour: 0.03, memoryGiBHour: 0.004, currency: 'USD' };
/** web in east wastes 300m x 2 pods; web in west falls 200m x 2 pods short. */
const counted = (target: number) => {
  const r = reportRow('web', { request: 500, target });
  return { ...r, cpu: { ...r.cpu, savings: (500 - target) * r.pods } };
};
const ROWS = [...withCluster([counted(200)], 'east'), ...withCluster([counted(700)], 'west')];
const FAILED = [{ cluster: 'north', reason: 'Prometheus holds no series of it' }];

test('recommend over two clusters: the cluster in every format, the totals per cluster, then over all, then who is missing', () => {
  const json = JSON.parse(renderReport(ROWS, 'json', undefined, PRICES)) as RowJson[];
  assert.deepEqual(
    json.map((r) => [r.cluster, r.workload.name, r.monthlySaving?.total]),
    [
      ['east', 'web', 13.14],
      ['west', 'web', -8.76],
    ],
  );
  assert.deepEqual(Object.keys(json[0]!).slice(0, 2), ['cluster', 'namespace']);
  const table = renderReport(ROWS, 'table', undefined, PRICES, FAILED);
  const lines = table.trimEnd().split('\n');
  assert.deepEqual(
    lines.slice(-7).map((l) => l.replace(/: (estimated savings|monthly saving) if applied: (cpu [^,]+|[-\d.]+ USD).*/, ': $1 $2')),
    [
      'cluster east: estimated savings cpu +600m',
      'cluster east: monthly saving 13.14 USD',
      'cluster west: estimated savings cpu -400m',
      'cluster west: monthly saving -8.76 USD',
      'all clusters: estimated savings cpu +200m',
      'all clusters: monthly saving 4.38 USD',
      'cluster north: not reported: Prometheus holds no series of it',
    ],
  );
  assert.match(renderReport(ROWS, 'csv'), /^cluster,namespace,.*\neast,shop,Deployment,web,app,.*\nwest,shop,/s);
  const html = renderReport(ROWS, 'html', undefined, PRICES, FAILED);
  assert.match(html, /<td>east<\/td><td>shop<\/td><td>Deployment\/web<\/td>/);
  assert.match(html, /<p>cluster north: not reported: Prometheus holds no series of it<\/p>/);
});

test('a single-cluster report has no cluster in any format', () => {
  const rows = [reportRow('web', { request: 500, target: 200 })];
  for (const format of REPORT_FORMATS) assert.doesNotMatch(renderReport(rows, format, undefined, PRICES), /cluster/i, format);
  const report = buildAudit({ rows, now: NOW, historyMs: DAY, strategy: 'tailor', prices: PRICES });
  assert.equal('clusters' in report, false);
  assert.doesNotMatch(JSON.stringify(report), /cluster/);
  // The page's style sheet has the rule for a cluster's heading row; its content has no cluster.
  assert.doesNotMatch(renderAuditHtml(report).replace(/<style>.*<\/style>/s, ''), /cluster/i);
  assert.doesNotMatch(serializeSummary(summaryOf(report)), /cluster/);
});

test('audit over two clusters: grouped by cluster, totals per cluster, the trend per cluster, a cluster not read is not "gone"', () => {
  const first = buildAudit({ rows: ROWS, now: NOW - DAY, historyMs: DAY, strategy: 'tailor', prices: PRICES });
  assert.deepEqual(
    first.clusters!.map((c) => [c.name, c.workloads.over, c.workloads.under, c.cpu, c.monthlySaving?.total]),
    [
      ['east', 1, 0, { waste: 600, shortfall: 0 }, 13.14],
      ['west', 0, 1, { waste: 0, shortfall: 400 }, -8.76],
    ],
  );
  // Grouped by cluster even though west's row is under-provisioned (under comes first within a cluster).
  assert.deepEqual(
    first.workloads.map((w) => w.cluster),
    ['east', 'west'],
  );
  const stored = parseSummary(serializeSummary(summaryOf(first)));
  assert.deepEqual(
    stored.rows.map((r) => r.cluster),
    ['east', 'west'],
  );
  // The next audit: east's web now wastes less, west could not be read.
  const next = buildAudit({
    rows: withCluster([reportRow('web', { request: 500, target: 400 })], 'east'),
    now: NOW,
    historyMs: DAY,
    strategy: 'tailor',
    previous: { summary: stored, source: 'dir:/reports' },
    failures: [{ cluster: 'west', reason: 'connect ECONNREFUSED' }],
  });
  assert.deepEqual(next.workloads[0]!.trend?.cpu.waste, 200 - 600);
  assert.deepEqual(next.gone, []);
  assert.deepEqual(next.clustersNotReported, [{ name: 'west', reason: 'connect ECONNREFUSED' }]);
  const html = renderAuditHtml(next);
  assert.match(html, /<tbody class="cluster-group" data-cluster="east">/);
  assert.match(html, /<span class="where">cluster east · shop · container app<\/span>/);
  assert.match(html, /<li data-cluster="west">cluster west: not reported: connect ECONNREFUSED<\/li>/);
});
