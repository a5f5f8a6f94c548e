import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnerIndex } from '../../src/metrics/owner-resolution.ts';
import { buildRows, currentByWorkload } from '../../src/report/report-rows.ts';
import { rowsToJson } from '../../src/report/report-json.ts';
import { renderCsv } from '../../src/report/report-csv.ts';
import { signed, memoryHuman } from '../../src/report/report-quantities.ts';
import type { WorkloadContainer } from '../../src/report/workload-usage.ts';
import type { ResourceEstimate, UsageModel } from '../../src/recommender/types.ts';

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

const container = (model: UsageModel): WorkloadContainer => ({ namespace: 'a', workload: { kind: 'Deployment', name: 'web' }, container: 'app', model, cpuSamples: 10, memorySamples: 10, ooms: 0, memoryPeak: 0 });

test('3 pods requesting 500m with a 200m target save 900m; memory 512Mi -> 300Mi saves 636Mi', () => {
  const resources = ['web-1', 'web-2', 'web-3'].map((pod) => ({ key: { namespace: 'a', pod, container: 'app' }, requests: { cpu: 0.5, memory: 512 * MiB }, limits: { cpu: 1 } }));
  const [row] = buildRows([container(fixed(estimate))], currentByWorkload(resources, owners), 0);
  assert.equal(row!.pods, 3);
  assert.deepEqual(row!.cpu, { request: 500, limit: 1000, target: 200, lowerBound: 150, upperBound: 400, difference: -300, savings: 900 });
  assert.equal(row!.memory.savings, 3 * 212 * MiB);
  const [json] = rowsToJson([row!]);
  assert.deepEqual(json!.cpu, { request: '500m', limit: '1', target: '200m', lowerBound: '150m', upperBound: '400m', difference: '-300m', savings: '+900m' });
  assert.deepEqual(json!.memory, { request: '512Mi', limit: null, target: '300Mi', lowerBound: '250Mi', upperBound: '600Mi', difference: '-212Mi', savings: '+636Mi' });
  assert.deepEqual(json!.workload, { kind: 'Deployment', name: 'web' });
});

test('too little data is reported as such, not guessed', () => {
  const [row] = buildRows([container(fixed(undefined))], new Map(), 0);
  assert.equal(row!.status, 'insufficient-data');
  assert.equal(row!.cpu.target, undefined);
  const [json] = rowsToJson([row!]);
  assert.equal(json!.cpu.target, null);
  assert.match(renderCsv([row!]), /a,Deployment,web,app,insufficient-data,0,/);
});

test('signed and human quantities', () => {
  assert.equal(signed(-250, (v) => `${v}m`), '-250m');
  assert.equal(signed(0, (v) => `${v}m`), '0');
  assert.equal(memoryHuman(300 * MiB + 1), '301Mi');
});
