/**
 * Pod-level resources (src/policy/pod-level-resources.ts): the pod-level recommendation is the sum
 * of the containers' (each within its own policy), the pod-level values are planned as one
 * container's, and the API server's rules for them always hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod, V1ResourceRequirements } from '@kubernetes/client-node';
import { planPodLevel, podLevelRecommendation, podLevelViolations, POD_LEVEL } from '../../src/policy/pod-level-resources.ts';
import { planPodResources } from '../../src/policy/pod-resources.ts';
import { limitRangeConstraints } from '../../src/policy/limit-range.ts';
import { c, MiB, pod } from './fixtures.ts';

function withPodLevel(p: V1Pod, resources: V1ResourceRequirements): V1Pod {
  p.spec!.resources = resources;
  return p;
}

const noLimitRange = limitRangeConstraints([]).pod;

test("the pod-level recommendation sums the containers', each within its own maxAllowed: app 300m capped to 250m + sidecar 40m = 290m", () => {
  const p = withPodLevel(pod([c('app', {})]), { requests: { cpu: '200m' } });
  p.spec!.initContainers = [
    { name: 'proxy', image: 'proxy', restartPolicy: 'Always' },
    { name: 'setup', image: 'setup' },
  ];
  const summed = podLevelRecommendation(
    p,
    [
      { containerName: 'app', target: { cpu: 300 }, lowerBound: { cpu: 200 }, upperBound: { cpu: 600 } },
      { containerName: 'proxy', target: { cpu: 40 } },
      // An ordinary init container has finished before the others run: it never counts.
      { containerName: 'setup', target: { cpu: 4000 } },
    ],
    { containerPolicies: [{ containerName: 'app', maxAllowed: { cpu: '250m' } }] },
  );
  assert.ok(summed.ok);
  assert.deepEqual(summed.recommendation, { containerName: POD_LEVEL, target: { cpu: 290 }, lowerBound: { cpu: 240 }, upperBound: { cpu: 290 } });
});

test('a container the VPA does not control counts with its own request; without one the pod-level share is unknown', () => {
  const p = withPodLevel(pod([c('app', {}), c('log', { cpu: '50m' })]), { requests: { cpu: '200m', memory: '256Mi' } });
  const recs = [{ containerName: 'app', target: { cpu: 300, memory: 100 * MiB } }];
  const off = { containerPolicies: [{ containerName: 'log', mode: 'Off' as const }] };
  const summed = podLevelRecommendation(p, recs, off);
  assert.equal(summed.ok, false);
  assert.match(summed.ok ? '' : summed.message, /^log has no memory recommendation and no memory request of its own/);
  const cpuOnly = withPodLevel(pod([c('app', {}), c('log', { cpu: '50m' })]), { requests: { cpu: '200m' } });
  const ok = podLevelRecommendation(cpuOnly, recs, off);
  assert.ok(ok.ok);
  assert.deepEqual(ok.recommendation.target, { cpu: 350 });
});

test("pod-level values are planned as a container's: limits keep their ratio (100m/200m -> 300m/600m), memory rounds to whole MiB", () => {
  const p = withPodLevel(pod([c('app', {})]), { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '200m', memory: '512Mi' } });
  const planned = planPodLevel({ pod: p, target: { cpu: 300, memory: 300_000_000 }, qosClass: 'Burstable', podLimitRange: noLimitRange });
  assert.deepEqual(planned.proposed, { requests: { cpu: 300, memory: 287 * MiB }, limits: { cpu: 600, memory: 574 * MiB } });
});

test('a Guaranteed pod stays Guaranteed: pod-level requests and limits move together', () => {
  const p = withPodLevel(pod([c('app', {})]), { limits: { cpu: '500m', memory: '512Mi' } });
  const planned = planPodLevel({ pod: p, target: { cpu: 300, memory: 256 * MiB }, qosClass: 'Guaranteed', podLimitRange: noLimitRange });
  assert.deepEqual(planned.proposed, { requests: { cpu: 300, memory: 256 * MiB }, limits: { cpu: 300, memory: 256 * MiB } });
});

test("the API server's rules hold: the request never below the containers' own requests, the limit never below a container's own limit", () => {
  const p = withPodLevel(pod([c('app', { cpu: '150m' }, { cpu: '450m' }), c('log', { cpu: '50m' })]), { requests: { cpu: '400m' }, limits: { cpu: '800m' } });
  const planned = planPodLevel({ pod: p, target: { cpu: 100 }, qosClass: 'Burstable', podLimitRange: noLimitRange });
  // 100m asked; the containers' own requests add up to 200m; the limit 2x200m = 400m is below app's own 450m.
  assert.deepEqual(planned.proposed, { requests: { cpu: 200 }, limits: { cpu: 450 } });
  assert.deepEqual(
    planned.reasons.filter((r) => r.code === 'RaisedToContainerValues').map((r) => r.resource),
    ['cpu', 'cpu'],
  );
  assert.deepEqual(podLevelViolations(p, planned.proposed), []);
  assert.deepEqual(podLevelViolations(p, { requests: { cpu: 100 }, limits: { cpu: 300 } }), [
    "pod-level cpu request 100m below the containers' own requests (200m)",
    "pod-level cpu limit 300m below a container's own limit (450m)",
  ]);
});

test('a Burstable pod does not become Guaranteed: where every request would equal its limit, one limit goes up a step', () => {
  const p = withPodLevel(pod([c('app', {})]), { requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '200m', memory: '512Mi' } });
  const planned = planPodLevel({
    pod: p,
    target: { cpu: 200 },
    qosClass: 'Burstable',
    resourcePolicy: { containerPolicies: [{ containerName: '*', controlledValues: 'RequestsOnly' }] },
    podLimitRange: noLimitRange,
  });
  assert.deepEqual(planned.proposed, { requests: { cpu: 200, memory: 512 * MiB }, limits: { cpu: 201, memory: 512 * MiB } });
  assert.ok(planned.reasons.some((r) => r.code === 'BurstableKept'));
});

test('planPodResources: the pod-level entry moves, the containers keep their own values; without podLevelResources the pod is left alone', () => {
  const p = withPodLevel(pod([c('app', { cpu: '50m' })]), { requests: { cpu: '100m' }, limits: { cpu: '200m' } });
  const recommendations = [{ containerName: 'app', target: { cpu: 300 } }];
  const plan = planPodResources({ pod: p, recommendations, podLevelResources: true });
  assert.equal(plan.changed, true);
  assert.deepEqual(
    plan.containers.map((x) => [x.containerName, x.kind, x.changedResources]),
    [
      ['app', 'container', []],
      [POD_LEVEL, 'pod', ['cpu']],
    ],
  );
  assert.deepEqual(plan.containers[1]!.proposed, { requests: { cpu: 300 }, limits: { cpu: 600 } });
  const alone = planPodResources({ pod: p, recommendations });
  assert.equal(alone.changed, false);
  assert.deepEqual(
    alone.reasons.map((r) => r.code),
    ['PodLevelResourcesLeftAlone'],
  );
});

test("a given pod-level recommendation (the updater's, OOM raise included) is used as it is", () => {
  const p = withPodLevel(pod([c('app', {})]), { requests: { memory: '256Mi' } });
  const plan = planPodResources({
    pod: p,
    recommendations: [
      { containerName: 'app', target: { memory: 256 * MiB } },
      { containerName: POD_LEVEL, target: { memory: 400 * MiB } },
    ],
    podLevelResources: true,
  });
  assert.deepEqual(plan.containers.find((x) => x.kind === 'pod')?.proposed, { requests: { memory: 400 * MiB }, limits: {} });
});
