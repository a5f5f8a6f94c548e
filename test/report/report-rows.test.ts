import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnerIndex } from '../../src/metrics/owner-resolution.ts';
import { buildRows, currentByWorkload } from '../../src/report/report-rows.ts';
import { rowsToJson } from '../../src/report/report-json.ts';
import { renderCsv } from '../../src/report/report-csv.ts';
import { cpuText, signed, memoryHuman } from '../../src/report/report-quantities.ts';
import { REPORT_FORMATS, renderReport } from '../../src/report/report-format.ts';
import { savingsSummary } from '../../src/report/report-table.ts';
import { tailorStrategy } from '../../src/model/tailor/tailor-strategy.ts';
import type { WorkloadContainer } from '../../src/report/workload-usage.ts';
import { UsageRisk } from '../../src/report/usage-risk.ts';
import type { ResourceEstimate, UsageModel } from '../../src/model/types.ts';

const MiB = 2 ** 20;
const owners = new OwnerIndex([
  { namespace: 'a', kind: 'Pod', name: 'web-1', ownerKind: 'ReplicaSet', ownerName: 'web-x' },
  { namespace: 'a', kind: 'Pod', name: 'web-2', ownerKind: 'ReplicaSet', ownerName: 'web-x' },
  { namespace: 'a', kind: 'Pod', name: 'web-3', ownerKind: 'ReplicaSet', ownerName: 'web-x' },
  { namespace: 'a', kind: 'ReplicaSet', name: 'web-x', ownerKind: 'Deployment', ownerName: 'web' },
]);

function fixed(estimate: ResourceEstimate | undefined): UsageModel {
  return { addCpuSample() {}, addMemorySample() {}, recordOom() {}, estimate: () => estimate };
}

const estimate: ResourceEstimate = {
  target: { cpu: 200, memory: 300 * MiB },
  lowerBound: { cpu: 150, memory: 250 * MiB },
  upperBound: { cpu: 400, memory: 600 * MiB },
};

const DAY = 24 * 3600_000;
const container = (model: UsageModel, historyMs = 2 * DAY): WorkloadContainer => ({
  namespace: 'a',
  workload: { kind: 'Deployment', name: 'web' },
  container: 'app',
  model,
  risk: new UsageRisk(),
  cpuSamples: 10,
  memorySamples: 10,
  ooms: 0,
  memoryPeak: 0,
  firstCpuAt: 0,
  lastCpuAt: historyMs,
});
const threePods = ['web-1', 'web-2', 'web-3'].map((pod) => ({
  key: { namespace: 'a', pod, container: 'app' },
  requests: { cpu: 0.5, memory: 512 * MiB },
  limits: { cpu: 1 },
}));

test('3 pods requesting 500m with a 200m target save 900m; memory 512Mi -> 300Mi saves 636Mi', () => {
  const [row] = buildRows([container(fixed(estimate))], currentByWorkload(threePods, owners), 0);
  assert.equal(row!.pods, 3);
  assert.deepEqual(row!.cpu, { request: 500, limit: 1000, target: 200, lowerBound: 150, upperBound: 400, difference: -300, savings: 900 });
  assert.equal(row!.memory.savings, 3 * 212 * MiB);
  const [json] = rowsToJson([row!]);
  assert.deepEqual(json!.cpu, {
    request: '500m',
    limit: '1',
    target: '200m',
    lowerBound: '150m',
    upperBound: '400m',
    difference: '-300m',
    savings: '+900m',
    millicores: { request: 500, limit: 1000, target: 200, lowerBound: 150, upperBound: 400 },
  });
  assert.deepEqual(json!.memory, {
    request: '512Mi',
    limit: null,
    target: '300Mi',
    lowerBound: '250Mi',
    upperBound: '600Mi',
    difference: '-212Mi',
    savings: '+636Mi',
    bytes: { request: 512 * MiB, limit: null, target: 300 * MiB, lowerBound: 250 * MiB, upperBound: 600 * MiB },
  });
  assert.deepEqual(json!.workload, { kind: 'Deployment', name: 'web' });
});

test('memory off the MiB grid reads in MiB in every format; the JSON keeps the exact bytes beside', () => {
  // Issue 28: "request": "1Gi" beside "target": "1217381008", and "1217381008 .. none yet" in the HTML.
  const odd = {
    target: { cpu: 587.3, memory: 1_217_381_008 },
    lowerBound: { cpu: 400, memory: 1_000_000_000 },
    upperBound: { cpu: 900, memory: 1_500_000_001 },
  };
  const [row] = buildRows([container(fixed(odd))], currentByWorkload(threePods, owners), 0);
  const [json] = rowsToJson([row!]);
  assert.deepEqual([json!.memory.target, json!.memory.lowerBound, json!.memory.upperBound], ['1161Mi', '954Mi', '1431Mi']);
  assert.deepEqual(json!.memory.bytes, { request: 512 * MiB, limit: null, target: 1_217_381_008, lowerBound: 1_000_000_000, upperBound: 1_500_000_001 });
  assert.equal(json!.cpu.target, '588m');
  assert.equal(json!.cpu.millicores.target, 588);
  for (const format of REPORT_FORMATS) {
    const text = renderReport([row!], format);
    assert.doesNotMatch(text.replace(/"bytes": \{[^}]*\}|bytes:\n(?: {6}.*\n)*/g, ''), /1217381008|1217381|1000000000|1500000001/, format);
    assert.match(text, /1161Mi/, format);
  }
  assert.match(renderReport([row!], 'html'), /<td>954Mi \.\. 1431Mi<\/td>/);
});

test('too little data is reported as such, not guessed', () => {
  const [row] = buildRows([container(fixed(undefined))], new Map(), 0);
  assert.equal(row!.status, 'insufficient-data');
  assert.equal(row!.cpu.target, undefined);
  const [json] = rowsToJson([row!]);
  assert.equal(json!.cpu.target, null);
  assert.match(renderCsv([row!]), /a,Deployment,web,app,insufficient-data,0,/);
});

test('young data: tailor leaves memory unbounded (Infinity); every format prints "none yet" instead of crashing', () => {
  const model = tailorStrategy().newModel();
  for (let t = 60_000; t <= 10 * 60_000; t += 60_000) {
    model.addCpuSample(0.2, t);
    model.addMemorySample(300 * MiB, t);
  }
  assert.equal(model.estimate(10 * 60_000)!.upperBound.memory, Infinity, 'the premise: tailor gives no memory upper bound in its first hours');
  const wc: WorkloadContainer = { ...container(model), firstCpuAt: 60_000, lastCpuAt: 10 * 60_000 };
  const [row] = buildRows([wc], currentByWorkload(threePods, owners), 10 * 60_000);
  assert.equal(row!.memory.upperBound, undefined);
  assert.equal(row!.memory.upperBoundOpen, true);
  for (const format of REPORT_FORMATS) assert.doesNotThrow(() => renderReport([row!], format), format);
  const table = renderReport([row!], 'table');
  assert.match(table, /none yet/);
  assert.match(table, /no memory upper bound yet/);
  assert.match(table, /low confidence: 9 min of history/);
  const json = rowsToJson([row!])[0]!;
  assert.equal(json.memory.upperBound, null);
  assert.equal(json.confidence, 'low');
});

test('the upstream model with no history: saturated bounds (1e14) read "none yet", not 100000000000 / 95367432Mi', () => {
  const saturated: ResourceEstimate = { ...estimate, upperBound: { cpu: 1e14, memory: 1e14 } };
  const [row] = buildRows([container(fixed(saturated), 5 * 60_000)], currentByWorkload(threePods, owners), 0);
  const table = renderReport([row!], 'table');
  assert.doesNotMatch(table, /100000000000|95367432Mi/);
  assert.match(table, /200m \[150m, none yet\]/);
  assert.match(table, /no cpu\/memory upper bound yet; low confidence: 5 min of history/);
});

test('rows with low confidence are left out of the savings, and the summary says so', () => {
  const young = buildRows([container(fixed(estimate), 3 * 3600_000)], currentByWorkload(threePods, owners), 0)[0]!;
  const old = buildRows([container(fixed(estimate))], currentByWorkload(threePods, owners), 0)[0]!;
  assert.equal(young.confidence, 'low');
  assert.equal(young.cpu.savings, undefined);
  assert.equal(young.cpu.difference, -300, 'the difference is still shown');
  assert.equal(old.confidence, 'normal');
  assert.equal(savingsSummary([young]), 'no estimated savings: none of the 1 row(s) has enough history yet (a day, and an upper bound)');
  assert.match(
    savingsSummary([old, young]),
    /^estimated savings if applied: cpu \+900m, memory \+636Mi .*; 1 row\(s\) with low confidence or no estimate left out$/,
  );
});

test('a figure that is not finite prints as "-", never throws', () => {
  assert.equal(memoryHuman(Infinity), null);
  assert.equal(cpuText(NaN), null);
  assert.equal(memoryHuman(-1), null);
});

test('signed and human quantities', () => {
  assert.equal(
    signed(-250, (v) => `${v}m`),
    '-250m',
  );
  assert.equal(
    signed(0, (v) => `${v}m`),
    '0',
  );
  assert.equal(memoryHuman(300 * MiB + 1), '301Mi');
});

test('each row says how sure it is: history, samples and the risk its targets take on that history, in JSON, CSV and the table', () => {
  const risky = container(fixed(estimate), 8 * DAY);
  // CPU: 100m, 100m, 300m against the 200m target: 20% of the CPU used is above it. Memory: two
  // days, one of them peaking at 400Mi above the 300Mi target.
  for (const cores of [0.1, 0.1, 0.3]) risky.risk.addCpu(cores);
  risky.risk.addMemory(250 * MiB, 0.5 * DAY);
  risky.risk.addMemory(400 * MiB, 1.5 * DAY);
  const [row] = buildRows([risky], currentByWorkload(threePods, owners), 0);
  const [json] = rowsToJson([row!]);
  assert.deepEqual(json!.risk, { cpuShortfallPct: 20, memoryDays: 2, memoryDaysOverTarget: 1 });
  assert.equal(json!.historyHours, 192);
  const [header, values] = renderCsv([row!])
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const at = (name: string) => values![header!.indexOf(name)];
  assert.deepEqual([at('history_hours'), at('cpu_shortfall_pct'), at('memory_days'), at('memory_days_over_target')], ['192', '20', '2', '1']);
  const table = renderReport([row!], 'table');
  assert.match(table, /8 d · 20\.0% · 1\/2 d/);
  assert.match(table, /memory peaked above the target on 1 of 2 day\(s\)/);
});
