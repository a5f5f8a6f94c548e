/**
 * The chaos checker's rules on audited actions (invariants.ts): each rule caught on an action that
 * breaks it, and left quiet on the legitimate action beside it (a boost given back, a handover after
 * a lease, a refused eviction, someone else's deletion).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import { vpa } from '../builders/vpas.ts';
import { readPodActions, type LeaseWrite, type PodAction } from './audit-actions.ts';
import { auditLine, UPDATER, type AuditLineOptions } from './audit-builders.ts';
import { checkInvariants, type Rule } from './invariants.ts';

const T = '2026-12-07T10:00:';
const resize = (pod: string, second: number, cpu: string, extra: Partial<AuditLineOptions> = {}): string =>
  auditLine({
    verb: 'patch',
    subresource: 'resize',
    pod,
    at: `${T}${String(second).padStart(2, '0')}Z`,
    request: [
      { op: 'test', path: '/spec/containers/0/name', value: 'app' },
      { op: 'add', path: '/spec/containers/0/resources/requests/cpu', value: cpu },
    ],
    ...extra,
  });

/**
 * The violations of `lines`; `leases` the leader Lease's renewals (default: each action's sender
 * renewing just before it, so the other rules are tested alone).
 */
function violations(lines: string[], governing: VerticalPodAutoscaler | undefined, leaseMs = 15_000, leases?: LeaseWrite[]): [Rule, string][] {
  const { actions } = readPodActions(lines.join('\n'));
  return checkInvariants({
    actions,
    isAutoscaler: (a: PodAction) => a.user === UPDATER,
    vpaAt: () => governing,
    leaseMs,
    leaseWrites: leases ?? actions.map((a) => ({ at: a.at - 1, holder: a.senderPod ?? a.user })),
  }).map((v) => [v.rule, v.message]);
}

const bounded = vpa({ policies: [{ containerName: 'app', minAllowed: { cpu: '100m' }, maxAllowed: { cpu: '1' } }] });

test('bounds: a request written below minAllowed or above maxAllowed; one within is quiet; a container whose mode is Off is never written', () => {
  assert.deepEqual(violations([resize('a', 1, '50m'), resize('b', 2, '300m'), resize('c', 3, '1500m')], bounded), [
    ['bounds', 'app cpu request 50m below minAllowed'],
    ['bounds', 'app cpu request 1500m above maxAllowed'],
  ]);
  const off = vpa({ policies: [{ containerName: 'app', mode: 'Off' }] });
  assert.deepEqual(violations([resize('a', 1, '300m')], off), [['bounds', "container app written, but its policy's mode is Off"]]);
  const memoryOnly = vpa({ policies: [{ containerName: 'app', controlledResources: ['memory'], maxAllowed: { cpu: '100m' } }] });
  assert.deepEqual(violations([resize('a', 1, '300m')], memoryOnly), [], 'cpu is not controlled: its maxAllowed does not apply');
});

test('mode: resizes only in place modes or a boost given back; evictions only where the mode evicts', () => {
  assert.deepEqual(violations([resize('a', 1, '300m')], vpa({ mode: 'Recreate' })), [['mode', 'resized in place under updateMode Recreate']]);
  assert.deepEqual(violations([resize('a', 1, '300m')], vpa({ mode: 'Initial', annotations: { 'tailor.dev/startup-cpu-boost': '2x' } })), []);
  const memory = auditLine({
    verb: 'patch',
    subresource: 'resize',
    pod: 'a',
    at: `${T}01Z`,
    request: [{ op: 'add', path: '/spec/containers/0/resources/requests/memory', value: '1Gi' }],
  });
  assert.deepEqual(violations([memory], vpa({ mode: 'Off', startupBoost: { cpu: { type: 'Factor', factor: 2 } } })), [
    ['mode', "resized in place under updateMode Off (more than a boost's cpu)"],
  ]);
  const evict = (second: number, code = 201) => auditLine({ verb: 'create', subresource: 'eviction', pod: 'a', at: `${T}${second}Z`, code });
  assert.deepEqual(violations([evict(10)], vpa({ mode: 'InPlace' })), [['mode', 'evicted under updateMode InPlace']]);
  assert.deepEqual(violations([evict(10)], vpa({ mode: 'Recreate' })), []);
  assert.deepEqual(violations([evict(10, 429)], vpa({ mode: 'Off' })), [], 'a refused eviction did nothing');
});

test('qos, eviction-api and governed: a resize refused for QoS, a pod deleted by the autoscaler, an action on a pod no VPA governs', () => {
  const refused = resize('a', 1, '300m', { code: 422, message: 'Pod "a" is invalid: spec: Invalid value: "Guaranteed": Pod QoS is immutable' });
  assert.deepEqual(violations([refused], bounded)[0]![0], 'qos');
  assert.deepEqual(violations([auditLine({ verb: 'delete', pod: 'a', at: `${T}05Z` })], bounded), [
    ['eviction-api', 'pod deleted, not evicted (a PodDisruptionBudget would not have been asked)'],
  ]);
  assert.deepEqual(
    violations([auditLine({ verb: 'delete', pod: 'a', at: `${T}05Z`, user: 'system:serviceaccount:kube-system:replicaset-controller' })], bounded),
    [],
  );
  assert.deepEqual(violations([resize('a', 1, '300m')], undefined), [['governed', 'resize of a pod no VPA governed']]);
});

test("one-leader: each write by the replica holding the leader Lease, renewed within a lease; another's, none, or an expired one is two leaders possible", () => {
  const by = (sender: string, second: number) => resize('p', second, '300m', { senderPod: sender });
  const renewed = (holder: string, second: number): LeaseWrite => ({ at: Date.parse(`${T}${String(second).padStart(2, '0')}Z`), holder });
  // A handover: u-1 renews, acts; u-2 takes the Lease after it expired, acts; both within their leases.
  assert.deepEqual(violations([by('u-1', 2), by('u-2', 30)], bounded, 15_000, [renewed('u-1', 1), renewed('u-2', 29)]), []);
  assert.deepEqual(violations([by('u-1', 1), by('u-2', 5), by('u-1', 9)], bounded, 15_000, [renewed('u-1', 0)]), [
    ['one-leader', 'u-2 wrote while u-1 held the leader Lease (renewed 5000 ms before)'],
  ]);
  assert.deepEqual(violations([by('u-1', 20)], bounded, 15_000, [renewed('u-1', 2)]), [
    ['one-leader', 'u-1 wrote 18000 ms after its last renewal of the leader Lease (lease 15000 ms)'],
  ]);
  // Leader election off (the one-leader variant): nobody holds the Lease.
  assert.deepEqual(violations([by('u-1', 1), by('u-2', 5)], bounded, 15_000, []), [
    ['one-leader', 'u-1 wrote before any replica held the leader Lease'],
    ['one-leader', 'u-2 wrote before any replica held the leader Lease'],
  ]);
});
