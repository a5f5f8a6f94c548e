import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readUpstreamBoosts, upstreamBoostAnnotation, upstreamBoostEnd, vpaAsksForStartupBoost } from '../../src/policy/upstream-startup-boost.ts';
import { vpa } from '../builders/vpas.ts';

const MiB = 1024 * 1024;

test("upstream's boost annotation: one per container, its value the resources before the boost (upstream's OriginalResources)", () => {
  assert.equal(upstreamBoostAnnotation('app'), 'vpaCpuStartupBoost/app');
  const read = readUpstreamBoosts({
    'vpaCpuStartupBoost/app': '{"requests":{"cpu":"200m","memory":"100Mi"},"limits":{}}',
    'vpaCpuStartupBoost/log': '{"requests":{"cpu":"50m"},"limits":{"cpu":"100m","memory":"64Mi"}}',
    vpaObservedContainers: 'app, log',
  });
  assert.ok(read instanceof Map);
  assert.deepEqual(Object.fromEntries(read), {
    app: { requests: { cpu: 200, memory: 100 * MiB }, limits: {} },
    // a limit without a request reads as the API server defaults it: the request is the limit
    log: { requests: { cpu: 50, memory: 64 * MiB }, limits: { cpu: 100, memory: 64 * MiB } },
  });
});

test('no annotation: undefined; requests or limits missing or null read as none (Go marshals an empty ResourceList so)', () => {
  assert.equal(readUpstreamBoosts(undefined), undefined);
  assert.equal(readUpstreamBoosts({ 'tailor.dev/startup-cpu-boost-record': '{}' }), undefined);
  const read = readUpstreamBoosts({ 'vpaCpuStartupBoost/app': '{"requests":{"cpu":0.5,"nvidia.com/gpu":"1"},"limits":null}' });
  assert.ok(read instanceof Map);
  assert.deepEqual(read.get('app'), { requests: { cpu: 500 }, limits: {} }, 'a number is a quantity too (Go reads it); other resources are not read');
});

test('an annotation that cannot be read says which and why, never throws', () => {
  const error = (value: string) => readUpstreamBoosts({ 'vpaCpuStartupBoost/app': value });
  assert.deepEqual(error('{'), { error: 'vpaCpuStartupBoost/app is not JSON' });
  assert.deepEqual(error('"200m"'), { error: 'vpaCpuStartupBoost/app is not upstream\'s original resources ({"requests":{...},"limits":{...}})' });
  assert.deepEqual(error('{"requests":["200m"]}'), {
    error: 'vpaCpuStartupBoost/app is not upstream\'s original resources ({"requests":{...},"limits":{...}})',
  });
  assert.deepEqual(error('{"requests":{"cpu":"lots"},"limits":{}}'), {
    error: 'vpaCpuStartupBoost/app: requests.cpu: quantity "lots" is malformed: expected a number with an optional suffix (m, k, M, G, Ki, Mi, Gi, e3, ...)',
  });
  assert.deepEqual(error('{"requests":{"cpu":true}}'), { error: 'vpaCpuStartupBoost/app: requests.cpu: cpu quantity true is not a string' });
});

test("the boost ends the container's duration after Ready, as upstream's updater reads the VPA", () => {
  const v = vpa({
    startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 1 } },
    policies: [{ containerName: 'log', startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 30 } } }],
  });
  assert.deepEqual(upstreamBoostEnd(v, 'app'), { kind: 'ready', afterMs: 1000 });
  assert.deepEqual(upstreamBoostEnd(v, 'log'), { kind: 'ready', afterMs: 30_000 });
  assert.deepEqual(upstreamBoostEnd(vpa(), 'app'), { kind: 'ready', afterMs: 0 }, 'the VPA asks for no boost (any more): at Ready');
});

test("a VPA asks for a boost through spec.startupBoost or any container policy's", () => {
  assert.equal(vpaAsksForStartupBoost(vpa({ startupBoost: { cpu: { type: 'Factor', factor: 2 } } })), true);
  assert.equal(vpaAsksForStartupBoost(vpa({ policies: [{ containerName: 'log', startupBoost: { cpu: { type: 'Quantity', quantity: '100m' } } }] })), true);
  assert.equal(vpaAsksForStartupBoost(vpa({ policies: [{ containerName: 'log', mode: 'Off' }] })), false);
});
