/** The fallback table of docs/updater.md, row by row, on followResize alone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followResize, type FollowUp } from '../../src/updater/follow-resize.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import type { ResizePhase, ResizeState } from '../../src/updater/resize-state.ts';
import { HOUR, MINUTE, NOW } from '../builders/time.ts';

const options = updaterOptions();
const state = (phase: ResizePhase, sinceAgo: number | undefined): ResizeState => ({
  phase,
  since: sinceAgo === undefined ? undefined : NOW - sinceAgo,
  message: undefined,
  source: 'conditions',
});
const outcome = (f: FollowUp) => (f.kind === 'none' ? 'none' : f.kind === 'replan' ? `replan/${f.waitReason}` : `${f.kind}/${f.reason}`);

const rows: [ResizePhase, number | undefined, string, string][] = [
  ['None', undefined, 'none', 'none'],
  ['Proposed', 10 * MINUTE, 'wait/ResizeProposed', 'wait/ResizeProposed'],
  ['Proposed', 61 * MINUTE, 'fallback/FallbackInProgressTimeout', 'replan/ResizeStuck'],
  ['Proposed', undefined, 'wait/ResizeProposed', 'wait/ResizeProposed'],
  ['InProgress', HOUR, 'wait/ResizeInProgress', 'wait/ResizeInProgress'],
  ['InProgress', HOUR + 1000, 'fallback/FallbackInProgressTimeout', 'replan/ResizeStuck'],
  ['Error', MINUTE, 'fallback/FallbackError', 'replan/ResizeStuck'],
  ['Deferred', 5 * MINUTE, 'wait/ResizeDeferred', 'wait/ResizeDeferred'],
  ['Deferred', 5 * MINUTE + 1000, 'fallback/FallbackDeferredTimeout', 'replan/ResizeDeferred'],
  ['Deferred', undefined, 'wait/ResizeDeferred', 'wait/ResizeDeferred'],
  ['Infeasible', 0, 'fallback/FallbackInfeasible', 'replan/ResizeInfeasible'],
];

for (const [phase, sinceAgo, orRecreate, inPlace] of rows) {
  const when = sinceAgo === undefined ? 'no time known' : `${sinceAgo / 1000}s`;
  test(`${phase} (${when}): InPlaceOrRecreate ${orRecreate}, InPlace ${inPlace}`, () => {
    assert.equal(outcome(followResize(state(phase, sinceAgo), 'InPlaceOrRecreate', undefined, NOW, options)), orRecreate);
    assert.equal(outcome(followResize(state(phase, sinceAgo), 'InPlace', undefined, NOW, options)), inPlace);
  });
}

test('without a time on the condition, the timer starts at the last update', () => {
  const legacy: ResizeState = { phase: 'Deferred', since: undefined, message: undefined, source: 'legacy' };
  assert.equal(outcome(followResize(legacy, 'InPlaceOrRecreate', NOW - 6 * MINUTE, NOW, options)), 'fallback/FallbackDeferredTimeout');
  assert.equal(outcome(followResize(legacy, 'InPlaceOrRecreate', NOW - 4 * MINUTE, NOW, options)), 'wait/ResizeDeferred');
});

test("the kubelet's message is carried into the decision", () => {
  const f = followResize(
    { phase: 'Infeasible', since: NOW, message: "Node didn't have enough capacity: cpu, requested: 2500, capacity: 1930", source: 'conditions' },
    'InPlaceOrRecreate',
    undefined,
    NOW,
    options,
  );
  assert.ok(f.kind === 'fallback');
  assert.match(f.message, /requested: 2500, capacity: 1930; evicting/);
});
