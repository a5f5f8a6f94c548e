import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutTable, renderFittedTable, tableWidth, wrapText, type FitColumn } from '../../src/report/fit-table.ts';
import { renderTable } from '../../src/report/report-table.ts';
import type { ReportRow } from '../../src/report/report-rows.ts';

const MiB = 2 ** 20;

// The columns and cells of `tailor recommend`'s table for two workloads, one with a long note.
const targetOnly = (t: string) => t.replace(/ \[.*\]$/, '');
const COLUMNS: FitColumn[] = [
  { head: 'namespace', dropOrder: 3 },
  { head: 'workload', abbreviated: { head: 'workload', cell: (t) => t.replace(/^Deployment\//, 'deploy/').replace(/^StatefulSet\//, 'sts/') } },
  { head: 'container', dropOrder: 4 },
  { head: 'pods', dropOrder: 1 },
  { head: 'cpu req/lim' },
  { head: 'cpu target [lower, upper]', shortHead: 'cpu target [lo, hi]', abbreviated: { head: 'cpu target', cell: targetOnly } },
  { head: 'cpu diff', dropOrder: 2 },
  { head: 'mem req/lim' },
  { head: 'mem target [lower, upper]', shortHead: 'mem target [lo, hi]', abbreviated: { head: 'mem target', cell: targetOnly } },
  { head: 'mem diff', dropOrder: 2 },
  { head: 'note', ownLine: true },
];
const ROWS = [
  ['shop', 'Deployment/api', 'app', '3', '500m/1', '296m [246m, 430m]', '-204m', '1Gi/1Gi', '363Mi [300Mi, 512Mi]', '-661Mi', ''],
  [
    'shop',
    'StatefulSet/cache',
    'redis',
    '1',
    '100m/-',
    '52m [41m, none yet]',
    '-48m',
    '2Gi/-',
    '310Mi [280Mi, none yet]',
    '-1.7Gi',
    'no cpu/memory upper bound yet; low confidence: 5 h of history (24 h wanted)',
  ],
];
const heads = (l: ReturnType<typeof layoutTable>) => l.columns.map((c) => c.head);

test('the width of a cli-table3 table: each column its widest cell + 2, and the borders', () => {
  assert.equal(tableWidth([2, 4]), 2 + 2 + 4 + 2 + 3);
  const two = [{ head: 'ab' }, { head: 'cdef' }];
  const drawn = renderFittedTable(two, [['x', 'yy']], layoutTable(two, [['x', 'yy']], undefined));
  assert.deepEqual(new Set(drawn.split('\n').map((l) => l.length)), new Set([tableWidth([2, 4])]));
});

test('200 columns, or no width known (not a terminal): the whole table', () => {
  const full = layoutTable(COLUMNS, ROWS, undefined);
  assert.deepEqual(
    heads(full),
    COLUMNS.map((c) => c.head),
  );
  assert.equal(full.ownLine, undefined);
  assert.ok(full.width > 200, `the whole table is ${full.width} wide`);
  assert.deepEqual(layoutTable(COLUMNS, ROWS, 0), full, 'a width of 0 (unknown) is no width');
  const noNotes = ROWS.map((r) => [...r.slice(0, -1), '']);
  const wide = layoutTable(COLUMNS, noNotes, 200);
  assert.deepEqual(
    heads(wide),
    COLUMNS.map((c) => c.head),
    'fits in 200: nothing changes',
  );
});

test('200 columns with a long note: the note goes under its row, everything else stays', () => {
  const l = layoutTable(COLUMNS, ROWS, 200);
  assert.equal(l.ownLine, 10);
  assert.deepEqual(
    heads(l),
    COLUMNS.slice(0, -1).map((c) => c.head),
  );
  assert.ok(l.width <= 200);
});

test('100 columns: the note under its row, short headings, the lower-priority columns dropped', () => {
  const l = layoutTable(COLUMNS, ROWS, 100);
  assert.deepEqual(heads(l), ['workload', 'cpu req/lim', 'cpu target [lo, hi]', 'mem req/lim', 'mem target [lo, hi]']);
  assert.equal(l.ownLine, 10);
  assert.ok(l.width <= 100, `${l.width}`);
  const drawn = renderFittedTable(COLUMNS, ROWS, l, { ownLinePrefix: 'note: ' });
  for (const line of drawn.split('\n')) assert.ok(line.length <= 100, `${line.length}: ${line}`);
  assert.match(drawn, /│ note: no cpu\/memory upper bound yet; low confidence: 5 h of history/);
  assert.match(drawn, /│ StatefulSet\/cache +│ 100m\/- +│ 52m \[41m, none yet\] +│/);
  // A little wider: the namespace and the container come back before the pods and diffs.
  const settled = layoutTable(COLUMNS, ROWS.slice(0, 1), 120);
  assert.deepEqual(heads(settled), ['namespace', 'workload', 'container', 'cpu req/lim', 'cpu target [lo, hi]', 'mem req/lim', 'mem target [lo, hi]']);
});

test('80 columns: last, the cells that have a short form are abbreviated (kinds, recommendations without bounds)', () => {
  const l = layoutTable(COLUMNS, ROWS, 80);
  assert.deepEqual(heads(l), ['workload', 'cpu req/lim', 'cpu target', 'mem req/lim', 'mem target']);
  assert.ok(l.width <= 80, `${l.width}`);
  const drawn = renderFittedTable(COLUMNS, ROWS, l, { ownLinePrefix: 'note: ' });
  for (const line of drawn.split('\n')) assert.ok(line.length <= 80, `${line.length}: ${line}`);
  assert.match(drawn, /│ sts\/cache +│ 100m\/- +│ 52m +│ 2Gi\/- +│ 310Mi +│/);
  assert.match(
    drawn.replace(/\s*│\n│\s*/g, ' '),
    /│ note: no cpu\/memory upper bound yet; low confidence: 5 h of history \(24 h wanted\) +│/,
    'the note wrapped inside the table',
  );
});

test('too narrow even for the essentials: the narrowest table there is', () => {
  const l = layoutTable(COLUMNS, ROWS, 30);
  assert.deepEqual(heads(l), ['workload', 'cpu req/lim', 'cpu target', 'mem req/lim', 'mem target']);
  assert.ok(l.width > 30);
});

test('words wrap at spaces; a word longer than the line is cut', () => {
  assert.deepEqual(wrapText('no cpu upper bound yet; low confidence', 16), ['no cpu upper', 'bound yet; low', 'confidence']);
  assert.deepEqual(wrapText('abcdefghijklmnopqrstuvwxyz', 10), ['abcdefghij', 'klmnopqrst', 'uvwxyz']);
});

test("tailor recommend's table at 100 columns (the issue: 164, 234 with notes, under stty cols 100)", () => {
  const row = (name: string, notes: string[]): ReportRow => ({
    namespace: 'shop',
    workload: { kind: 'Deployment', name },
    container: 'app',
    pods: 2,
    cpuSamples: 100,
    memorySamples: 100,
    ooms: 1,
    status: 'ok',
    confidence: notes.length ? 'low' : 'normal',
    historyMs: 5 * 3600_000,
    notes,
    risk: { cpuShortfallPct: 0.4, memoryDays: 1, memoryDaysOverTarget: 0 },
    cpu: { request: 600, limit: 1000, target: 2190, lowerBound: 2010, upperBoundOpen: true, difference: 1590 },
    memory: { request: 1024 * MiB, limit: 1024 * MiB, target: 363 * MiB, lowerBound: 300 * MiB, upperBound: 512 * MiB, difference: -661 * MiB },
  });
  const rows = [row('checkout', ['no cpu upper bound yet', 'low confidence: 5 h of history (24 h wanted)']), row('web', [])];
  const whole = renderTable(rows).split('\n');
  assert.ok(Math.max(...whole.map((l) => l.length)) > 160, 'as a file: the whole table');
  for (const width of [200, 100, 80]) {
    const fitted = renderTable(rows, width);
    for (const line of fitted.split('\n')) assert.ok(line.length <= width, `${width}: ${line.length}: ${line}`);
    assert.match(
      fitted.replace(/\s*│\n│\s*/g, ' '),
      /note: 1 OOM kill\(s\); no cpu upper bound yet; low confidence/,
      `${width}: the note is there, under its row`,
    );
  }
  assert.match(renderTable(rows, 80), /│ deploy\/web +│/);
});
