/**
 * Per-workload pace and disruption windows in the planner (annotations on the VPA): step limits,
 * cooldown, canary share, windows, and a bad annotation leaving the workload alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { plan, type WorkloadGroup } from '../../src/updater/updater-plan.ts';
import type { PodDecision } from '../../src/updater/decision.ts';
import { formatDecision } from '../../src/updater/dry-run.ts';
import type { UpdaterOptions } from '../../src/policy/update-thresholds.ts';
import { container, pod } from '../builders/pods.ts';
import { HOUR, MINUTE, NOW } from '../builders/time.ts';
import { vpa, type VpaSketch } from '../builders/vpas.ts';
import { context } from './planner-fixtures.ts';

const cpu = (request: string) => container('app', { requests: { cpu: request, memory: '256Mi' } });
// target 400m, bounds [300m, 800m]
const recommend = { app: { target: { cpu: '400m', memory: '256Mi' }, lower: { cpu: '300m' }, upper: { cpu: '800m' } } };

function decisions(pods: V1Pod[], sketch: VpaSketch = {}, opts: { options?: Partial<UpdaterOptions>; now?: number } = {}): PodDecision[] {
  const group: WorkloadGroup = { workload: 'Deployment/shop/web', vpa: vpa({ recommend, ...sketch }), pods };
  return plan({
    ...context({ options: opts.options ?? {}, ...(opts.now !== undefined ? { now: opts.now } : {}) }),
    groups: [group],
    budget: { resizes: 100, evictions: 100 },
  });
}
const lines = (ds: PodDecision[]) => ds.map((d) => `${d.podName} ${d.action} ${d.reason}`);
const cpuTo = (d: PodDecision) => d.changes[0]?.to.requests.cpu;
const solo = (request: string, extra: Partial<Parameters<typeof pod>[0]> = {}) => [
  pod({ name: 'solo', startedAgo: HOUR, ...extra, containers: [cpu(request)] }),
];

test('max-increase: 100m towards 400m (lowerBound 300m) goes to 300m by default (a raise reaches the lowerBound), to 150m with 50% (a hard cap)', () => {
  assert.equal(cpuTo(decisions(solo('100m'))[0]!), 300);
  assert.equal(cpuTo(decisions(solo('200m'))[0]!), 400, 'x2 is more than the lowerBound: the step rule');
  assert.equal(cpuTo(decisions(solo('100m'), { annotations: { 'tailor.dev/max-increase': '50%' } })[0]!), 150);
  assert.equal(cpuTo(decisions(solo('100m'), { annotations: { 'tailor.dev/max-increase': '300%' } })[0]!), 400);
});

test('max-decrease: 1600m towards 400m goes to 800m by default (x0.5), to 1200m with 25%', () => {
  assert.equal(cpuTo(decisions(solo('1600m'))[0]!), 800);
  assert.equal(cpuTo(decisions(solo('1600m'), { annotations: { 'tailor.dev/max-decrease': '25%' } })[0]!), 1200);
});

test('cooldown: a cut of a pod changed 10 min ago waits under the global 15 min, not under 5m', () => {
  const pods = solo('1600m', { resizedAgo: 10 * MINUTE });
  assert.deepEqual(lines(decisions(pods)), ['solo Wait Cooldown']);
  assert.deepEqual(lines(decisions(pods, { annotations: { 'tailor.dev/cooldown': '5m' } })), ['solo ResizeInPlace OutsideBounds']);
  assert.deepEqual(lines(decisions(solo('1600m', { resizedAgo: 20 * MINUTE }), { annotations: { 'tailor.dev/cooldown': '30m' } })), ['solo Wait Cooldown']);
});

test("cooldown: a raise of a pod short of its lowerBound (100m against 300m) is not held by the global cooldown, but is by the workload's own", () => {
  const pods = solo('100m', { resizedAgo: 10 * MINUTE });
  const [d] = decisions(pods);
  assert.equal(`${d!.action} ${d!.reason}`, 'ResizeInPlace OutsideBounds');
  assert.match(d!.message, /changed 10 min ago, but app short of the lowerBound by 10% or more: not held by the cooldown/);
  assert.equal(cpuTo(d!), 300);
  assert.deepEqual(lines(decisions(pods, { annotations: { 'tailor.dev/cooldown': '30m' } })), ['solo Wait Cooldown']);
});

test('cooldown: a 20s cooldown is said in seconds (not "0 min"), as is a change 12 s ago', () => {
  const [d] = decisions(solo('100m', { resizedAgo: 12_000 }), { annotations: { 'tailor.dev/cooldown': '20s' } });
  assert.equal(d!.reason, 'Cooldown');
  assert.equal(d!.message, 'changed 12 s ago; cooldown 20 s');
});

const five = () => ['web-1', 'web-2', 'web-3', 'web-4', 'web-5'].map((name) => pod({ name, containers: [cpu('100m')], startedAgo: HOUR }));

test('canary-share: 40% of 5 pods -> 2 go first; 0% -> all; default -> one', () => {
  const count = (ds: PodDecision[]) => ({ act: ds.filter((d) => d.action === 'ResizeInPlace').length, canary: ds.filter((d) => d.reason === 'Canary').length });
  assert.deepEqual(count(decisions(five())), { act: 1, canary: 4 });
  assert.deepEqual(count(decisions(five(), { annotations: { 'tailor.dev/canary-share': '40%' } })), { act: 2, canary: 3 });
  assert.deepEqual(count(decisions(five(), { annotations: { 'tailor.dev/canary-share': '0%' } })), { act: 5, canary: 0 });
  // the annotation overrides a global canary that is off, too
  assert.deepEqual(count(decisions(five(), { annotations: { 'tailor.dev/canary-share': '20%' } }, { options: { canary: false } })), { act: 1, canary: 4 });
  const waiting = decisions(five(), { annotations: { 'tailor.dev/canary-share': '40%' } }).find((d) => d.reason === 'Canary')!;
  assert.match(waiting.message, /waiting for 2 canary pods/);
});

test('canary-share: once that many pods have settled, the rest follow', () => {
  const pods = five().map((p, i) => (i < 2 ? pod({ name: p.metadata!.name!, containers: [cpu('200m')], startedAgo: HOUR, resizedAgo: 20 * MINUTE }) : p));
  const ds = decisions(pods, { annotations: { 'tailor.dev/canary-share': '40%' } });
  assert.equal(ds.filter((d) => d.reason === 'Canary').length, 0);
  // one settled pod is not enough for a share of 3
  const one = five().map((p, i) => (i < 1 ? pod({ name: p.metadata!.name!, containers: [cpu('200m')], startedAgo: HOUR, resizedAgo: 20 * MINUTE }) : p));
  assert.equal(decisions(one, { annotations: { 'tailor.dev/canary-share': '60%' } }).filter((d) => d.action === 'ResizeInPlace').length, 2);
});

test('a bad annotation: every pod is skipped with the annotation named, nothing is changed', () => {
  const ds = decisions(five(), { annotations: { 'tailor.dev/max-increase': 'fifty' } });
  assert.deepEqual(new Set(ds.map((d) => `${d.action} ${d.reason}`)), new Set(['Skip InvalidAnnotation']));
  assert.match(ds[0]!.message, /tailor\.dev\/max-increase: "fifty": not a percentage/);
  const typo = decisions(five(), { annotations: { 'tailor.dev/max-increse': '50%' } });
  assert.match(typo[0]!.message, /tailor\.dev\/max-increse: "50%": unknown annotation/);
});

// NOW is Monday 2026-06-01 12:00 UTC = 14:00 in Berlin (summer time).
const evictable = () => ['web-1', 'web-2', 'web-3', 'web-4'].map((name) => pod({ name, containers: [cpu('100m')], startedAgo: HOUR }));

test('disruption window closed: evictions wait and say when it opens; open: they go', () => {
  const closed = {
    mode: 'Recreate' as const,
    annotations: { 'tailor.dev/disruption-windows': '* 2-4 * * 1-5', 'tailor.dev/disruption-window-timezone': 'Europe/Berlin' },
  };
  const ds = decisions(evictable(), closed, { options: { canary: false } });
  assert.deepEqual(new Set(ds.map((d) => `${d.action} ${d.reason}`)), new Set(['Wait DisruptionWindow']));
  // Tuesday 02:00 Berlin = 00:00 UTC
  assert.match(
    ds[0]!.message,
    /outside the disruption window \* 2-4 \* \* 1-5 \(Europe\/Berlin\); it opens next at 2026-06-02T00:00:00\.000Z \(planned: Evict OutsideBounds/,
  );
  // at 03:30 Berlin the next day (01:30 UTC) the window is open: the budget (2 of 4) is evicted
  const open = decisions(evictable(), closed, { options: { canary: false }, now: Date.parse('2026-06-02T01:30:00Z') });
  assert.equal(open.filter((d) => d.action === 'Evict').length, 2);
  assert.equal(open.filter((d) => d.reason === 'DisruptionWindow').length, 0);
});

test('disruption window closed: in-place resizes that restart nothing go on', () => {
  const annotations = { 'tailor.dev/disruption-windows': '* 2-4 * * 1-5' };
  assert.deepEqual(lines(decisions(solo('100m'), { annotations })), ['solo ResizeInPlace OutsideBounds']);
});

test('disruption window closed: a resize that restarts a container waits', () => {
  const restarting = [
    pod({
      name: 'solo',
      containers: [container('app', { requests: { cpu: '100m', memory: '256Mi' }, resizePolicy: { cpu: 'RestartContainer' } })],
      startedAgo: HOUR,
    }),
  ];
  const annotations = { 'tailor.dev/disruption-windows': '* 2-4 * * 1-5', 'tailor.dev/allow-container-restart': 'true' };
  assert.deepEqual(lines(decisions(restarting, { annotations, minReplicas: 1 })), ['solo Wait DisruptionWindow']);
  assert.deepEqual(lines(decisions(restarting, { annotations, minReplicas: 1 }, { now: Date.parse('2026-06-02T02:10:00Z') })), [
    'solo ResizeWithRestart OutsideBounds',
  ]);
});

test('disruption window closed: in one resize, the cpu that restarts nothing goes on in place (its limit with its request), the memory restart waits', () => {
  // Guaranteed: cpu NotRequired, memory RestartContainer; both outside the bounds
  const mixed = [
    pod({
      name: 'solo',
      containers: [
        container('app', {
          requests: { cpu: '100m', memory: '128Mi' },
          limits: { cpu: '100m', memory: '128Mi' },
          resizePolicy: { memory: 'RestartContainer' },
        }),
      ],
      startedAgo: HOUR,
    }),
  ];
  const both = { app: { target: { cpu: '200m', memory: '256Mi' }, lower: { cpu: '150m', memory: '200Mi' }, upper: { cpu: '400m', memory: '512Mi' } } };
  const annotations = { 'tailor.dev/disruption-windows': '* 2-4 * * 1-5', 'tailor.dev/allow-container-restart': 'true' };
  const [d] = decisions(mixed, { annotations, minReplicas: 1, recommend: both });
  assert.deepEqual(lines([d!]), ['solo ResizeInPlace OutsideBounds']);
  assert.equal(d!.disruptive, false);
  assert.deepEqual(
    d!.changes.map((c) => ({
      resources: c.resources,
      restart: c.restart,
      cpu: [c.to.requests.cpu, c.to.limits.cpu],
      memory: [c.to.requests.memory, c.to.limits.memory],
    })),
    [{ resources: ['cpu'], restart: false, cpu: [200, 200], memory: [128 * 2 ** 20, 128 * 2 ** 20] }],
  );
  assert.equal(d!.waiting?.reason, 'DisruptionWindow');
  assert.deepEqual(
    d!.waiting?.changes.map((c) => ({ resources: c.resources, restart: c.restart, memory: c.to.limits.memory, cpu: c.to.limits.cpu })),
    [{ resources: ['memory'], restart: true, memory: 256 * 2 ** 20, cpu: 200 }],
  );
  assert.match(
    d!.message,
    /; in place now, restarting nothing: app cpu; waits: app memory \(restart\): outside the disruption window \* 2-4 \* \* 1-5 \(UTC\); it opens next at 2026-06-02T02:00:00\.000Z$/,
  );
  assert.match(
    formatDecision(d!),
    /\| app: cpu request 100m -> 200m, cpu limit 100m -> 200m \| waits \(DisruptionWindow\): app: memory request 128Mi -> 256Mi, memory limit 128Mi -> 256Mi \(restart\)$/,
  );
  // the window open: one resize with both, restarting app
  const [open] = decisions(mixed, { annotations, minReplicas: 1, recommend: both }, { now: Date.parse('2026-06-02T02:10:00Z') });
  assert.deepEqual(lines([open!]), ['solo ResizeWithRestart OutsideBounds']);
  assert.deepEqual(open!.changes[0]!.resources, ['cpu', 'memory']);
  assert.equal(open!.waiting, undefined);
});

test('the plan is the same at the same time (windows depend on now only)', () => {
  const annotations = { 'tailor.dev/disruption-windows': '* 2-4 * * 1-5' };
  const a = decisions(evictable(), { mode: 'Recreate', annotations }, { now: NOW });
  const b = decisions(evictable(), { mode: 'Recreate', annotations }, { now: NOW });
  assert.deepEqual(a, b);
});
