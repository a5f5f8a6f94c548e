import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leaseAction, releasedRecord, type LeaseSnapshot } from '../../src/kube/lease-decision.ts';

const held = (holder: string, durationSeconds = 15, transitions = 2): LeaseSnapshot => ({
  resourceVersion: '41',
  record: { holderIdentity: holder, leaseDurationSeconds: durationSeconds, acquireTime: 50_000, renewTime: 90_000, leaseTransitions: transitions },
});

test('no lease: create one held by us with the duration in whole seconds', () => {
  assert.deepEqual(leaseAction(undefined, 0, 'me', 100_000, 15_000), {
    kind: 'create',
    record: { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: 100_000, renewTime: 100_000, leaseTransitions: 0 },
  });
});

test('our own lease: renew keeps acquireTime and transitions, moves renewTime', () => {
  assert.deepEqual(leaseAction(held('me'), 100_000, 'me', 102_000, 15_000), {
    kind: 'renew',
    record: { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: 50_000, renewTime: 102_000, leaseTransitions: 2 },
  });
});

test("someone else's lease expires 15 s after WE first saw its version, whatever its renewTime says", () => {
  // Seen at t = 100 s; its renewTime (90 s, the other clock) does not matter.
  assert.deepEqual(leaseAction(held('other'), 100_000, 'me', 114_999, 15_000), { kind: 'held', holder: 'other', expiresAt: 115_000 });
  const taken = leaseAction(held('other'), 100_000, 'me', 115_000, 15_000);
  assert.equal(taken.kind, 'acquire');
  assert.deepEqual(taken.kind === 'acquire' && taken.record, {
    holderIdentity: 'me',
    leaseDurationSeconds: 15,
    acquireTime: 115_000,
    renewTime: 115_000,
    leaseTransitions: 3,
  });
});

test("the lease's own duration counts: a 1 s (released) lease expires after 1 s, an empty holder at once", () => {
  assert.equal(leaseAction(held('other', 1), 100_000, 'me', 100_999, 15_000).kind, 'held');
  assert.equal(leaseAction(held('other', 1), 100_000, 'me', 101_000, 15_000).kind, 'acquire');
  assert.equal(leaseAction(held(''), 100_000, 'me', 100_000, 15_000).kind, 'acquire');
});

test('a release empties the holder, sets 1 s and keeps the transition count', () => {
  assert.deepEqual(releasedRecord(held('me').record, 120_000), {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: 120_000,
    renewTime: 120_000,
    leaseTransitions: 2,
  });
});
