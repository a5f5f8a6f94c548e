import { test } from 'node:test';
import assert from 'node:assert/strict';
import { V1MicroTime } from '@kubernetes/client-node';
import { admissionStatusVerdict, renewedStatusLease } from '../../src/kube/admission-status-lease.ts';

const T = Date.UTC(2026, 0, 1, 12, 0, 0);
const lease = (created: number, renewed?: number) => ({
  metadata: { name: 'vpa-admission-controller', creationTimestamp: new Date(created) },
  spec: { holderIdentity: 'e2e test', ...(renewed !== undefined ? { renewTime: new V1MicroTime(renewed) } : {}) },
});

test('fresh while created or renewed less than the timeout ago (upstream: 1 min)', () => {
  // Renewed at 12:00:00 (created long before): fresh until 12:00:59.999, stale from 12:01:00.
  const renewed = { lease: lease(T - 3_600_000, T) };
  assert.equal(admissionStatusVerdict(renewed, T + 59_999, 60_000).fresh, true);
  assert.equal(admissionStatusVerdict(renewed, T + 60_000, 60_000).fresh, false);
  // Created at 12:00:30 and never renewed (upstream's first write sets no renewTime): fresh until 12:01:30.
  const created = { lease: lease(T + 30_000) };
  assert.equal(admissionStatusVerdict(created, T + 89_999, 60_000).fresh, true);
  const stale = admissionStatusVerdict(created, T + 90_000, 60_000);
  assert.equal(stale.fresh, false);
  assert.match(stale.message, /is stale \(last renewed 2026-01-01T12:00:30\.000Z, more than 60 s ago\), so evictions wait/);
  // Times as strings (a Lease as JSON) read the same.
  assert.equal(
    admissionStatusVerdict(
      {
        lease: {
          metadata: { creationTimestamp: '2026-01-01T11:00:00Z' as unknown as Date },
          spec: { renewTime: '2026-01-01T12:00:00.000000Z' as unknown as Date },
        },
      },
      T + 30_000,
      60_000,
    ).fresh,
    true,
  );
});

test('no Lease, or one that cannot be read: not fresh, and the message says which', () => {
  const none = admissionStatusVerdict({ lease: undefined }, T, 60_000, 'tailor-system/vpa-admission-controller');
  assert.deepEqual([none.fresh, /Lease tailor-system\/vpa-admission-controller not found/.test(none.message)], [false, true]);
  const unreadable = admissionStatusVerdict({ error: 'forbidden' }, T, 60_000);
  assert.deepEqual([unreadable.fresh, /cannot be read \(forbidden\)/.test(unreadable.message)], [false, true]);
  assert.equal(admissionStatusVerdict({ lease: { metadata: {}, spec: {} } }, T, 60_000).fresh, false, 'a Lease without times is not fresh');
});

test('renewal: holder, duration (the interval in seconds) and renewTime; the resourceVersion read is kept', () => {
  const target = { namespace: 'tailor-system', name: 'vpa-admission-controller', identity: 'tailor-admission-7d9-x', intervalMs: 10_000 };
  const fresh = renewedStatusLease(undefined, target, T);
  assert.deepEqual(fresh.metadata, { name: 'vpa-admission-controller', namespace: 'tailor-system' });
  assert.equal(fresh.spec?.holderIdentity, 'tailor-admission-7d9-x');
  assert.equal(fresh.spec?.leaseDurationSeconds, 10);
  assert.equal(new Date(fresh.spec!.renewTime!).getTime(), T);
  const renewed = renewedStatusLease(
    { metadata: { name: 'vpa-admission-controller', resourceVersion: '42' }, spec: { holderIdentity: 'e2e test', acquireTime: new Date(T) } },
    target,
    T + 10_000,
  );
  assert.equal(renewed.metadata?.resourceVersion, '42');
  assert.equal(renewed.spec?.holderIdentity, 'tailor-admission-7d9-x');
  assert.equal(renewed.spec?.acquireTime, undefined, 'only holder, duration and renewTime are written');
});
