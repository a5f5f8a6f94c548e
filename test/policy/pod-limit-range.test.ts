import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podBoundScale, podTotalsFit, scaleForPodBound, type PodBoundScale, type PodBoundShare } from '../../src/policy/pod-limit-range.ts';
import { MiB } from './fixtures.ts';

const equal = (v: number, movable = true): PodBoundShare => ({ request: v, limit: v, movable });
const scaled = (shares: PodBoundShare[], s: PodBoundScale) => shares.map((x) => (x.movable ? scaleForPodBound(x.request!, s) : x.request));

test('above max: requests scaled by max / summed limits, rounded down (upstream: 4m, 21m, 90m under 80m -> 2m, 14m, 62m)', () => {
  const shares = [equal(4), equal(21), equal(90)];
  const s = podBoundScale(shares, 'cpu', { max: 80 });
  assert.ok(s && s.direction === 'lower');
  assert.deepEqual([s.num, s.den], [80, 115]);
  assert.deepEqual(scaled(shares, s), [2, 14, 62]);
  assert.equal(s.why, "cpu: the pod's total limit 115m is above the Pod LimitRange max 80m");
});

test('below min: requests scaled by min / summed requests, rounded up (150m: 6m, 28m, 118m)', () => {
  const shares = [equal(4), equal(21), equal(90)];
  const s = podBoundScale(shares, 'cpu', { min: 150 });
  assert.ok(s && s.direction === 'raise');
  assert.deepEqual(scaled(shares, s), [6, 28, 118]);
});

test('below min: the side that needs the larger factor decides (requests 2 x 100Mi, limits 2 x 200Mi, min 500Mi -> x 2.5)', () => {
  const shares = [
    { request: 100 * MiB, limit: 200 * MiB, movable: true },
    { request: 100 * MiB, limit: 200 * MiB, movable: true },
  ];
  const s = podBoundScale(shares, 'memory', { min: 500 * MiB });
  assert.ok(s && s.direction === 'raise');
  assert.deepEqual([s.num, s.den], [500 * MiB, 200 * MiB]);
  assert.deepEqual(scaled(shares, s), [250 * MiB, 250 * MiB]);
});

test('above max with a container without a limit: the summed requests count too (real LimitRanger)', () => {
  const shares = [
    { request: 300, movable: true },
    { request: 200, limit: 200, movable: true },
  ];
  const s = podBoundScale(shares, 'cpu', { max: 400 });
  assert.ok(s && s.direction === 'lower');
  assert.deepEqual([s.num, s.den], [400, 500]);
});

test('fixed containers keep their values; the movable ones share what is left (in place: 400m max, 200m fixed -> x 200/400)', () => {
  const shares = [equal(400), equal(200, false)];
  const s = podBoundScale(shares, 'cpu', { max: 400 });
  assert.ok(s && s.direction === 'lower');
  assert.deepEqual(scaled(shares, s), [200, 200]);
});

test('within bounds: no scale; a fixed part alone out of bounds, or min and max out of reach of one factor: unfit', () => {
  assert.equal(podBoundScale([equal(100), equal(200)], 'cpu', { min: 300, max: 300 }), undefined);
  assert.equal(podBoundScale([equal(500, false), equal(100)], 'cpu', { max: 400 })?.direction, 'unfit');
  assert.equal(podBoundScale([equal(100, false)], 'cpu', { min: 400 })?.direction, 'unfit');
  // Requests 2Mi (one container has no limit), limits 1Mi: no factor puts both at exactly 2Mi.
  const shares = [
    { request: MiB, movable: true },
    { request: MiB, limit: MiB, movable: true },
  ];
  assert.equal(podBoundScale(shares, 'memory', { min: 2 * MiB, max: 2 * MiB })?.direction, 'unfit');
});

test('podTotalsFit checks requests and limits against both bounds, init containers on their own', () => {
  const v = (request: number, limit?: number) => ({ requests: { cpu: request }, limits: limit === undefined ? {} : { cpu: limit } });
  assert.equal(podTotalsFit([v(100, 300)], [], 'cpu', { max: 200 }), false, 'limit above max');
  assert.equal(podTotalsFit([v(300), v(100, 100)], [], 'cpu', { max: 200 }), false, 'requests above max, limits not');
  assert.equal(podTotalsFit([v(250), v(100, 100)], [], 'cpu', { min: 300 }), false, 'limits below min, requests not');
  assert.equal(podTotalsFit([v(100, 100)], [v(500, 500)], 'cpu', { min: 300 }), true, 'an init container alone meets the min');
  assert.equal(podTotalsFit([{ requests: {}, limits: {} }], [], 'cpu', { min: 300 }), true, 'no value at all: not checked here');
});
