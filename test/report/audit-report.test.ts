/**
 * The audit's pure parts: verdicts with their 10% tolerance, waste and shortfall, the trend
 * against a previous summary (changed, new and gone workload containers), reading a previous
 * report (a summary or a whole report; anything else is a warning naming its source), the usage
 * outline's bucket peaks and the chart's path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assess, buildAudit, summaryOf, type AuditReport } from '../../src/report/audit/audit-report.ts';
import { renderAuditHtml } from '../../src/report/audit/audit-html.ts';
import { completeAudit } from '../../src/report/audit/audit-run.ts';
import { parseSummary, serializeSummary } from '../../src/report/audit/audit-summary.ts';
import { readPrevious } from '../../src/report/audit/previous-report.ts';
import { UsageOutline } from '../../src/report/audit/usage-outline.ts';
import { usagePath, usageChart } from '../../src/report/audit/usage-chart.ts';
import { reportBaseName, reportsToPrune } from '../../src/report/audit/report-files.ts';
import { OwnerIndex } from '../../src/metrics/owner-resolution.ts';
import { rowId } from '../../src/report/report-rows.ts';
import { reportRow } from './report-row-builder.ts';

const MiB = 2 ** 20;
const NOW = Date.UTC(2026, 0, 9);

const row = reportRow;

test('verdicts: over below 90% of the request, under above 110%, fit between, unknown without both', () => {
  assert.deepEqual(assess(1000, 899, 2), { waste: 202, shortfall: 0, verdict: 'over' });
  assert.deepEqual(assess(1000, 900, 2), { waste: 200, shortfall: 0, verdict: 'fit' });
  assert.deepEqual(assess(1000, 1100, 3), { waste: 0, shortfall: 300, verdict: 'fit' });
  assert.deepEqual(assess(1000, 1101, 3), { waste: 0, shortfall: 303, verdict: 'under' });
  assert.deepEqual(assess(null, 500, 1), { waste: null, shortfall: null, verdict: 'unknown' });
});

test('the report: under first, then over by waste; trend against the previous summary, new and gone rows', () => {
  const previous = parseSummary(
    serializeSummary({
      generatedAt: '2026-01-08T00:00:00.000Z',
      rows: [
        {
          namespace: 'shop',
          kind: 'Deployment',
          name: 'web',
          container: 'app',
          pods: 2,
          cpuRequest: 500,
          cpuTarget: 200,
          memoryRequest: 100 * MiB,
          memoryTarget: 100 * MiB,
        },
        {
          namespace: 'shop',
          kind: 'Deployment',
          name: 'old',
          container: 'app',
          pods: 1,
          cpuRequest: 100,
          cpuTarget: 100,
          memoryRequest: null,
          memoryTarget: null,
        },
      ],
    }),
  );
  const report = buildAudit({
    rows: [
      row('web', { request: 500, target: 400 }),
      row('big', { request: 2000, target: 100 }),
      row('hungry', { request: 100, target: 300 }),
      row('new', { request: 100, target: 100 }),
    ],
    now: NOW,
    historyMs: 2 * 86_400_000,
    strategy: 'tailor',
    previous: { summary: previous, source: 'dir:/reports' },
  });
  assert.deepEqual(
    report.workloads.map((w) => [w.workload.name, w.verdict]),
    [
      ['hungry', 'under'],
      ['big', 'over'],
      ['web', 'over'],
      ['new', 'fit'],
    ],
  );
  const web = report.workloads.find((w) => w.workload.name === 'web')!;
  assert.deepEqual(web.trend, {
    new: false,
    cpu: { waste: 200 - 600, shortfall: 0, target: 200, request: 0 },
    memory: { waste: 0, shortfall: 0, target: 0, request: 0 },
  });
  assert.equal(report.workloads.find((w) => w.workload.name === 'new')!.trend!.new, true);
  assert.deepEqual(report.gone, [{ namespace: 'shop', workload: { kind: 'Deployment', name: 'old' }, container: 'app' }]);
  assert.deepEqual(report.totals.cpu, { waste: 200 + 3800, shortfall: 400 });
  // Compared over the rows present now: web's waste went from 600 to 200.
  assert.deepEqual(report.totals.trend!.cpu, { waste: 4000 - 600, shortfall: 400 });
  assert.deepEqual(report.totals.workloads, { over: 2, under: 1, fit: 1, unknown: 0 });
  // A summary written before Tailor kept the strategy: unknown, so not said to have changed.
  assert.deepEqual(report.previous, { generatedAt: '2026-01-08T00:00:00.000Z', source: 'dir:/reports', strategy: null, strategyChanged: false });
  // The summary of a report reads back as the same rows.
  assert.deepEqual(parseSummary(serializeSummary(summaryOf(report))), summaryOf(report));
});

test('the summary keeps the strategy, and a trend against another strategy says so in the JSON, the HTML and a warning', async () => {
  const first = buildAudit({ rows: [row('web', { request: 500, target: 400 })], now: NOW - 86_400_000, historyMs: 86_400_000, strategy: 'tailor' });
  const stored = serializeSummary(summaryOf(first));
  assert.equal(parseSummary(stored).strategy, 'tailor');
  const fromReport = readPrevious(JSON.stringify(first), 'last.json');
  assert.ok('summary' in fromReport);
  assert.equal(fromReport.summary.strategy, 'tailor');

  const warnings: string[] = [];
  let emitted: AuditReport | undefined;
  const report = await completeAudit({
    rows: [row('web', { request: 500, target: 300 })],
    now: NOW,
    historyMs: 86_400_000,
    strategy: 'tailor-low-churn',
    previousFile: { text: stored, source: 'dir:/reports' },
    warn: (line) => warnings.push(line),
    emit: async (r) => {
      emitted = r;
    },
  });
  assert.equal(emitted, report);
  assert.deepEqual(report.previous, { generatedAt: first.generatedAt, source: 'dir:/reports', strategy: 'tailor', strategyChanged: true });
  assert.deepEqual(warnings, [
    'strategy changed from tailor to tailor-low-churn: trend not comparable (the previous report, dir:/reports, recommended with tailor; this one with tailor-low-churn)',
  ]);
  // The trend is still there, with the sentence beside it.
  assert.deepEqual(report.totals.trend!.cpu, { waste: (200 - 100) * 2, shortfall: 0 }); // two pods
  const html = renderAuditHtml(report);
  assert.match(html, /<th>since [^<]+<br><span class="not-comparable">strategy changed from tailor to tailor-low-churn: trend not comparable<\/span><\/th>/);
  assert.match(html, /<strong class="not-comparable">strategy changed from tailor to tailor-low-churn: trend not comparable<\/strong>/);

  // The same strategy: nothing said.
  const same = buildAudit({
    rows: [row('web', { request: 500, target: 300 })],
    now: NOW,
    historyMs: 86_400_000,
    strategy: 'tailor',
    previous: { summary: parseSummary(stored), source: 'dir:/reports' },
  });
  assert.equal(same.previous!.strategyChanged, false);
  assert.doesNotMatch(renderAuditHtml(same), /not comparable/);
  assert.equal(parseSummary('{"kind":"TailorAuditSummary","schemaVersion":1,"generatedAt":"2026-01-01T00:00:00Z","rows":[]}').strategy, undefined);
});

test('a previous report: a summary or a whole JSON report is read; anything else is a warning naming it', () => {
  const report = buildAudit({ rows: [row('web', { request: 500, target: 400 })], now: NOW, historyMs: 86_400_000, strategy: 'tailor' });
  const fromReport = readPrevious(JSON.stringify(report), 'last.json');
  assert.ok('summary' in fromReport);
  assert.deepEqual(fromReport.summary, summaryOf(report));
  for (const [text, why] of [
    ['{"kind":', /not JSON/],
    ['[]', /kind is undefined, expected TailorAuditSummary/],
    ['{"kind":"TailorAuditSummary","schemaVersion":2,"generatedAt":"2026-01-01T00:00:00Z","rows":[]}', /schemaVersion 2 is not supported/],
    ['{"kind":"TailorAuditSummary","schemaVersion":1,"generatedAt":"2026-01-01T00:00:00Z","rows":[["a","b"]]}', /rows\[0\] is not \[namespace/],
    ['{"kind":"TailorAuditSummary","schemaVersion":1,"generatedAt":"2026-01-01T00:00:00Z","strategy":7,"rows":[]}', /strategy is not a string/],
    [JSON.stringify({ ...report, workloads: [{ namespace: 'x' }] }), /rows\[0\] is not/],
  ] as const) {
    const got = readPrevious(text, 'configmap:tailor-system/tailor-audit');
    assert.ok('warning' in got, text);
    assert.match(got.warning, /^the previous report in configmap:tailor-system\/tailor-audit cannot be read: /);
    assert.match(got.warning, why);
    assert.match(got.warning, /this report has no trend$/);
  }
});

test('the usage outline keeps the peak of every pod per bucket, in millicores and bytes', () => {
  const owners = new OwnerIndex([
    { namespace: 'shop', kind: 'Pod', name: 'a', ownerKind: 'StatefulSet', ownerName: 'db' },
    { namespace: 'shop', kind: 'Pod', name: 'b', ownerKind: 'StatefulSet', ownerName: 'db' },
  ]);
  const outline = new UsageOutline(owners, 0, 1000, 10);
  const key = (pod: string) => ({ namespace: 'shop', pod, container: 'app' });
  outline.cpu({ key: key('a'), times: [0, 50, 150, 999, 1000], values: [0.1, 0.3, 0.2, 0.4, 0.5] });
  outline.cpu({ key: key('b'), times: [60, 150, 160], values: [0.25, NaN, 0.25] });
  outline.memory({ key: key('a'), times: [500], values: [42] });
  const o = outline.get(rowId('shop', owners.workloadOf('shop', 'a'), 'app'))!;
  assert.deepEqual(owners.workloadOf('shop', 'b'), owners.workloadOf('shop', 'a'));
  assert.deepEqual(o.cpu, [300, 250, null, null, null, null, null, null, null, 500]);
  assert.deepEqual(o.memory, [null, null, null, null, null, 42, null, null, null, null]);
});

test('the chart: one line per run of samples, scaled to 10% above the highest value', () => {
  // The plot runs from y=13 (the scale's top) to y=73 (0), below the strip of the scale's text.
  assert.equal(usagePath([100, null, 50, 50], 100), 'M2 13 M199.3 43 L298 43');
  const svg = usageChart({ usage: [10, 20], request: 100, target: 50, label: 'cpu' });
  assert.match(svg, /<line class="request" x1="2" x2="298" y1="18.5" y2="18.5"\/>/);
  assert.match(svg, /<line class="target" x1="2" x2="298" y1="45.7" y2="45.7"\/>/);
  assert.doesNotMatch(usageChart({ usage: [null, null], request: null, target: null, label: 'x' }), /<path|<line/);
});

test('report files: stamped names sort by time; pruning keeps the newest audits and never names other files', () => {
  assert.equal(reportBaseName('2026-01-02T03:04:05.000Z'), 'audit-20260102T030405Z');
  const names = [
    'latest.html',
    'latest.json',
    'notes.txt',
    'audit-20260103T060000Z.html',
    'audit-20260103T060000Z.json',
    'audit-20260101T060000Z.html',
    'audit-20260102T060000Z.json',
    'audit-20260102T060000Z.html',
    'audit-20260101T060000Z.json',
  ];
  assert.deepEqual(reportsToPrune(names, 2), ['audit-20260101T060000Z.html', 'audit-20260101T060000Z.json']);
  assert.deepEqual(reportsToPrune(names, 3), []);
  assert.deepEqual(reportsToPrune(names, 1), [
    'audit-20260101T060000Z.html',
    'audit-20260101T060000Z.json',
    'audit-20260102T060000Z.html',
    'audit-20260102T060000Z.json',
  ]);
});

test('the chart says its scale when given a formatter', () => {
  assert.match(
    usageChart({ usage: [100, 600], request: 500, target: 700, label: 'cpu', topText: (top) => `${Math.round(top)}m` }),
    /<text class="scale" x="1" y="10">770m<\/text><\/svg>$/,
  );
});
