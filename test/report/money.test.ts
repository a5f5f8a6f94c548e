/**
 * Money (issue 29 item 5): the monthly saving of a recommendation, (request - target) x pods x
 * price x 730 h, with the worked numbers of src/report/money.ts; `tailor recommend`'s table, JSON,
 * CSV and HTML with prices (a column per row, the total under the table), and no money at all
 * without prices; the audit's JSON and HTML with prices, their total and its change since the
 * previous report.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseHtml } from 'node-html-parser';
import { HOURS_PER_MONTH, monthlyMoney, moneyText, parseCurrency, parsePrice, PriceError, rowMonthlySaving, type Prices } from '../../src/report/money.ts';
import { renderReport } from '../../src/report/report-format.ts';
import type { RowJson } from '../../src/report/report-json.ts';
import type { ReportRow } from '../../src/report/report-rows.ts';
import { buildAudit } from '../../src/report/audit/audit-report.ts';
import { renderAuditHtml } from '../../src/report/audit/audit-html.ts';
import { parseSummary, serializeSummary } from '../../src/report/audit/audit-summary.ts';
import { reportRow } from './report-row-builder.ts';

const MiB = 2 ** 20;
const PRICES: Prices = { cpuHour: 0.03, memoryGiBHour: 0.004, currency: 'USD' };
const NOW = Date.UTC(2026, 0, 9);

/** A row as buildRows makes it: savings = (request - target) x pods, only with normal confidence. */
function priced(name: string, cpu: [number, number], memory: [number, number], pods: number, confidence: 'normal' | 'low' = 'normal'): ReportRow {
  const base = reportRow(name, { request: cpu[0], target: cpu[1] }, { request: memory[0], target: memory[1] }, pods);
  const line = ([request, target]: [number, number]) => ({
    request,
    target,
    lowerBound: target,
    upperBound: target,
    difference: target - request,
    ...(confidence === 'normal' ? { savings: (request - target) * pods } : {}),
  });
  return { ...base, confidence, cpu: line(cpu), memory: line(memory) };
}

/** The worked example of money.ts: 3 pods, 500m -> 200m and 512Mi -> 256Mi. */
const WEB = priced('web', [500, 200], [512 * MiB, 256 * MiB], 3);
/** 3 pods whose CPU recommendation is above the request: 500m -> 700m, memory unchanged. */
const HUNGRY = priced('hungry', [500, 700], [256 * MiB, 256 * MiB], 3);
/** Low confidence: no savings, so no money. */
const YOUNG = priced('young', [1000, 100], [256 * MiB, 128 * MiB], 1, 'low');

test('the worked numbers: 0.9 cores and 0.75 GiB a month at 0.03 and 0.004 an hour save 19.71 + 2.19 = 21.90', () => {
  assert.equal(HOURS_PER_MONTH, 730);
  const m = monthlyMoney(900, 768 * MiB, PRICES);
  assert.equal(moneyText(m.cpu), '19.71');
  assert.equal(moneyText(m.memory), '2.19');
  assert.equal(moneyText(m.total), '21.90');
  assert.equal(moneyText(rowMonthlySaving(WEB, PRICES)!.total), '21.90');
  // A recommendation above the request is a cost: 0.6 cores more x 0.03 x 730.
  assert.equal(moneyText(rowMonthlySaving(HUNGRY, PRICES)!.total), '-13.14');
  assert.equal(rowMonthlySaving(YOUNG, PRICES), null);
  // An unknown resource counts as nothing in the total, and stays unknown itself.
  assert.deepEqual(monthlyMoney(null, null, PRICES), { cpu: null, memory: null, total: null });
  assert.equal(moneyText(monthlyMoney(1000, null, PRICES).total), '21.90');
});

test('prices and currency labels: plain decimals of at least 0, short labels; anything else refused', () => {
  assert.equal(parsePrice('0.0316'), 0.0316);
  assert.equal(parsePrice('2'), 2);
  assert.equal(parsePrice('.5'), 0.5);
  assert.equal(parsePrice('0'), 0);
  for (const bad of ['-1', 'abc', '', '1e3', '0x10', '1,5', '$0.03', 'Infinity', 'NaN']) assert.throws(() => parsePrice(bad), PriceError, bad);
  assert.equal(parseCurrency('EUR'), 'EUR');
  assert.equal(parseCurrency('€'), '€');
  for (const bad of ['', 'US D', 'A-VERY-LONG-LABEL', 'x\ty']) assert.throws(() => parseCurrency(bad), PriceError, bad);
});

test('recommend without prices: no money anywhere', () => {
  const rows = [WEB, HUNGRY];
  assert.doesNotMatch(renderReport(rows, 'table'), /saving USD|monthly saving/);
  const json = JSON.parse(renderReport(rows, 'json')) as RowJson[];
  assert.equal('monthlySaving' in json[0]!, false);
  assert.doesNotMatch(renderReport(rows, 'csv'), /monthly_saving/);
  assert.doesNotMatch(renderReport(rows, 'html'), /saving USD/);
});

test('recommend with prices: a column per row and the total under the table, normal confidence only', () => {
  const table = renderReport([WEB, HUNGRY, YOUNG], 'table', undefined, PRICES);
  const lines = table.trimEnd().split('\n');
  const head = lines.find((l) => l.includes('namespace'))!;
  const cells = (name: string) =>
    lines
      .find((l) => l.includes(`Deployment/${name}`))!
      .split('│')
      .map((c) => c.trim());
  const column = head
    .split('│')
    .map((c) => c.trim())
    .indexOf('saving USD/month');
  assert.ok(column > 0, head);
  assert.equal(cells('web')[column], '21.90');
  assert.equal(cells('hungry')[column], '-13.14');
  assert.equal(cells('young')[column], '-');
  // 21.90 - 13.14 = 8.76: cpu 19.71 - 13.14 = 6.57, memory 2.19.
  assert.equal(
    lines.at(-1),
    'monthly saving if applied: 8.76 USD (cpu 6.57, memory 2.19) at 0.03 USD per CPU-hour and 0.004 USD per GiB-hour, 730 h a month; negative is a cost',
  );
});

test('recommend JSON, YAML, CSV and HTML with prices: monthlySaving per row in cents with its currency', () => {
  const prices = { ...PRICES, currency: 'EUR' };
  const json = JSON.parse(renderReport([WEB, HUNGRY, YOUNG], 'json', undefined, prices)) as RowJson[];
  assert.deepEqual(json[0]!.monthlySaving, { cpu: 19.71, memory: 2.19, total: 21.9, currency: 'EUR' });
  assert.deepEqual(json[1]!.monthlySaving, { cpu: -13.14, memory: 0, total: -13.14, currency: 'EUR' });
  assert.equal(json[2]!.monthlySaving, null);
  assert.match(renderReport([WEB], 'yaml', undefined, prices), /monthlySaving:\n {4}cpu: 19\.71\n {4}memory: 2\.19\n {4}total: 21\.9\n {4}currency: EUR/);
  const csv = renderReport([WEB, YOUNG], 'csv', undefined, prices).trimEnd().split('\n');
  assert.match(csv[0]!, /,monthly_saving,currency$/);
  assert.match(csv[1]!, /,21\.90,EUR$/);
  assert.match(csv[2]!, /,,EUR$/);
  const html = parseHtml(renderReport([WEB, HUNGRY], 'html', undefined, prices));
  const heads = html.querySelectorAll('th').map((th) => th.text);
  const at = heads.indexOf('saving EUR/month');
  assert.ok(at > 0);
  assert.deepEqual(
    html.querySelectorAll('tbody tr').map((tr) => tr.querySelectorAll('td')[at]!.text),
    ['21.90', '-13.14'],
  );
  assert.match(html.querySelector('#money')!.text, /^monthly saving if applied: 8\.76 EUR/);
});

/** The audit of WEB and HUNGRY (and YOUNG), against a previous audit where web requested 400m and hungry was not yet there. */
function pricedAudit(prices: Prices | undefined) {
  const previous = parseSummary(
    serializeSummary({
      generatedAt: '2026-01-08T00:00:00.000Z',
      rows: [
        {
          namespace: 'shop',
          kind: 'Deployment',
          name: 'web',
          container: 'app',
          pods: 3,
          cpuRequest: 400,
          cpuTarget: 200,
          memoryRequest: 512 * MiB,
          memoryTarget: 256 * MiB,
        },
      ],
    }),
  );
  return buildAudit({
    rows: [WEB, HUNGRY, YOUNG],
    now: NOW,
    historyMs: 2 * 86_400_000,
    strategy: 'tailor',
    previous: { summary: previous, source: 'dir:/reports' },
    ...(prices ? { prices } : {}),
  });
}

test("audit JSON with prices: the prices, each row's monthlySaving, the total and its change since the previous report", () => {
  const report = pricedAudit(PRICES);
  assert.deepEqual(report.prices, { cpuHour: 0.03, memoryGiBHour: 0.004, currency: 'USD', hoursPerMonth: 730 });
  const row = (name: string) => report.workloads.find((w) => w.workload.name === name)!;
  assert.deepEqual(row('web').monthlySaving, { cpu: 19.71, memory: 2.19, total: 21.9, currency: 'USD' });
  assert.deepEqual(row('hungry').monthlySaving, { cpu: -13.14, memory: 0, total: -13.14, currency: 'USD' });
  // Low confidence: the row has its figure, the totals leave it out. 900m x 0.03 x 730 + 128Mi x 0.004 x 730.
  assert.deepEqual(row('young').monthlySaving, { cpu: 19.71, memory: 0.37, total: 20.08, currency: 'USD' });
  assert.deepEqual(report.totals.monthlySaving, { cpu: 6.57, memory: 2.19, total: 8.76, currency: 'USD' });
  // Web then requested 400m (600m over 3 pods): 13.14 then, 19.71 now, +6.57 of CPU; hungry is new.
  assert.deepEqual(row('web').trend!.monthlySaving, { cpu: 6.57, memory: 0, total: 6.57 });
  assert.deepEqual(row('hungry').trend!.monthlySaving, { cpu: null, memory: null, total: null });
  // The totals' change, as waste's and shortfall's: now 8.76, then 15.33 (web alone: 13.14 + 2.19), so -6.57
  // (web's +6.57 and the new hungry's -13.14).
  assert.deepEqual(report.totals.trend!.monthlySaving, { cpu: -6.57, memory: 0, total: -6.57, currency: 'USD' });
  // It survives JSON as it is.
  assert.deepEqual(JSON.parse(JSON.stringify(report)).totals.monthlySaving, report.totals.monthlySaving);
});

test('audit JSON without prices: no money fields', () => {
  const report = pricedAudit(undefined);
  assert.equal('prices' in report, false);
  assert.equal('monthlySaving' in report.totals, false);
  assert.equal('monthlySaving' in report.totals.trend!, false);
  assert.equal('monthlySaving' in report.workloads[0]!, false);
  assert.doesNotMatch(renderAuditHtml(report), /saving USD|monthly saving/);
});

test("audit HTML with prices: a column with each row's saving and its change, and the total with its change", () => {
  const doc = parseHtml(renderAuditHtml(pricedAudit(PRICES)));
  const entry = (name: string) => doc.querySelectorAll('tbody.entry').find((e) => e.getAttribute('data-workload') === `shop/Deployment/${name}/app`)!;
  const money = (name: string) => entry(name).querySelector('td.money')!;
  assert.equal(
    doc.querySelectorAll('#workloads thead th').some((th) => th.text === 'saving USD/month'),
    true,
  );
  assert.equal(money('web').querySelector('.v')!.text, '21.90');
  assert.equal(money('web').querySelector('.d')!.text, 'Δ +6.57');
  assert.equal(money('web').getAttribute('data-label'), 'saving USD/month');
  assert.equal(money('hungry').querySelector('.v')!.text, '-13.14');
  // New since the previous report: no change to show.
  assert.equal(money('hungry').querySelector('.d'), null);
  // The detail row spans the extra column.
  assert.equal(entry('web').querySelector('tr.detail td')!.getAttribute('colspan'), '12');
  const total = doc.querySelector('#totals tr.money')!;
  assert.deepEqual(
    total.querySelectorAll('th,td').map((c) => c.text),
    ['monthly saving, USD', '8.76', '-6.57'],
  );
  assert.match(doc.text, /at 0\.03 USD per CPU-hour and 0\.004 USD per GiB-hour, 730 h a month; negative is a cost/);
});
