import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyApiError } from '../../src/kube/errors.ts';
import { backoffUntil, failureOutcome, isDisruptionBudgetRefusal } from '../../src/updater/action-outcome.ts';

/** A client-node ApiException as thrown for an HTTP answer. */
const answer = (code: number, status: object = {}, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`HTTP ${code}`), { code, body: JSON.stringify({ kind: 'Status', code, ...status }), headers });

const PDB_429 = answer(429, {
  reason: 'TooManyRequests',
  message: "Cannot evict pod as it would violate the pod's disruption budget.",
  details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }] },
});

test('outcome per answer: 404 gone, 409 conflict, 422 invalid, 429 throttled, 5xx throttled, 403 failed', () => {
  const cases: [unknown, string][] = [
    [answer(404, { reason: 'NotFound' }), 'gone'],
    [answer(409, { reason: 'Conflict' }), 'conflict'],
    [answer(422, { reason: 'Invalid' }), 'invalid'],
    [answer(429, { reason: 'TooManyRequests' }, { 'retry-after': '2' }), 'throttled'],
    [answer(503), 'throttled'],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'throttled'],
    [answer(403, { reason: 'Forbidden' }), 'failed'],
  ];
  for (const [err, outcome] of cases) assert.equal(failureOutcome(classifyApiError(err), false), outcome, String(err));
});

test('a 429 with a DisruptionBudget cause is a PDB refusal on an eviction only', () => {
  const c = classifyApiError(PDB_429);
  assert.equal(isDisruptionBudgetRefusal(c), true);
  assert.equal(failureOutcome(c, true), 'blocked');
  assert.equal(failureOutcome(c, false), 'throttled');
  assert.equal(failureOutcome(classifyApiError(answer(429, { reason: 'TooManyRequests' })), true), 'throttled', 'a plain 429 on an eviction is throttling');
});

test('backoff: at least 5 s, longer when Retry-After says so', () => {
  assert.equal(backoffUntil(classifyApiError(answer(429, {}, { 'retry-after': '2' })), 1_000), 6_000);
  assert.equal(backoffUntil(classifyApiError(answer(429, {}, { 'retry-after': '30' })), 1_000), 31_000);
});

test('a 403 with the cause NodeCapacity (1.36+ PodResizeValidator) on a resize is infeasible; RBAC 403s and evictions stay failed', () => {
  const capacity = answer(403, {
    reason: 'Forbidden',
    message: `pods "web-0" is forbidden: node didn't have enough allocatable resources: cpu, requested: 3000, allocatable: 2000`,
    details: { name: 'web-0', kind: 'pods', causes: [{ reason: 'NodeCapacity' }] },
  });
  assert.equal(failureOutcome(classifyApiError(capacity), false), 'infeasible');
  assert.equal(failureOutcome(classifyApiError(capacity), true), 'failed', 'not an eviction outcome');
  const rbac = answer(403, {
    reason: 'Forbidden',
    message: 'pods "web-0" is forbidden: User "system:serviceaccount:tailor:updater" cannot patch resource "pods/resize"',
  });
  assert.equal(failureOutcome(classifyApiError(rbac), false), 'failed');
});
