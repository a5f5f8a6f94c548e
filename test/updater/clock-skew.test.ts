/**
 * Times on a pod that lie ahead of the updater's clock (another replica's or the API server's clock
 * runs ahead): the cooldown and the resize timeouts count from when the time was first seen, so
 * they end at most one period later instead of freezing until the clocks meet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decidePod } from '../../src/updater/decide-pod.ts';
import { FutureTimes } from '../../src/updater/future-times.ts';
import { container, pod, resizeInProgress, type PodSketch } from '../builders/pods.ts';
import { HOUR, MINUTE, NOW } from '../builders/time.ts';
import { vpa } from '../builders/vpas.ts';
import { context } from './planner-fixtures.ts';

const app = () => container('app', { requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' } });
// 100m is 5% below the lowerBound: outside the bounds, but not short enough to skip the cooldown (decision 0296)
const moreCpu = { app: { target: { cpu: '200m', memory: '512Mi' }, lower: { cpu: '105m', memory: '400Mi' }, upper: { cpu: '400m', memory: '800Mi' } } };

/** Decides for the pod at NOW + `after` with the loop's memory of future times. */
function decideAt(sketch: PodSketch, times: FutureTimes, after: number) {
  const now = NOW + after;
  const d = decidePod(
    { pod: pod(sketch), vpa: vpa({ recommend: moreCpu }), workload: 'Deployment/shop/web' },
    { ...context({ now }), futureTime: times.at(now) },
  );
  times.sweep();
  return d;
}

test('a last change 213 min in the future: cooldown counted from when first seen, ending one cooldown (15 min) later', () => {
  const skews: Array<[string, number]> = [];
  const times = new FutureTimes((subject, ahead) => skews.push([subject, ahead]));
  const sketch: PodSketch = { name: 'web-1', namespace: 'shop', containers: [app()], startedAgo: 2 * HOUR, resizedAgo: -213 * MINUTE };
  const first = decideAt(sketch, times, 0);
  assert.equal(first.action, 'Wait');
  assert.equal(first.reason, 'Cooldown');
  assert.equal(first.message, 'changed 0 s ago (its change time lies 213 min ahead of this clock: clock skew, counted from when first seen); cooldown 15 min');
  assert.equal(decideAt(sketch, times, 14 * MINUTE).reason, 'Cooldown');
  const after = decideAt(sketch, times, 15 * MINUTE + 1000);
  assert.equal(after.action, 'ResizeInPlace', after.message);
  // Said once for the pod, not every loop.
  assert.deepEqual(skews, [['shop/web-1 last update', 213 * MINUTE]]);
});

test('without memory of the loop (a one-shot plan) a future change counts as now, never as negative minutes', () => {
  const d = decidePod(
    { pod: pod({ containers: [app()], startedAgo: 2 * HOUR, resizedAgo: -213 * MINUTE }), vpa: vpa({ recommend: moreCpu }), workload: 'Deployment/shop/web' },
    context(),
  );
  assert.equal(d.reason, 'Cooldown');
  assert.doesNotMatch(d.message, /-\d/);
});

test('a resize in progress since a time in the future times out one timeout (1 h) after it was first seen', () => {
  const times = new FutureTimes(() => {});
  const sketch: PodSketch = { containers: [app()], startedAgo: 2 * HOUR, conditions: [resizeInProgress(-3 * HOUR)] };
  assert.equal(decideAt(sketch, times, 0).reason, 'ResizeInProgress');
  assert.equal(decideAt(sketch, times, 59 * MINUTE).reason, 'ResizeInProgress');
  assert.equal(decideAt(sketch, times, 61 * MINUTE).reason, 'FallbackInProgressTimeout');
});

test('FutureTimes: past times pass through; a new future time of the same subject counts from its own first sight; gone subjects are forgotten', () => {
  const skews: string[] = [];
  const times = new FutureTimes((subject) => skews.push(subject));
  assert.equal(times.at(1000)('a', 500), 500);
  assert.equal(times.at(1000)('a', 5000), 1000);
  assert.equal(times.at(2000)('a', 5000), 1000);
  assert.equal(times.at(3000)('a', 9000), 3000, 'another change time (a new write by the skewed replica)');
  assert.deepEqual(skews, ['a'], 'the subject is reported once while it stays skewed');
  times.sweep();
  times.sweep();
  assert.equal(times.at(4000)('a', 9000), 4000, 'forgotten after a loop without it');
  assert.deepEqual(skews, ['a', 'a']);
});
