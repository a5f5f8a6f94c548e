import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepQosClass, type GuardedContainer } from '../../src/policy/qos-guard.ts';
import { containerPolicyFor } from '../../src/policy/container-policy.ts';
import { limitRangeConstraints } from '../../src/policy/limit-range.ts';
import { MiB, limitRange } from './fixtures.ts';

const memory = { requests: { memory: 256 * MiB }, limits: { memory: 256 * MiB } };

/** One container whose cpu went from 100m/200m to 500m/500m (its memory is already equal). */
function container(controlledValues: 'RequestsAndLimits' | 'RequestsOnly', minAllowed?: string): GuardedContainer {
  const policy = containerPolicyFor(
    { containerPolicies: [{ containerName: 'app', controlledValues, ...(minAllowed ? { minAllowed: { cpu: minAllowed } } : {}) }] },
    'app',
  );
  return {
    containerName: 'app',
    current: { requests: { cpu: 100, ...memory.requests }, limits: { cpu: 200, ...memory.limits } },
    proposed: { requests: { cpu: 500, ...memory.requests }, limits: { cpu: 500, ...memory.limits } },
    policy,
    reasons: [],
  };
}

test('RequestsAndLimits: the limit is raised one step (500m/500m -> 500m/501m)', () => {
  const c = container('RequestsAndLimits');
  assert.deepEqual(keepQosClass('Burstable', [c], [], limitRangeConstraints([])), []);
  assert.deepEqual(c.proposed.requests.cpu, 500);
  assert.deepEqual(c.proposed.limits.cpu, 501);
  assert.match(c.reasons[0]?.message ?? '', /^cpu: limit raised to 501m/);
});

test('a LimitRange max at the value: the request is lowered one step instead (499m/500m)', () => {
  const c = container('RequestsAndLimits');
  keepQosClass('Burstable', [c], [], limitRangeConstraints([limitRange('Container', { max: { cpu: '500m' } })]));
  assert.deepEqual([c.proposed.requests.cpu, c.proposed.limits.cpu], [499, 500]);
});

test('RequestsOnly: the limit is never touched, the request is lowered (499m/500m)', () => {
  const c = container('RequestsOnly');
  keepQosClass('Burstable', [c], [], limitRangeConstraints([]));
  assert.deepEqual([c.proposed.requests.cpu, c.proposed.limits.cpu], [499, 500]);
});

test('neither allowed (RequestsOnly, minAllowed 500m): the cpu change is reverted, memory kept', () => {
  const c = container('RequestsOnly', '500m');
  keepQosClass('Burstable', [c], [], limitRangeConstraints([]));
  assert.deepEqual(c.proposed, c.current);
  assert.match(c.reasons[0]?.message ?? '', /left unchanged/);
});

test('an init container that stays unequal keeps the pod Burstable: nothing to do', () => {
  const c = container('RequestsAndLimits');
  const init = { requests: { cpu: 10, memory: MiB }, limits: { cpu: 20, memory: MiB } };
  keepQosClass('Burstable', [c], [init], limitRangeConstraints([]));
  assert.deepEqual(c.proposed.limits.cpu, 500);
});

test('a class change the guard cannot fix leaves the whole pod unchanged', () => {
  const c: GuardedContainer = {
    containerName: 'app',
    current: { requests: { cpu: 100 }, limits: {} },
    proposed: { requests: { cpu: 0 }, limits: {} },
    reasons: [],
  };
  const reasons = keepQosClass('Burstable', [c], [], limitRangeConstraints([]));
  assert.deepEqual(
    reasons.map((r) => r.code),
    ['QosWouldChange'],
  );
  assert.deepEqual(c.proposed, c.current);
});
