import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readResizeState } from '../../src/updater/resize-state.ts';
import { container, pod, resizeInProgress, resizePending } from '../builders/pods.ts';
import { MINUTE, NOW, SECOND } from '../builders/time.ts';

const app = container('app', { requests: { cpu: '100m' } });

test('no conditions and no legacy field: None', () => {
  assert.deepEqual(readResizeState(pod({ containers: [app] })), { phase: 'None', since: undefined, message: undefined, source: 'none' });
});

test('PodResizePending Infeasible: the phase, its message and the lastTransitionTime', () => {
  const message = "Node didn't have enough capacity: cpu, requested: 2500, capacity: 1930";
  const state = readResizeState(pod({ containers: [app], conditions: [resizePending('Infeasible', 3 * MINUTE, { message })] }));
  assert.deepEqual(state, { phase: 'Infeasible', since: NOW - 3 * MINUTE, message, source: 'conditions' });
});

test('PodResizePending Deferred: since its lastTransitionTime', () => {
  const state = readResizeState(pod({ containers: [app], conditions: [resizePending('Deferred', 90 * SECOND)] }));
  assert.equal(state.phase, 'Deferred');
  assert.equal(NOW - state.since!, 90_000);
});

test('PodResizeInProgress without reason is InProgress; with reason Error it is Error', () => {
  assert.equal(readResizeState(pod({ containers: [app], conditions: [resizeInProgress(MINUTE)] })).phase, 'InProgress');
  const failed = readResizeState(pod({ containers: [app], conditions: [resizeInProgress(MINUTE, { error: 'cgroup write failed' })] }));
  assert.equal(failed.phase, 'Error');
  assert.equal(failed.message, 'cgroup write failed');
});

test('a condition about an older generation is stale: the newer spec is Proposed, not Infeasible', () => {
  const stale = pod({ containers: [app], generation: 3, conditions: [resizePending('Infeasible', MINUTE, { observedGeneration: 2 })] });
  assert.equal(readResizeState(stale).phase, 'Proposed');
  const current = pod({ containers: [app], generation: 3, conditions: [resizePending('Infeasible', MINUTE, { observedGeneration: 3 })] });
  assert.equal(readResizeState(current).phase, 'Infeasible');
});

test('status.observedGeneration behind metadata.generation without conditions: Proposed', () => {
  assert.equal(readResizeState(pod({ containers: [app], generation: 4, observedGeneration: 3 })).phase, 'Proposed');
  assert.equal(readResizeState(pod({ containers: [app], generation: 4, observedGeneration: 4 })).phase, 'None');
});

test('Pending takes precedence over InProgress when both are current', () => {
  const state = readResizeState(pod({ containers: [app], conditions: [resizeInProgress(5 * MINUTE), resizePending('Deferred', MINUTE)] }));
  assert.equal(state.phase, 'Deferred');
});

test('legacy status.resize values map one to one, "" is None, and carry no time', () => {
  for (const value of ['Proposed', 'InProgress', 'Deferred', 'Infeasible'] as const) {
    const state = readResizeState(pod({ containers: [app], legacyResize: value }));
    assert.deepEqual(state, { phase: value, since: undefined, message: undefined, source: 'legacy' });
  }
  assert.equal(readResizeState(pod({ containers: [app], legacyResize: '' })).phase, 'None');
});

test('conditions win over the legacy field when both are present', () => {
  const state = readResizeState(pod({ containers: [app], legacyResize: 'InProgress', conditions: [resizePending('Infeasible', MINUTE)] }));
  assert.equal(state.phase, 'Infeasible');
});

test('a lastTransitionTime given as a Date (client-node deserialised) is read too', () => {
  const p = pod({ containers: [app], conditions: [resizePending('Deferred', MINUTE)] });
  p.status!.conditions![0]!.lastTransitionTime = new Date(NOW - 2 * MINUTE);
  assert.equal(readResizeState(p).since, NOW - 2 * MINUTE);
});

test('a condition with status False is ignored', () => {
  const p = pod({ containers: [app], conditions: [{ ...resizePending('Infeasible', MINUTE), status: 'False' }] });
  assert.equal(readResizeState(p).phase, 'None');
});
