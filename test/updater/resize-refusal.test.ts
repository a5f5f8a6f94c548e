import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { classifyApiError } from '../../src/kube/errors.ts';
import { isNodeCapacityRefusal, refusalState, ResizeRefusals, sameAsRefused } from '../../src/updater/resize-refusal.ts';
import type { ContainerChange } from '../../src/updater/decision.ts';

const pod = (uid: string, generation: number): V1Pod => ({ metadata: { name: `p-${uid}`, namespace: 'default', uid, generation } });
const values = (cpu: number) => ({ requests: { cpu, memory: 256 * 2 ** 20 }, limits: { cpu, memory: 256 * 2 ** 20 } });
const change = (name: string, from: number, to: number): ContainerChange => ({
  containerName: name,
  kind: 'container',
  from: values(from),
  to: values(to),
  resources: ['cpu'],
  restart: false,
});
const MESSAGE = `pods "p" is forbidden: node didn't have enough allocatable resources: cpu, requested: 3000, allocatable: 2000`;

test('isNodeCapacityRefusal: a 403 with the NodeCapacity cause, or with the plugin message; not other 403s', () => {
  const err = (status: object) =>
    Object.assign(new Error('HTTP 403'), { code: 403, body: JSON.stringify({ kind: 'Status', code: 403, reason: 'Forbidden', ...status }) });
  assert.equal(isNodeCapacityRefusal(classifyApiError(err({ message: 'x', details: { causes: [{ reason: 'NodeCapacity' }] } }))), true);
  assert.equal(isNodeCapacityRefusal(classifyApiError(err({ message: MESSAGE }))), true);
  assert.equal(isNodeCapacityRefusal(classifyApiError(err({ message: 'pods "p" is forbidden: User "u" cannot patch resource "pods/resize"' }))), false);
});

test('a refusal stands for its pod until the generation moves; prune drops pods gone', () => {
  const refusals = new ResizeRefusals();
  const a = pod('a', 3);
  refusals.note(a, [change('app', 1500, 3000)], MESSAGE, 1_000);
  assert.deepEqual(refusalState(refusals.of(a)!), {
    phase: 'Infeasible',
    since: 1_000,
    message: `refused by the API server: ${MESSAGE}`,
    source: 'refusal',
  });
  assert.equal(refusals.of(pod('a', 4)), undefined, 'a later resize went through');
  assert.equal(refusals.of(pod('b', 3)), undefined);
  refusals.prune([pod('b', 1)]);
  assert.equal(refusals.size, 0);
  refusals.note(a, [change('app', 1500, 3000)], MESSAGE, 1_000);
  refusals.forget(a);
  assert.equal(refusals.of(a), undefined);
});

test('sameAsRefused: the same target values per container; anything else may be sent', () => {
  const refusals = new ResizeRefusals();
  const a = pod('a', 1);
  refusals.note(a, [change('app', 1500, 3000)], MESSAGE, 0);
  const r = refusals.of(a)!;
  assert.equal(sameAsRefused(r, [change('app', 1500, 3000)]), true);
  assert.equal(sameAsRefused(r, [change('app', 1500, 1800)]), false);
  assert.equal(sameAsRefused(r, []), false);
});
