/**
 * Upstream 1.8's boost annotation `vpaCpuStartupBoost/<container>` (its admission controller's mark,
 * value: the resources before the boost), honoured by the updater: wait while the boost lasts, then
 * one in-place cpu resize to what Tailor would apply. The first test is upstream's e2e spec
 * "Updater Unboost pods when they become Ready [FeatureGate:CPUStartupBoost]" as one planner call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpdateMode } from '../../src/api/vpa.ts';
import { container, pod, type ContainerSketch } from '../builders/pods.ts';
import { MINUTE, NOW, SECOND } from '../builders/time.ts';
import { vpa, type VpaSketch } from '../builders/vpas.ts';
import { decide } from './planner-fixtures.ts';

const ORIGINAL = '{"requests":{"cpu":"200m","memory":"100Mi"},"limits":{}}';
const ready = (agoMs: number) => ({ type: 'Ready', status: 'True', lastTransitionTime: new Date(NOW - agoMs) });

/** A hamster pod of the spec, Ready `readyAgo` ms before NOW, with upstream's annotation on its container. */
function hamster(opts: { readyAgo?: number; annotation?: string; sketch?: Partial<ContainerSketch>; resizedAgo?: number } = {}) {
  const c = container('hamster', { requests: { cpu: '200m', memory: '100Mi' }, ...opts.sketch });
  const conditions = opts.readyAgo === undefined ? [{ type: 'Ready', status: 'False' }] : [ready(opts.readyAgo)];
  return pod({
    name: 'hamster-1',
    startedAgo: MINUTE,
    conditions: conditions as never,
    containers: [c],
    annotations: { 'vpaCpuStartupBoost/hamster': opts.annotation ?? ORIGINAL },
    ...(opts.resizedAgo !== undefined ? { resizedAgo: opts.resizedAgo } : {}),
  });
}

/** The spec's VPA: startupBoost factor 2 for 1 s, target 100m / 100Mi, no bounds. */
function hamsterVpa(mode: UpdateMode = 'Auto', extra: VpaSketch = {}) {
  return vpa({
    mode,
    startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 1 } },
    recommend: { hamster: { target: { cpu: '100m', memory: '100Mi' } } },
    ...extra,
  });
}

const cpuChanges = (d: ReturnType<typeof decide>) =>
  d.changes.map((c) => [c.containerName, c.from.requests.cpu, c.to.requests.cpu, c.to.requests.memory, c.resources, c.restart]);

test("upstream's e2e 'Unboost pods when they become Ready': Ready 5 s ago, 1 s boost over, the cpu goes to the recommendation in place", () => {
  const d = decide(hamster({ readyAgo: 5 * SECOND }), hamsterVpa());
  assert.deepEqual([d.action, d.reason, d.disruptive, d.urgent], ['ResizeInPlace', 'StartupBoostEnded', false, true]);
  assert.deepEqual(cpuChanges(d), [['hamster', 200, 100, 100 * 1024 * 1024, ['cpu'], false]]);
  assert.equal(d.message, "upstream's start-up cpu boost over (vpaCpuStartupBoost/hamster, ready+1s): cpu to the recommendation");
});

test('while it lasts (Ready 0.5 s ago, or not Ready yet) the pod waits: no other change', () => {
  const d = decide(hamster({ readyAgo: 500 }), hamsterVpa());
  assert.deepEqual(
    [d.action, d.reason, d.message],
    ['Wait', 'StartupBoost', "upstream's start-up cpu boost (vpaCpuStartupBoost/hamster) until ready+1s: 1 s left"],
  );
  const unready = decide(hamster(), hamsterVpa('InPlaceOrRecreate', { recommend: { hamster: { target: { cpu: '100m' }, upper: { cpu: '150m' } } } }));
  assert.deepEqual([unready.action, unready.reason], ['Wait', 'StartupBoost'], 'above its upper bound, yet it waits');
  assert.match(unready.message, /the pod is not Ready yet$/);
});

test('updateMode Off: back to the values before the boost (the annotation), not to the recommendation', () => {
  const p = hamster({
    readyAgo: MINUTE,
    annotation: '{"requests":{"cpu":"100m","memory":"100Mi"},"limits":{"cpu":"150m"}}',
    sketch: { requests: { cpu: '200m', memory: '100Mi' }, limits: { cpu: '300m' } },
  });
  const d = decide(p, hamsterVpa('Off', { recommend: { hamster: { target: { cpu: '120m' } } } }));
  assert.deepEqual([d.action, d.reason], ['ResizeInPlace', 'StartupBoostEnded']);
  assert.deepEqual(
    d.changes.map((c) => [c.to.requests.cpu, c.to.limits.cpu]),
    [[100, 150]],
  );
  assert.match(d.message, /cpu back to the values before the boost$/);
  assert.equal(decide(hamster({ readyAgo: 500 }), hamsterVpa('Off')).reason, 'StartupBoost');
});

test('no recommendation (yet, or none for the container, or its mode Off): back to the values before the boost, as upstream', () => {
  const p = hamster({ readyAgo: MINUTE, annotation: '{"requests":{"cpu":"100m"},"limits":{}}' });
  assert.deepEqual(
    decide(p, hamsterVpa('Auto', { recommend: {} })).changes.map((c) => c.to.requests.cpu),
    [100],
  );
  assert.deepEqual(
    decide(p, hamsterVpa('Auto', { policies: [{ containerName: 'hamster', mode: 'Off' }] })).changes.map((c) => c.to.requests.cpu),
    [100],
  );
});

test('the recommendation as the planner shapes it: minAllowed holds; a Guaranteed limit moves with the request', () => {
  const p = hamster({
    readyAgo: MINUTE,
    sketch: { requests: { cpu: '200m', memory: '100Mi' }, limits: { cpu: '200m', memory: '100Mi' } },
    annotation: '{"requests":{"cpu":"100m","memory":"100Mi"},"limits":{"cpu":"100m","memory":"100Mi"}}',
  });
  const d = decide(p, hamsterVpa('Auto', { policies: [{ containerName: 'hamster', minAllowed: { cpu: '150m' } }] }));
  assert.deepEqual(
    d.changes.map((c) => [c.to.requests.cpu, c.to.limits.cpu, c.to.limits.memory]),
    [[150, 150, 100 * 1024 * 1024]],
  );
});

test('an annotation that cannot be read: Skip StartupBoostStuck with the reason, never a crash', () => {
  const d = decide(hamster({ readyAgo: MINUTE, annotation: '{"requests":{"cpu":"lots"}}' }), hamsterVpa());
  assert.deepEqual([d.action, d.reason], ['Skip', 'StartupBoostStuck']);
  assert.match(d.message, /^vpaCpuStartupBoost\/hamster: requests\.cpu: quantity "lots" is malformed.*; the boost cannot be given back$/);
  assert.equal(
    decide(hamster({ readyAgo: MINUTE, annotation: 'not json' }), hamsterVpa()).message,
    'vpaCpuStartupBoost/hamster is not JSON; the boost cannot be given back',
  );
});

test('given back already (the updater resized the pod after the end; Tailor cannot remove the annotation): the usual rules', () => {
  // Ready 5 s ago, ended 4 s ago, resized 2 s ago: the usual rules find it within its bounds
  const back = decide(
    hamster({ readyAgo: 5 * SECOND, resizedAgo: 2 * SECOND, sketch: { requests: { cpu: '100m', memory: '100Mi' } } }),
    hamsterVpa('Auto', { recommend: { hamster: { target: { cpu: '150m', memory: '100Mi' } } } }),
  );
  assert.deepEqual([back.action, back.reason], ['Skip', 'WithinBounds']);
  // a resize before the end (the annotation came later) does not count
  assert.equal(decide(hamster({ readyAgo: 5 * SECOND, resizedAgo: 10 * SECOND }), hamsterVpa()).reason, 'StartupBoostEnded');
  // already at the target: nothing to give back
  assert.equal(decide(hamster({ readyAgo: 5 * SECOND, sketch: { requests: { cpu: '100m', memory: '100Mi' } } }), hamsterVpa()).reason, 'WithinBounds');
});

test('cpu resizePolicy RestartContainer (upstream boosts such containers too): a restarting return when restarts are allowed, else stuck', () => {
  const rigid = hamster({ readyAgo: MINUTE, sketch: { resizePolicy: { cpu: 'RestartContainer' } } });
  const allowed = decide(rigid, hamsterVpa('Auto', { annotations: { 'tailor.dev/allow-container-restart': 'true' } }));
  assert.deepEqual([allowed.action, allowed.reason, allowed.disruptive, allowed.urgent], ['ResizeWithRestart', 'StartupBoostEnded', true, true]);
  assert.match(allowed.message, /; restarts hamster$/);
  const refused = decide(rigid, hamsterVpa());
  assert.deepEqual([refused.action, refused.reason], ['Skip', 'StartupBoostStuck']);
  assert.match(refused.message, /, but that restarts hamster \(cpu resizePolicy RestartContainer\) and container restarts are not allowed/);
});

test('a VPA that asks for no boost: a pod not Ready yet is not held (as upstream); once Ready its boost is over at once', () => {
  const plain = vpa({ mode: 'InPlaceOrRecreate', recommend: { hamster: { target: { cpu: '100m' }, upper: { cpu: '150m' } } } });
  const unready = decide(hamster(), plain);
  assert.notEqual(unready.reason, 'StartupBoost');
  assert.deepEqual(
    [decide(hamster({ readyAgo: 0 }), plain).reason, decide(hamster({ readyAgo: 0 }), plain).message],
    ['StartupBoostEnded', "upstream's start-up cpu boost over (vpaCpuStartupBoost/hamster, ready): cpu to the recommendation"],
  );
});

test("Tailor's own record wins over upstream's annotation on the same pod; a container missing from the pod is ignored", () => {
  const p = hamster({ readyAgo: 5 * SECOND });
  p.metadata!.annotations!['vpaCpuStartupBoost/gone'] = ORIGINAL;
  assert.deepEqual(cpuChanges(decide(p, hamsterVpa())), [['hamster', 200, 100, 100 * 1024 * 1024, ['cpu'], false]]);
  p.metadata!.annotations!['tailor.dev/startup-cpu-boost-record'] = '{"until":"ready+30s","containers":{"hamster":{"request":150}}}';
  const d = decide(p, hamsterVpa());
  assert.deepEqual([d.action, d.reason], ['Wait', 'StartupBoost']);
  assert.match(d.message, /^start-up cpu boost until ready\+30s/);
});
