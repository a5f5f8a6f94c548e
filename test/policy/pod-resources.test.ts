import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planPodResources, type PodResourcesInput } from '../../src/policy/pod-resources.ts';
import { applyPlanToRequirements } from '../../src/policy/resource-requirements.ts';
import { c, GiB, limitRange, MiB, pod } from './fixtures.ts';

function plan(input: PodResourcesInput) {
  const result = planPodResources(input);
  const first = result.containers[0];
  assert.ok(first);
  return { result, first, codes: [...result.reasons, ...result.containers.flatMap((x) => x.reasons)].map((r) => r.code) };
}

test('RequestsAndLimits scales the limit by the request ratio: 100m/200m -> request 250m gives limit 500m', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '100m', memory: '256Mi' }, { cpu: '200m', memory: '512Mi' })]),
    recommendations: [{ containerName: 'app', target: { cpu: 250, memory: 300 * MiB } }],
  });
  assert.deepEqual(first.proposed, { requests: { cpu: 250, memory: 300 * MiB }, limits: { cpu: 500, memory: 600 * MiB } });
  assert.deepEqual(first.changedResources, ['cpu', 'memory']);
  assert.ok(codes.includes('LimitScaled'));
});

test('a scaled limit that is not exact rounds up: 100m/150m -> 333m gives ceil(499.5) = 500m', () => {
  const { first } = plan({
    pod: pod([c('app', { cpu: '100m' }, { cpu: '150m' })]),
    recommendations: [{ containerName: 'app', target: { cpu: 333 } }],
  });
  assert.equal(first.proposed.limits.cpu, 500);
});

test('memory requests round up to whole MiB: 300,000,000 bytes -> 287Mi', () => {
  const { first } = plan({
    pod: pod([c('app', { memory: '100Mi' })]),
    recommendations: [{ containerName: 'app', target: { memory: 300_000_000 } }],
  });
  assert.equal(first.proposed.requests.memory, 287 * MiB);
  assert.equal(287 * MiB, 300_941_312);
});

test('cpu requests round up to whole millicores and never go below 1m', () => {
  const { first, codes } = plan({
    pod: pod([c('a', { cpu: '100m' })]),
    recommendations: [{ containerName: 'a', target: { cpu: 0 } }],
  });
  assert.equal(first.proposed.requests.cpu, 1);
  assert.ok(codes.includes('RaisedToMinimum'));
  const { first: second } = plan({ pod: pod([c('a', { cpu: '100m' })]), recommendations: [{ containerName: 'a', target: { cpu: 12.2 } }] });
  assert.equal(second.proposed.requests.cpu, 13);
});

test('no limit is added where none was set', () => {
  const { first } = plan({
    pod: pod([c('app', { cpu: '100m', memory: '128Mi' })]),
    recommendations: [{ containerName: 'app', target: { cpu: 400, memory: 256 * MiB } }],
  });
  assert.deepEqual(first.proposed, { requests: { cpu: 400, memory: 256 * MiB }, limits: {} });
});

test('request == limit stays equal in a Burstable pod', () => {
  const { result, first } = plan({
    pod: pod([c('app', { cpu: '300m', memory: '128Mi' }, { cpu: '300m' })]),
    recommendations: [{ containerName: 'app', target: { cpu: 450, memory: 200 * MiB } }],
  });
  assert.equal(result.qosClass, 'Burstable');
  assert.deepEqual(first.proposed, { requests: { cpu: 450, memory: 200 * MiB }, limits: { cpu: 450 } });
});

test('RequestsOnly never touches limits and caps the request at the limit', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '100m', memory: '256Mi' }, { cpu: '500m', memory: '1Gi' })]),
    resourcePolicy: { containerPolicies: [{ containerName: '*', controlledValues: 'RequestsOnly' }] },
    recommendations: [{ containerName: 'app', target: { cpu: 800, memory: 300 * MiB } }],
  });
  assert.deepEqual(first.proposed, { requests: { cpu: 500, memory: 300 * MiB }, limits: { cpu: 500, memory: GiB } });
  assert.ok(codes.includes('RequestCappedToLimit'));
});

test('a Guaranteed pod stays Guaranteed: requests and limits move together', () => {
  const { result, first } = plan({
    pod: pod([c('app', { cpu: '500m', memory: '1Gi' }, { cpu: '500m', memory: '1Gi' })]),
    recommendations: [{ containerName: 'app', target: { cpu: 700, memory: 2 * GiB } }],
  });
  assert.equal(result.qosClass, 'Guaranteed');
  assert.deepEqual(first.proposed, { requests: { cpu: 700, memory: 2 * GiB }, limits: { cpu: 700, memory: 2 * GiB } });
});

test('a Guaranteed pod with limits only (requests defaulted) stays Guaranteed', () => {
  const { result, first } = plan({
    pod: pod([c('app', undefined, { cpu: '1', memory: '1Gi' })]),
    recommendations: [{ containerName: 'app', target: { cpu: 250, memory: 512 * MiB } }],
  });
  assert.equal(result.qosClass, 'Guaranteed');
  assert.deepEqual(first.proposed, { requests: { cpu: 250, memory: 512 * MiB }, limits: { cpu: 250, memory: 512 * MiB } });
});

test('RequestsOnly in a Guaranteed pod leaves the resource alone', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '500m', memory: '1Gi' }, { cpu: '500m', memory: '1Gi' })]),
    resourcePolicy: { containerPolicies: [{ containerName: 'app', controlledValues: 'RequestsOnly' }] },
    recommendations: [{ containerName: 'app', target: { cpu: 200, memory: 512 * MiB } }],
  });
  assert.deepEqual(first.changedResources, []);
  assert.deepEqual(codes, ['GuaranteedKept', 'GuaranteedKept']);
});

test('a BestEffort pod is left alone', () => {
  const { result, first } = plan({ pod: pod([c('app')]), recommendations: [{ containerName: 'app', target: { cpu: 100, memory: 100 * MiB } }] });
  assert.equal(result.qosClass, 'BestEffort');
  assert.equal(result.changed, false);
  assert.deepEqual(first.proposed, { requests: {}, limits: {} });
  assert.deepEqual(
    result.reasons.map((r) => r.code),
    ['BestEffortLeftAlone'],
  );
});

test('a Burstable pod never becomes Guaranteed: a request capped to its limit is lowered one step', () => {
  // cpu 100m/200m is the only difference from Guaranteed; RequestsOnly caps 300m at the 200m limit.
  const { result, first, codes } = plan({
    pod: pod([c('app', { cpu: '100m', memory: '1Gi' }, { cpu: '200m', memory: '1Gi' })]),
    resourcePolicy: { containerPolicies: [{ containerName: 'app', controlledValues: 'RequestsOnly', controlledResources: ['cpu'] }] },
    recommendations: [{ containerName: 'app', target: { cpu: 300, memory: 2 * GiB } }],
  });
  assert.equal(result.qosClass, 'Burstable');
  assert.deepEqual(first.proposed, { requests: { cpu: 199, memory: GiB }, limits: { cpu: 200, memory: GiB } });
  assert.ok(codes.includes('BurstableKept'));
});

test('a Burstable pod whose request cannot go one step lower keeps that resource unchanged', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '100m', memory: '1Gi' }, { cpu: '200m', memory: '1Gi' })]),
    resourcePolicy: {
      containerPolicies: [{ containerName: 'app', controlledValues: 'RequestsOnly', controlledResources: ['cpu'], minAllowed: { cpu: '200m' } }],
    },
    recommendations: [{ containerName: 'app', target: { cpu: 300 } }],
  });
  assert.deepEqual(first.proposed, { requests: { cpu: 100, memory: GiB }, limits: { cpu: 200, memory: GiB } });
  assert.ok(codes.includes('BurstableKept'));
});

test('minAllowed and maxAllowed clamp the request and the limit follows', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '100m', memory: '256Mi' }, { cpu: '200m' })]),
    resourcePolicy: { containerPolicies: [{ containerName: 'app', minAllowed: { memory: '512Mi' }, maxAllowed: { cpu: '1' } }] },
    recommendations: [{ containerName: 'app', target: { cpu: 4000, memory: 100 * MiB } }],
  });
  assert.deepEqual(first.proposed, { requests: { cpu: 1000, memory: 512 * MiB }, limits: { cpu: 2000 } });
  assert.ok(codes.includes('CappedToMaxAllowed'));
  assert.ok(codes.includes('RaisedToMinAllowed'));
});

test('LimitRange max bounds the scaled limit, so the request keeps its ratio: 100m/400m, max 1 core -> 250m/1000m', () => {
  // 100m/400m -> target 500m: the limit would be 2000m; the request may rise to 100m x 1000/400 = 250m.
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '100m' }, { cpu: '400m' })]),
    limitRanges: [limitRange('Container', { max: { cpu: '1' } })],
    recommendations: [{ containerName: 'app', target: { cpu: 500 } }],
  });
  assert.deepEqual(first.proposed, { requests: { cpu: 250 }, limits: { cpu: 1000 } });
  assert.ok(codes.includes('CappedToLimitRangeMax'));
});

test('LimitRange max without a limit, or with RequestsOnly, caps the request at the max itself', () => {
  const limitRanges = [limitRange('Container', { max: { cpu: '1' } })];
  const recommendations = [{ containerName: 'app', target: { cpu: 3000 } }];
  assert.deepEqual(plan({ pod: pod([c('app', { cpu: '100m' })]), limitRanges, recommendations }).first.proposed, { requests: { cpu: 1000 }, limits: {} });
  const requestsOnly = { containerPolicies: [{ containerName: '*', controlledValues: 'RequestsOnly' as const }] };
  const { first } = plan({ pod: pod([c('app', { cpu: '100m' }, { cpu: '1' })]), resourcePolicy: requestsOnly, limitRanges, recommendations });
  assert.deepEqual(first.proposed, { requests: { cpu: 1000 }, limits: { cpu: 1000 } }, 'capped at the unchanged 1 core limit');
});

test('LimitRange min above the ratio-keeping max: the request meets the min and the limit is capped at the max', () => {
  // 1Mi/2Mi, min 2Mi, max 3Mi: keeping the ratio would allow at most 1.5Mi; the min wins, the ratio gives way.
  const { first } = plan({
    pod: pod([c('app', { memory: '1Mi' }, { memory: '2Mi' })]),
    limitRanges: [limitRange('Container', { min: { memory: '2Mi' }, max: { memory: '3Mi' } })],
    recommendations: [{ containerName: 'app', target: { memory: 0 } }],
  });
  assert.deepEqual(first.proposed, { requests: { memory: 2 * MiB }, limits: { memory: 3 * MiB } });
});

test('LimitRange min raises the request, even above maxAllowed (the server enforces it)', () => {
  const { first } = plan({
    pod: pod([c('app', { memory: '256Mi' })]),
    resourcePolicy: { containerPolicies: [{ containerName: '*', maxAllowed: { memory: '128Mi' } }] },
    limitRanges: [limitRange('Container', { min: { memory: '200Mi' } })],
    recommendations: [{ containerName: 'app', target: { memory: 64 * MiB } }],
  });
  assert.equal(first.proposed.requests.memory, 200 * MiB);
});

test('LimitRange maxLimitRequestRatio caps the scaled limit: 100m/400m -> 200m gives 800m, capped at 2 x 200m', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '100m' }, { cpu: '400m' })]),
    limitRanges: [limitRange('Container', { maxLimitRequestRatio: { cpu: '2' } })],
    recommendations: [{ containerName: 'app', target: { cpu: 200 } }],
  });
  assert.deepEqual(first.proposed, { requests: { cpu: 200 }, limits: { cpu: 400 } });
  assert.ok(codes.includes('LimitCappedToLimitRangeRatio'));
});

test('LimitRange ratio with RequestsOnly raises the request: limit 1000m, ratio 4, target 100m -> request 250m', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '500m' }, { cpu: '1' })]),
    resourcePolicy: { containerPolicies: [{ containerName: 'app', controlledValues: 'RequestsOnly' }] },
    limitRanges: [limitRange('Container', { maxLimitRequestRatio: { cpu: '4' } })],
    recommendations: [{ containerName: 'app', target: { cpu: 100 } }],
  });
  assert.deepEqual(first.proposed, { requests: { cpu: 250 }, limits: { cpu: 1000 } });
  assert.ok(codes.includes('RequestRaisedForLimitRangeRatio'));
});

test('several LimitRanges: the strictest bound applies, Container and Pod alike', () => {
  const containerOnly = [limitRange('Container', { max: { cpu: '2' } }), limitRange('Container', { max: { cpu: '1500m' } })];
  const recommendations = [{ containerName: 'app', target: { cpu: 3000 } }];
  assert.equal(plan({ pod: pod([c('app', { cpu: '100m' })]), limitRanges: containerOnly, recommendations }).first.proposed.requests.cpu, 1500);
  const withPod = [...containerOnly, limitRange('Pod', { max: { cpu: '1' } })];
  assert.equal(plan({ pod: pod([c('app', { cpu: '100m' })]), limitRanges: withPod, recommendations }).first.proposed.requests.cpu, 1000);
});

test('container policies: by name, else "*"; mode Off and controlledResources', () => {
  const { result } = plan({
    pod: pod([c('app', { cpu: '100m', memory: '100Mi' }), c('sidecar', { cpu: '100m', memory: '100Mi' }), c('off', { cpu: '100m' })]),
    resourcePolicy: {
      containerPolicies: [
        { containerName: '*', controlledResources: ['cpu'] },
        { containerName: 'app', maxAllowed: { cpu: '300m' } },
        { containerName: 'off', mode: 'Off' },
      ],
    },
    recommendations: [
      { containerName: 'app', target: { cpu: 500, memory: 200 * MiB } },
      { containerName: 'sidecar', target: { cpu: 500, memory: 200 * MiB } },
      { containerName: 'off', target: { cpu: 500 } },
    ],
  });
  const [app, sidecar, off] = result.containers;
  // app's named policy replaces "*" entirely: both resources controlled, cpu capped at 300m.
  assert.deepEqual(app?.proposed.requests, { cpu: 300, memory: 200 * MiB });
  assert.deepEqual(sidecar?.proposed.requests, { cpu: 500, memory: 100 * MiB });
  assert.deepEqual(off?.proposed.requests, { cpu: 100 });
  assert.deepEqual(
    off?.reasons.map((r) => r.code),
    ['ContainerModeOff'],
  );
});

test('a container without a recommendation is left alone', () => {
  const { result } = plan({ pod: pod([c('app', { cpu: '100m' })]), recommendations: [] });
  assert.equal(result.changed, false);
  assert.deepEqual(
    result.containers[0]?.reasons.map((r) => r.code),
    ['NoRecommendation'],
  );
});

test('an invalid recommendation (NaN, negative) leaves the resource unchanged', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { cpu: '100m', memory: '1Gi' })]),
    recommendations: [{ containerName: 'app', target: { cpu: Number.NaN, memory: -5 } }],
  });
  assert.deepEqual(first.proposed, first.current);
  assert.deepEqual(codes, ['InvalidRecommendation', 'InvalidRecommendation']);
});

test('current resources override the spec (what the kubelet applied)', () => {
  const { first } = plan({
    pod: pod([c('app', { cpu: '100m' }, { cpu: '200m' })]),
    currentResources: { app: { requests: { cpu: '300m' }, limits: { cpu: '600m' } } },
    recommendations: [{ containerName: 'app', target: { cpu: 150 } }],
  });
  assert.deepEqual(first.current, { requests: { cpu: 300 }, limits: { cpu: 600 } });
  assert.deepEqual(first.proposed, { requests: { cpu: 150 }, limits: { cpu: 300 } });
});

test('restartable init containers are planned; ordinary init containers only count for QoS', () => {
  const sidecar = { ...c('proxy', { cpu: '50m' }), restartPolicy: 'Always' };
  const { result } = plan({
    pod: pod([c('app', { cpu: '100m' })], [c('setup', { cpu: '10m' }), sidecar]),
    recommendations: [
      { containerName: 'proxy', target: { cpu: 80 } },
      { containerName: 'setup', target: { cpu: 999 } },
    ],
  });
  assert.deepEqual(
    result.containers.map((x) => [x.containerName, x.kind, x.proposed.requests.cpu]),
    [
      ['app', 'container', 100],
      ['proxy', 'sidecar', 80],
    ],
  );
});

test('a pod with pod-level resources is left alone', () => {
  const p = pod([c('app', { cpu: '100m' })]);
  p.spec!.resources = { requests: { cpu: '1' } };
  const { result } = plan({ pod: p, recommendations: [{ containerName: 'app', target: { cpu: 500 } }] });
  assert.equal(result.changed, false);
  assert.deepEqual(
    result.reasons.map((r) => r.code),
    ['PodLevelResourcesLeftAlone'],
  );
});

test('a malformed quantity leaves the pod unchanged instead of throwing', () => {
  const { result } = plan({ pod: pod([c('app', { cpu: 'lots' })]), recommendations: [{ containerName: 'app', target: { cpu: 500 } }] });
  assert.equal(result.changed, false);
  assert.equal(result.reasons[0]?.code, 'UnreadableResources');
  assert.match(result.reasons[0]?.message ?? '', /"lots"/);
});

test('applyPlanToRequirements rewrites only what changed and keeps other resources', () => {
  const container = c('app', { cpu: '0.1', memory: '1G', 'ephemeral-storage': '1Gi' }, { cpu: '200m', memory: '2G' });
  const { first } = plan({
    pod: pod([container]),
    resourcePolicy: { containerPolicies: [{ containerName: '*', controlledResources: ['cpu'] }] },
    recommendations: [{ containerName: 'app', target: { cpu: 1500, memory: 5 * GiB } }],
  });
  assert.deepEqual(applyPlanToRequirements(container.resources, first), {
    requests: { cpu: '1500m', memory: '1G', 'ephemeral-storage': '1Gi' },
    limits: { cpu: '3', memory: '2G' },
  });
  assert.deepEqual(container.resources?.requests?.cpu, '0.1', 'the original is not modified');
});

test('a Pod LimitRange scales the requests by one factor: max 1 core, 2 x 300m -> 700m gives 2 x 500m', () => {
  const { result, codes } = plan({
    pod: pod([c('a', { cpu: '300m' }, { cpu: '300m' }), c('b', { cpu: '300m' })]),
    limitRanges: [limitRange('Pod', { max: { cpu: '1' } })],
    recommendations: [
      { containerName: 'a', target: { cpu: 700 } },
      { containerName: 'b', target: { cpu: 700 } },
    ],
  });
  assert.deepEqual(
    result.containers.map((x) => x.proposed),
    [
      { requests: { cpu: 500 }, limits: { cpu: 500 } },
      { requests: { cpu: 500 }, limits: {} },
    ],
  );
  assert.ok(codes.includes('CappedToPodLimitRange'));
});

test('a Pod LimitRange min keeps the summed requests up: min 512Mi, 2 x 400Mi -> 100Mi gives 2 x 256Mi', () => {
  const { result } = plan({
    pod: pod([c('a', { memory: '400Mi' }), c('b', { memory: '400Mi' })]),
    limitRanges: [limitRange('Pod', { min: { memory: '512Mi' } })],
    recommendations: [
      { containerName: 'a', target: { memory: 100 * MiB } },
      { containerName: 'b', target: { memory: 100 * MiB } },
    ],
  });
  assert.deepEqual(
    result.containers.map((x) => x.proposed.requests.memory),
    [256 * MiB, 256 * MiB],
  );
});

test('memory limit floor: 512Mi/1Gi, target 128Mi would give a 256Mi limit; the floor (600Mi peak + margin) keeps it at 600Mi', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { memory: '512Mi' }, { memory: '1Gi' })]),
    recommendations: [{ containerName: 'app', target: { memory: 128 * MiB } }],
    memoryLimitRules: { app: { floor: 600 * MiB } },
  });
  assert.deepEqual(first.proposed, { requests: { memory: 128 * MiB }, limits: { memory: 600 * MiB } });
  assert.ok(codes.includes('MemoryLimitKept'));
});

test('memory limit floor in a Guaranteed pod keeps request and limit equal at the floor', () => {
  const { result, first } = plan({
    pod: pod([c('app', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })]),
    recommendations: [{ containerName: 'app', target: { cpu: 500, memory: 256 * MiB } }],
    memoryLimitRules: { app: { floor: 700 * MiB } },
  });
  assert.equal(result.qosClass, 'Guaranteed');
  assert.deepEqual(first.proposed, { requests: { cpu: 500, memory: 700 * MiB }, limits: { cpu: 500, memory: 700 * MiB } });
});

test('a memory limit already below the floor is not lowered further, and may still rise', () => {
  const rules = { app: { floor: 2 * GiB } };
  const down = plan({
    pod: pod([c('app', { memory: '512Mi' }, { memory: '1Gi' })]),
    recommendations: [{ containerName: 'app', target: { memory: 256 * MiB } }],
    memoryLimitRules: rules,
  });
  assert.deepEqual(down.first.proposed.limits, { memory: GiB });
  const up = plan({
    pod: pod([c('app', { memory: '512Mi' }, { memory: '1Gi' })]),
    recommendations: [{ containerName: 'app', target: { memory: 768 * MiB } }],
    memoryLimitRules: rules,
  });
  assert.deepEqual(up.first.proposed.limits, { memory: 1536 * MiB });
});

test('mayDecrease false: the memory limit is not lowered, the request still is', () => {
  const { first } = plan({
    pod: pod([c('app', { memory: '512Mi' }, { memory: '1Gi' })]),
    recommendations: [{ containerName: 'app', target: { memory: 256 * MiB } }],
    memoryLimitRules: { app: { mayDecrease: false } },
  });
  assert.deepEqual(first.proposed, { requests: { memory: 256 * MiB }, limits: { memory: GiB } });
});

test('a kept memory limit raises the request as far as the LimitRange ratio needs: limit 1Gi, ratio 2 -> request 512Mi', () => {
  const { first, codes } = plan({
    pod: pod([c('app', { memory: '512Mi' }, { memory: '1Gi' })]),
    limitRanges: [limitRange('Container', { maxLimitRequestRatio: { memory: '2' } })],
    recommendations: [{ containerName: 'app', target: { memory: 128 * MiB } }],
    memoryLimitRules: { app: { mayDecrease: false } },
  });
  assert.deepEqual(first.proposed, { requests: { memory: 512 * MiB }, limits: { memory: GiB } });
  assert.ok(codes.includes('RequestRaisedForLimitRangeRatio'));
});

test('requestsForBestEffort (pod creation): a BestEffort pod gets requests, no limits, and becomes Burstable', () => {
  const { result } = plan({
    pod: pod([c('app'), c('proxy')]),
    resourcePolicy: { containerPolicies: [{ containerName: 'proxy', mode: 'Off' }] },
    recommendations: [{ containerName: 'app', target: { cpu: 250, memory: 300 * MiB } }],
    requestsForBestEffort: true,
  });
  assert.deepEqual(
    result.containers.map((x) => x.proposed),
    [
      { requests: { cpu: 250, memory: 300 * MiB }, limits: {} },
      { requests: {}, limits: {} },
    ],
  );
  assert.deepEqual(result.reasons, []);
  const none = plan({ pod: pod([c('app')]), recommendations: [], requestsForBestEffort: true });
  assert.equal(none.result.changed, false);
  assert.deepEqual(none.result.reasons, []);
});

test('a Pod LimitRange max: the limit follows its scaled request with its ratio (2 x 250m/375m under 600m -> 200m/300m)', () => {
  const { result, codes } = plan({
    pod: pod([c('a', { cpu: '100m' }, { cpu: '150m' }), c('b', { cpu: '100m' }, { cpu: '150m' })]),
    limitRanges: [limitRange('Pod', { max: { cpu: '600m' } })],
    recommendations: [
      { containerName: 'a', target: { cpu: 250 } },
      { containerName: 'b', target: { cpu: 250 } },
    ],
  });
  assert.deepEqual(
    result.containers.map((x) => x.proposed),
    [
      { requests: { cpu: 200 }, limits: { cpu: 300 } },
      { requests: { cpu: 200 }, limits: { cpu: 300 } },
    ],
  );
  assert.ok(codes.includes('CappedToPodLimitRange'));
  assert.match(
    result.reasons[0]?.message ?? '',
    /^cpu: the pod's total limit 750m is above the Pod LimitRange max 600m: the requests of a, b scaled by 600m\/750m \(rounded down\), limits in proportion$/,
  );
});

test('a Pod LimitRange min raises the requests with the code RaisedToPodLimitRange', () => {
  const { codes } = plan({
    pod: pod([c('a', { cpu: '1m' }, { cpu: '1m' })]),
    limitRanges: [limitRange('Pod', { min: { cpu: '150m' } })],
    recommendations: [{ containerName: 'a', target: { cpu: 4 } }],
  });
  assert.ok(codes.includes('RaisedToPodLimitRange'));
});

test('a Pod LimitRange at creation scales the containers without a recommendation and in mode Off too, as upstream', () => {
  const input = {
    pod: pod([c('app', { cpu: '100m' }, { cpu: '100m' }), c('side', { cpu: '400m' }, { cpu: '400m' }), c('off', { cpu: '200m' }, { cpu: '200m' })]),
    resourcePolicy: { containerPolicies: [{ containerName: 'off', mode: 'Off' as const }] },
    limitRanges: [limitRange('Pod', { max: { cpu: '700m' } })],
    recommendations: [{ containerName: 'app', target: { cpu: 400 } }],
  };
  // 400m + 400m + 200m = 1000m over 700m: each x 700/1000.
  const created = planPodResources({ ...input, atCreation: true });
  assert.deepEqual(
    created.containers.map((x) => x.proposed.requests.cpu),
    [280, 280, 140],
  );
  assert.deepEqual(
    created.containers.flatMap((x) => x.reasons.map((a) => a.code)),
    ['LimitKeptEqualToRequest', 'LimitKeptEqualToRequest', 'LimitKeptEqualToRequest'],
    'no "left unchanged" for the moved containers',
  );
  // In place only the recommended container moves: 700m - 600m fixed leaves it 100m, where it is.
  const inPlace = planPodResources(input);
  assert.deepEqual(
    inPlace.containers.map((x) => x.proposed.requests.cpu),
    [100, 400, 200],
  );
  assert.equal(inPlace.changed, false);
});

test('in place, a pod admitted scaled into a Pod LimitRange stays where it is (no drain of the other containers)', () => {
  // Admitted as upstream: 100m + 400m over a 400m max gave 200m + 200m. The recommendation is still 400m.
  const input = {
    pod: pod([c('hamster', { cpu: '200m' }, { cpu: '200m' }), c('hamster2', { cpu: '200m' }, { cpu: '200m' })]),
    limitRanges: [limitRange('Pod', { max: { cpu: '400m' } })],
    recommendations: [{ containerName: 'hamster', target: { cpu: 400 } }],
  };
  const again = planPodResources(input);
  assert.equal(again.changed, false);
  assert.deepEqual(
    again.containers.map((x) => x.proposed.requests.cpu),
    [200, 200],
  );
});
