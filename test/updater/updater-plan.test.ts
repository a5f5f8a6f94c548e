import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { plan, type GlobalBudget, type WorkloadGroup } from '../../src/updater/updater-plan.ts';
import type { UpdaterOptions } from '../../src/policy/update-thresholds.ts';
import { container, pod, resizeInProgress, type ContainerSketch } from '../builders/pods.ts';
import { HOUR, MINUTE } from '../builders/time.ts';
import { vpa, type VpaSketch } from '../builders/vpas.ts';
import { context } from './planner-fixtures.ts';

const cpu = (request: string, extra: Partial<ContainerSketch> = {}) => container('app', { requests: { cpu: request, memory: '256Mi' }, ...extra });
// target 400m, bounds [300m, 800m]: 100m is far below, 200m below, 1600m far above.
const recommend = { app: { target: { cpu: '400m', memory: '256Mi' }, lower: { cpu: '300m' }, upper: { cpu: '800m' } } };

function group(pods: V1Pod[], sketch: VpaSketch = {}, extra: Partial<WorkloadGroup> = {}): WorkloadGroup {
  return { workload: 'Deployment/shop/web', vpa: vpa({ recommend, ...sketch }), pods, ...extra };
}

function run(groups: WorkloadGroup[], opts: { budget?: Partial<GlobalBudget>; options?: Partial<UpdaterOptions> } = {}) {
  const decisions = plan({ ...context({ options: opts.options ?? {} }), groups, budget: { resizes: 100, evictions: 100, ...opts.budget } });
  return decisions.map((d) => `${d.podName} ${d.action} ${d.reason}`);
}

const young = HOUR;

test('order: urgent first, then scale-ups, then the larger change; skips last', () => {
  const pods = [
    pod({ name: 'small-up', containers: [cpu('200m')], startedAgo: young }),
    pod({ name: 'down', containers: [cpu('1600m')], startedAgo: young }),
    pod({ name: 'big-up', containers: [cpu('100m')], startedAgo: young }),
    pod({ name: 'fine', containers: [cpu('400m')], startedAgo: young }),
    pod({ name: 'oom', containers: [cpu('400m', { limits: { memory: '512Mi' }, oomKilledAgo: MINUTE })], startedAgo: young }),
  ];
  assert.deepEqual(run([group(pods)], { options: { canary: false } }), [
    'oom ResizeInPlace OomKilled',
    'big-up ResizeInPlace OutsideBounds',
    'small-up ResizeInPlace OutsideBounds',
    'down ResizeInPlace OutsideBounds',
    'fine Skip WithinBounds',
  ]);
});

test('canary: with no pod settled, one pod (the largest change) goes first, the others wait', () => {
  const pods = ['web-1', 'web-2', 'web-3'].map((name, i) => pod({ name, containers: [cpu(`${100 + 50 * i}m`)], startedAgo: young }));
  assert.deepEqual(run([group(pods)]), ['web-1 ResizeInPlace OutsideBounds', 'web-2 Wait Canary', 'web-3 Wait Canary']);
});

test('canary: once a pod the updater resized has settled (resize done, Ready), the rest follow', () => {
  const pods = [
    pod({ name: 'web-1', containers: [cpu('200m')], startedAgo: young, resizedAgo: 20 * MINUTE }),
    pod({ name: 'web-2', containers: [cpu('100m')], startedAgo: young }),
    pod({ name: 'web-3', containers: [cpu('150m')], startedAgo: young }),
  ];
  // Each pod rises (200m -> 400m, x2; 100m -> 300m and 150m -> 300m, to the lowerBound): the largest change first, then name order.
  assert.deepEqual(run([group(pods)]), ['web-2 ResizeInPlace OutsideBounds', 'web-1 ResizeInPlace OutsideBounds', 'web-3 ResizeInPlace OutsideBounds']);
});

test('canary: while the canary is being resized, no other pod starts', () => {
  const pods = [
    pod({ name: 'web-1', containers: [cpu('200m')], conditions: [resizeInProgress(MINUTE)] }),
    pod({ name: 'web-2', containers: [cpu('100m')], startedAgo: young }),
  ];
  assert.deepEqual(run([group(pods)]), ['web-2 Wait Canary', 'web-1 Wait ResizeInProgress']);
});

test('canary: urgent actions do not wait for it', () => {
  const pods = [
    pod({ name: 'web-1', containers: [cpu('200m')], conditions: [resizeInProgress(MINUTE)] }),
    pod({ name: 'web-2', containers: [cpu('400m', { limits: { memory: '512Mi' }, oomKilledAgo: MINUTE })], startedAgo: young }),
  ];
  assert.deepEqual(run([group(pods)]), ['web-2 ResizeInPlace OomKilled', 'web-1 Wait ResizeInProgress']);
});

test('a single-replica workload is resized in place (non-disruptive) ...', () => {
  assert.deepEqual(run([group([pod({ name: 'solo', containers: [cpu('100m')], startedAgo: young })])]), ['solo ResizeInPlace OutsideBounds']);
});

test('... but not evicted (minReplicas 2), unless the VPA sets minReplicas 1', () => {
  const solo = [pod({ name: 'solo', containers: [cpu('100m')], startedAgo: young })];
  assert.deepEqual(run([group(solo, { mode: 'Recreate' })]), ['solo Wait MinReplicas']);
  assert.deepEqual(run([group(solo, { mode: 'Recreate', minReplicas: 1 })]), ['solo Evict OutsideBounds']);
});

test('a restart resize of a single replica is disruptive and waits for minReplicas too', () => {
  const solo = [pod({ name: 'solo', containers: [cpu('100m', { resizePolicy: { cpu: 'RestartContainer' } })], startedAgo: young })];
  assert.deepEqual(run([group(solo, { annotations: { 'tailor.dev/allow-container-restart': 'true' } })]), ['solo Wait MinReplicas']);
});

test('disruption budget: 4 replicas x tolerance 0.5 = 2 evictions at once', () => {
  const pods = ['a', 'b', 'c', 'd'].map((name, i) => pod({ name, containers: [cpu(`${100 + 10 * i}m`)], startedAgo: young }));
  assert.deepEqual(run([group(pods, { mode: 'Recreate' })], { options: { canary: false } }), [
    'a Evict OutsideBounds',
    'b Evict OutsideBounds',
    'c Wait DisruptionBudget',
    'd Wait DisruptionBudget',
  ]);
});

test('disruption budget: an unavailable pod uses it up (4 replicas, one not running: 2 - 1 = 1)', () => {
  const pods = ['a', 'b', 'c'].map((name, i) => pod({ name, containers: [cpu(`${100 + 10 * i}m`)], startedAgo: young }));
  pods.push(pod({ name: 'd', containers: [cpu('100m')], phase: 'Pending' }));
  assert.deepEqual(run([group(pods, { mode: 'Recreate' })], { options: { canary: false } }), [
    'a Evict OutsideBounds',
    'b Wait DisruptionBudget',
    'c Wait DisruptionBudget',
    'd Skip PodNotRunning',
  ]);
});

test('disruption budget: pods that are not Ready are down already and take none (3 crash-looping replicas, all evicted)', () => {
  // Upstream's e2e "evicts pods that OOM quickly" (evictAfterOOMSeconds): every replica crash-loops, so
  // none is Ready and the budget (max(1, 3 x 0.5) - 3 unavailable) is 0; they wait for ever without this.
  const notReady = [{ type: 'Ready', status: 'False' }] as never;
  const pods = ['a', 'b', 'c'].map((name, i) => pod({ name, containers: [cpu(`${100 + 10 * i}m`)], startedAgo: young, conditions: notReady }));
  assert.deepEqual(run([group(pods, { mode: 'Recreate' })], { options: { canary: false } }), [
    'a Evict OutsideBounds',
    'b Evict OutsideBounds',
    'c Evict OutsideBounds',
  ]);
  // One Ready among them: the Ready one still needs the budget, and there is none (1 - 2 unavailable).
  const mixed = ['a', 'b', 'c'].map((name, i) =>
    pod({ name, containers: [cpu(`${100 + 10 * i}m`)], startedAgo: young, ...(i < 2 ? { conditions: notReady } : {}) }),
  );
  assert.deepEqual(run([group(mixed, { mode: 'Recreate' })], { options: { canary: false } }), [
    'a Evict OutsideBounds',
    'b Evict OutsideBounds',
    'c Wait DisruptionBudget',
  ]);
});

test('global rate limits: resizes and evictions each stop at their budget, the most important first', () => {
  const inPlace = ['a', 'b', 'c'].map((name, i) => pod({ name, containers: [cpu(`${100 + 10 * i}m`)], startedAgo: young }));
  const evict = ['x', 'y'].map((name, i) => pod({ name, namespace: 'other', containers: [cpu(`${100 + 10 * i}m`)], startedAgo: young }));
  const decisions = run([group(inPlace), { ...group(evict, { mode: 'Recreate', minReplicas: 1 }), workload: 'Deployment/other/batch' }], {
    budget: { resizes: 2, evictions: 1 },
    options: { canary: false, evictionTolerance: 1 },
  });
  assert.deepEqual(decisions, [
    'x Evict OutsideBounds',
    'a ResizeInPlace OutsideBounds',
    'b ResizeInPlace OutsideBounds',
    'y Wait RateLimited',
    'c Wait RateLimited',
  ]);
});

test('a held action says what was planned', () => {
  const pods = ['web-1', 'web-2'].map((name) => pod({ name, containers: [cpu('100m')], startedAgo: young }));
  const decisions = plan({ ...context(), groups: [group(pods)], budget: { resizes: 10, evictions: 10 } });
  assert.match(decisions[1]!.message, /planned: ResizeInPlace OutsideBounds/);
  assert.equal(decisions[1]!.disruptive, false);
});

test('while the admission webhook status is not fresh, evictions wait (AdmissionUnavailable) and use no budget; resizes in place go on', () => {
  const inPlace = ['a', 'b'].map((name, i) => pod({ name, containers: [cpu(`${100 + 10 * i}m`)], startedAgo: young }));
  const evict = ['x', 'y'].map((name, i) => pod({ name, namespace: 'other', containers: [cpu(`${100 + 10 * i}m`)], startedAgo: young }));
  const groups = [group(inPlace), { ...group(evict, { mode: 'Recreate', minReplicas: 1 }), workload: 'Deployment/other/batch' }];
  const options = { canary: false, evictionTolerance: 1 };
  const held = plan({
    ...context({ options }),
    groups,
    budget: { resizes: 100, evictions: 100 },
    evictionsHeld: 'no admission webhook status (Lease tailor-system/vpa-admission-controller not found)',
  });
  assert.deepEqual(
    held.map((d) => `${d.podName} ${d.action} ${d.reason}`),
    ['a ResizeInPlace OutsideBounds', 'b ResizeInPlace OutsideBounds', 'x Wait AdmissionUnavailable', 'y Wait AdmissionUnavailable'],
  );
  assert.match(held.find((d) => d.podName === 'x')!.message, /^no admission webhook status .* \(planned: Evict OutsideBounds: /);
  // Without the hold the same plan evicts.
  assert.deepEqual(run(groups, { options }), [
    'x Evict OutsideBounds',
    'y Evict OutsideBounds',
    'a ResizeInPlace OutsideBounds',
    'b ResizeInPlace OutsideBounds',
  ]);
});
