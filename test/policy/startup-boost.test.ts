import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boostCpu, boostEndsAt, cpuSteadySince, formatBoostRecord, readBoostRecord } from '../../src/policy/startup-boost.ts';

const values = (cpuRequest: number | undefined, cpuLimit?: number) => ({
  requests: { ...(cpuRequest !== undefined ? { cpu: cpuRequest } : {}), memory: 256 },
  limits: { ...(cpuLimit !== undefined ? { cpu: cpuLimit } : {}), memory: 256 },
});

test('boostCpu keeps the QoS class: a limit equal to the request moves with it; another scales; none stays none', () => {
  assert.deepEqual(boostCpu(values(500, 500), { kind: 'factor', factor: 2 }), values(1000, 1000));
  assert.deepEqual(boostCpu(values(500, 1000), { kind: 'factor', factor: 2 }), values(1000, 2000));
  assert.deepEqual(boostCpu(values(500), { kind: 'factor', factor: 1.5 }), values(750));
  assert.deepEqual(boostCpu(values(500, 500), { kind: 'fixed', millicores: 2000 }), values(2000, 2000));
  assert.deepEqual(boostCpu(values(3000, 3000), { kind: 'fixed', millicores: 2000 }), values(3000, 3000), 'a fixed boost below the request changes nothing');
  assert.deepEqual(boostCpu(values(undefined), { kind: 'factor', factor: 2 }), values(undefined), 'no cpu request: nothing to boost');
});

test('the pod record round-trips; a broken one says so', () => {
  const record = { until: { kind: 'ready' as const, afterMs: 30_000 }, containers: { app: { request: 500, limit: 500 }, side: { request: 100 } } };
  const text = formatBoostRecord(record);
  assert.equal(text, '{"until":"ready+30s","containers":{"app":{"request":500,"limit":500},"side":{"request":100}}}');
  assert.deepEqual(readBoostRecord({ 'tailor.dev/startup-cpu-boost-record': text }), record);
  assert.deepEqual(readBoostRecord({ 'tailor.dev/startup-cpu-boost-record': '{' }), { error: 'tailor.dev/startup-cpu-boost-record is not JSON' });
  assert.equal(readBoostRecord({}), undefined);
});

test('the boost ends at Ready (+ seconds) or a fixed time after the start; unknown while not Ready', () => {
  assert.equal(boostEndsAt({ kind: 'ready', afterMs: 30_000 }, 0, 12_000), 42_000);
  assert.equal(boostEndsAt({ kind: 'ready', afterMs: 0 }, 0, undefined), undefined);
  assert.equal(boostEndsAt({ kind: 'fixed', afterStartMs: 90_000 }, 1000, undefined), 91_000);
});

test("an added amount (upstream's type Quantity) adds to the request: 100m + 500m = 600m", () => {
  assert.deepEqual(boostCpu(values(100), { kind: 'add', millicores: 500 }), values(600));
  assert.deepEqual(boostCpu(values(100, 100), { kind: 'add', millicores: 500 }), values(600, 600));
});

test("a container with its own end round-trips; the pod's usage is steady once the last container's boost has ended", () => {
  const record = {
    until: { kind: 'ready' as const, afterMs: 65_000 },
    containers: { app: { request: 100 }, log: { request: 50, until: { kind: 'ready' as const, afterMs: 185_000 } } },
  };
  const text = formatBoostRecord(record);
  assert.equal(text, '{"until":"ready+65s","containers":{"app":{"request":100},"log":{"request":50,"until":"ready+185s"}}}');
  assert.deepEqual(readBoostRecord({ 'tailor.dev/startup-cpu-boost-record': text }), record);
  const readyAt = Date.UTC(2026, 0, 1);
  const pod = {
    metadata: { annotations: { 'tailor.dev/startup-cpu-boost-record': text } },
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date(readyAt).toISOString() }] },
  };
  assert.equal(cpuSteadySince(pod), readyAt + 185_000);
});
