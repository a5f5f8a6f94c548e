/**
 * The audit page (issue 28, item 9): the header's history is the span the data covered, not the
 * window asked for; a workload with 27 minutes of data draws a visible usage mark; rows of low
 * confidence show their verdict neutral, not red or orange; each workload has its recommended
 * resources as YAML that parses to the recommendation in m/Mi/Gi, with a copy button that needs
 * no external script; and the layout has nothing fixed wider than a laptop (1280 px), no more
 * columns than fit one, and a stacked layout for phones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { parse as parseYaml } from 'yaml';
import { OwnerIndex } from '../../../src/metrics/owner-resolution.ts';
import { STACK_BELOW_PX, historyText, renderAuditHtml, spanText } from '../../../src/report/audit/audit-html.ts';
import { buildAudit, type AuditReport } from '../../../src/report/audit/audit-report.ts';
import { UsageOutline } from '../../../src/report/audit/usage-outline.ts';
import { cpuText, memoryHuman } from '../../../src/report/report-quantities.ts';
import type { ReportRow } from '../../../src/report/report-rows.ts';
import { reportRow } from '../report-row-builder.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MiB = 2 ** 20;
const NOW = Date.UTC(2026, 0, 9, 6);
const HISTORY = 8 * DAY;

/** Rows of Deployments in `shop` (pods `<name>-0`), with CPU and memory samples every minute over their span. */
function audit(rows: ReportRow[], spans: Record<string, number>, previous = false): AuditReport {
  const names = rows.map((r) => r.workload.name);
  const owners = new OwnerIndex(names.map((n) => ({ namespace: 'shop', kind: 'Pod', name: `${n}-0`, ownerKind: 'Deployment', ownerName: n })));
  const outlines = new UsageOutline(owners, NOW - HISTORY, NOW, 100, MINUTE);
  for (const row of rows) {
    const span = spans[row.workload.name] ?? HISTORY;
    const times = Array.from({ length: Math.floor(span / MINUTE) + 1 }, (_, i) => NOW - span + i * MINUTE);
    const key = { namespace: 'shop', pod: `${row.workload.name}-0`, container: row.container };
    outlines.cpu({ key, times, values: times.map((t) => 0.1 + ((t / MINUTE) % 10) / 100) });
    outlines.memory({ key, times, values: times.map(() => 200 * MiB) });
  }
  return buildAudit({
    rows,
    outlines,
    now: NOW,
    historyMs: HISTORY,
    strategy: 'tailor',
    // The previous report had web as it is now.
    ...(previous
      ? {
          previous: {
            source: 'dir:/reports',
            summary: {
              generatedAt: new Date(NOW - DAY).toISOString(),
              rows: [
                {
                  namespace: 'shop',
                  kind: 'Deployment',
                  name: 'web',
                  container: 'app',
                  pods: 2,
                  cpuRequest: 500,
                  cpuTarget: 212,
                  memoryRequest: 100 * MiB,
                  memoryTarget: 100 * MiB,
                },
              ],
            },
          },
        }
      : {}),
  });
}

const young = (name: string, cpu: { request: number; target: number }): ReportRow => ({
  ...reportRow(name, cpu),
  confidence: 'low',
  historyMs: 27 * MINUTE,
  notes: ['no cpu/memory upper bound yet', 'low confidence: 27 min of history (24 h wanted)'],
});

const text = (e: HTMLElement | null) => e?.text.trim() ?? '';
const entry = (doc: HTMLElement, name: string) => doc.querySelector(`tbody[data-workload="shop/Deployment/${name}/app"]`)!;

test('the header says the history the data covered: 27 minutes of an 8-day window', () => {
  const report = audit([young('search', { request: 200, target: 450 })], { search: 27 * MINUTE });
  assert.deepEqual(report.data, { start: new Date(NOW - 27 * MINUTE).toISOString(), end: new Date(NOW).toISOString() });
  assert.deepEqual(report.window, { start: new Date(NOW - HISTORY).toISOString(), end: new Date(NOW).toISOString() });
  const doc = parseHtml(renderAuditHtml(report));
  assert.equal(
    text(doc.querySelector('#history')),
    'history: 27 min of data, 2026-01-09 05:33 UTC to 2026-01-09 06:00 UTC (8 days asked for; Prometheus holds no older samples)',
  );
  assert.doesNotMatch(text(doc.querySelector('#summary')), /8 days of/);
});

test('a window full of data: the header gives its span without "asked for"', () => {
  const report = audit([reportRow('web', { request: 500, target: 200 })], {});
  assert.equal(historyText(report), 'history: 8 days of data, 2026-01-01 06:00 UTC to 2026-01-09 06:00 UTC');
  assert.equal(historyText({ window: report.window, data: null }), 'history: no usage samples read (8 days asked for)');
  assert.deepEqual(
    [spanText(40_000), spanText(27 * MINUTE), spanText(5.5 * 60 * MINUTE), spanText(30 * 60 * MINUTE), spanText(8 * DAY)],
    ['40 s', '27 min', '5.5 h', '30 h', '8 days'],
  );
});

test('27 minutes of data draw a visible usage line across the chart, from the first sample', () => {
  const doc = parseHtml(renderAuditHtml(audit([young('search', { request: 200, target: 450 })], { search: 27 * MINUTE })));
  for (const svg of entry(doc, 'search').querySelectorAll('figure svg')) {
    const d = svg.querySelector('path.usage')?.getAttribute('d') ?? '';
    const xs = [...d.matchAll(/[ML]([\d.]+) /g)].map((m) => Number(m[1]));
    assert.ok(xs.length >= 15, `${xs.length} points: ${d}`);
    // The chart starts at the first sample: the line spans its width.
    assert.ok(Math.min(...xs) < 10 && Math.max(...xs) > 290, `x from ${Math.min(...xs)} to ${Math.max(...xs)}`);
    assert.deepEqual(svg.querySelectorAll('text').slice(1).map(text), ['01-09 05:33', '01-09 06:00']);
  }
});

test('rows of low confidence show their verdict neutral, saying so; others keep their colour', () => {
  const report = audit(
    [
      young('search', { request: 200, target: 450 }),
      { ...young('idle', { request: 900, target: 100 }) },
      reportRow('hungry', { request: 100, target: 300 }),
      reportRow('fat', { request: 900, target: 100 }),
    ],
    { search: 27 * MINUTE, idle: 27 * MINUTE },
  );
  const doc = parseHtml(renderAuditHtml(report));
  for (const [name, verdict] of [
    ['search', 'under'],
    ['idle', 'over'],
  ] as const) {
    const cell = entry(doc, name).querySelector('td.verdict')!;
    assert.deepEqual(cell.classList.value, ['verdict', 'low'], `${name}: ${cell.getAttribute('class')}`);
    assert.equal(text(cell), `${verdict}low confidence`);
  }
  assert.deepEqual(entry(doc, 'hungry').querySelector('td.verdict')!.classList.value, ['verdict', 'under']);
  assert.deepEqual(entry(doc, 'fat').querySelector('td.verdict')!.classList.value, ['verdict', 'over']);
  assert.match(text(doc.querySelector('#counts')), /2 of low confidence/);
  // Counts of 0 are grey.
  assert.deepEqual(
    doc
      .querySelectorAll('#counts .chip')
      .map((c) => [text(c), c.getAttribute('class')])
      .slice(0, 3),
    [
      ['2 under-provisioned', 'chip under'],
      ['2 over-provisioned', 'chip over'],
      ['0 fit', 'chip none'],
    ],
  );
});

test('each workload has its recommended resources as YAML that parses to the recommendation, with a copy button', () => {
  const app = reportRow('web', { request: 500, target: 212 }, { request: 512 * MiB, target: 1217381008 });
  const sidecar: ReportRow = { ...reportRow('web', { request: 100, target: 46 }, { request: 128 * MiB, target: 80 * MiB }), container: 'envoy' };
  const report = audit([app, sidecar, reportRow('api', { request: 300, target: 900 })], {});
  const doc = parseHtml(renderAuditHtml(report));
  const blocks = doc.querySelectorAll('details.yaml');
  assert.equal(blocks.length, 2, 'one per workload');
  const web = entry(doc, 'web').querySelector('details.yaml pre') ?? doc.querySelector('tbody[data-workload="shop/Deployment/web/envoy"] details.yaml pre');
  assert.ok(web, 'the YAML of web');
  const parsed = parseYaml(web.text) as { spec: { template: { spec: { containers: { name: string; resources: { requests: Record<string, string> } }[] } } } };
  const requests = Object.fromEntries(parsed.spec.template.spec.containers.map((c) => [c.name, c.resources.requests]));
  const w = (c: string) => report.workloads.find((x) => x.workload.name === 'web' && x.container === c)!;
  assert.deepEqual(requests, {
    app: { cpu: cpuText(w('app').cpu.target!), memory: memoryHuman(w('app').memory.target!) },
    envoy: { cpu: cpuText(w('envoy').cpu.target!), memory: memoryHuman(w('envoy').memory.target!) },
  });
  assert.deepEqual(requests['app'], { cpu: '212m', memory: '1161Mi' });
  // The copy button copies its <pre>; hidden until the page's own script shows it.
  const button = blocks[0]!.querySelector('button.copy')!;
  assert.equal(button.getAttribute('data-copy'), blocks[0]!.querySelector('pre')!.id);
  assert.equal(button.hasAttribute('hidden'), true);
  const scripts = doc.querySelectorAll('script');
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0]!.getAttribute('src'), undefined);
  assert.match(scripts[0]!.text, /navigator\.clipboard/);
  assert.deepEqual(
    [...renderAuditHtml(report).matchAll(/\bsrc=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/g)].map((m) => m[0]),
    [],
  );
});

test('the layout: nothing fixed wider than 1280 px, eleven columns with the trend under the figures, labelled cells for the stacked phone layout', () => {
  const html = renderAuditHtml(
    audit([reportRow('web', { request: 500, target: 212 }), young('search', { request: 200, target: 450 })], { search: 27 * MINUTE }, true),
  );
  const doc = parseHtml(html);
  const css = doc.querySelector('style')!.text;
  // Widths that force a size (width, min-width, flex-basis) stay within a laptop; only max-width may be larger.
  for (const m of css.matchAll(/(?<![-\w])(width|min-width|flex(?:-basis)?)\s*:\s*([^;}]*)/g)) {
    for (const px of m[2]!.matchAll(/([\d.]+)px/g)) assert.ok(Number(px[1]) <= 1280, `${m[0]}`);
  }
  for (const m of css.matchAll(/([\d.]+)(rem|em)/g)) assert.ok(Number(m[1]) * 16 <= 1280, m[0]);
  assert.equal(doc.querySelectorAll('svg[width], table[width], td[width]').length, 0);
  // The stacked layout: below the breakpoint the table's rows and cells become blocks and grids.
  const media = new RegExp(`@media \\(max-width:${STACK_BELOW_PX - 0.02}px\\)\\{([^@]*)\\}`).exec(css);
  assert.ok(media, 'a media query for narrow screens');
  assert.match(media[1]!, /#workloads,#workloads tbody,#workloads tr,#workloads td\{display:block/);
  assert.match(media[1]!, /tr\.numbers\{display:grid/);
  assert.match(media[1]!, /td\[data-label\]::before\{content:attr\(data-label\)/);
  assert.ok(STACK_BELOW_PX <= 1280 && STACK_BELOW_PX >= 390);
  assert.match(html, /<meta name="viewport" content="width=device-width,initial-scale=1">/);
  // Eleven columns with a trend: the changes are under the figures, not in columns of their own.
  const numbers = entry(doc, 'web').querySelector('tr.numbers')!;
  assert.equal(numbers.querySelectorAll('td').length, 11);
  assert.equal(doc.querySelectorAll('#workloads thead tr')[1]!.querySelectorAll('th').length, 8);
  for (const td of numbers.querySelectorAll('td:not(.name)')) assert.ok(td.getAttribute('data-label'), td.toString());
  assert.equal(text(numbers.querySelector('[data-label="CPU Δ recommended"]')), 'Δ 0');
  // A row new since the previous report has no changes to show.
  assert.equal(entry(doc, 'search').querySelectorAll('.d').length, 0);
  // The table sits in a box that scrolls by itself rather than the page, should a name be very long.
  assert.equal(doc.querySelector('#workloads')!.parentNode.classList.contains('scroll'), true);
});

test('texts from the cluster are escaped, in the table and in the YAML', () => {
  const row: ReportRow = { ...reportRow('web', { request: 1, target: 2 }), container: '<b>x</b>' };
  const owners = new OwnerIndex([]);
  const report = buildAudit({ rows: [row], outlines: new UsageOutline(owners, NOW - DAY, NOW), now: NOW, historyMs: DAY, strategy: '<i>' });
  const html = renderAuditHtml(report);
  assert.doesNotMatch(html, /<b>x<\/b>|<i>/);
  assert.match(html, /&lt;b&gt;x&lt;\/b&gt;/);
});

test('each workload says how far to trust it: its history, samples and the risk the recommendation takes on that history', () => {
  const risky: ReportRow = {
    ...reportRow('risky', { request: 100, target: 300 }),
    historyMs: 8 * DAY,
    cpuSamples: 11_520,
    risk: { cpuShortfallPct: 2.34, memoryDays: 8, memoryDaysOverTarget: 1 },
  };
  const report = audit([risky, young('search', { request: 200, target: 450 })], { search: 27 * MINUTE });
  const w = report.workloads.find((x) => x.workload.name === 'risky')!;
  assert.deepEqual([w.historyHours, w.samples.cpu, w.risk], [192, 11_520, { cpuShortfallPct: 2.3, memoryDays: 8, memoryDaysOverTarget: 1 }]);
  const doc = parseHtml(renderAuditHtml(report));
  assert.equal(
    text(entry(doc, 'risky').querySelector('.trust')),
    '8 days of history, 11520 CPU samples: at the recommendation, 2.3% of the CPU used goes uncovered and memory peaked above it on 1 of 8 calendar days (UTC).',
  );
  assert.match(text(entry(doc, 'search').querySelector('.trust')), /^27 minutes of history, 100 CPU samples/);
});
