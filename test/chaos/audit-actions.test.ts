/**
 * Reading pod actions out of an audit log: resizes (JSON Patch and merge patch), evictions and
 * deletions, with the sender's pod, the time and the response; other requests and other stages left out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readPodActions, writtenContainers } from './audit-actions.ts';
import { auditLine } from './audit-builders.ts';

test('a JSON Patch resize: the containers named by its test ops, the values its add ops write', () => {
  const patch = [
    { op: 'test', path: '/spec/containers/1/name', value: 'app' },
    { op: 'add', path: '/spec/containers/1/resources/requests/cpu', value: '250m' },
    { op: 'add', path: '/spec/containers/1/resources/limits', value: { cpu: '500m', memory: '1Gi' } },
    { op: 'test', path: '/spec/containers/0/name', value: 'sidecar' },
    { op: 'add', path: '/spec/containers/0/resources', value: { requests: { memory: '64Mi' } } },
  ];
  assert.deepEqual(writtenContainers(patch), [
    { name: 'app', requests: { cpu: '250m' }, limits: { cpu: '500m', memory: '1Gi' } },
    { name: 'sidecar', requests: { memory: '64Mi' }, limits: {} },
  ]);
});

test("a JSON Patch without test ops takes the container's name from the response's pod; a merge patch names its containers", () => {
  const patch = [{ op: 'replace', path: '/spec/containers/0/resources/requests/memory', value: '300Mi' }];
  assert.deepEqual(writtenContainers(patch, { spec: { containers: [{ name: 'web' }] } }), [{ name: 'web', requests: { memory: '300Mi' }, limits: {} }]);
  const merge = { spec: { containers: [{ name: 'web', resources: { requests: { cpu: '1' }, limits: { cpu: '2' } } }] } };
  assert.deepEqual(writtenContainers(merge), [{ name: 'web', requests: { cpu: '1' }, limits: { cpu: '2' } }]);
});

test('the log: resizes, evictions and deletions of pods at ResponseComplete, in time order, the sender pod from the token', () => {
  const text = [
    auditLine({
      verb: 'create',
      subresource: 'eviction',
      pod: 'b',
      at: '2026-12-07T10:00:02Z',
      code: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
    }),
    auditLine({
      verb: 'patch',
      subresource: 'resize',
      pod: 'a',
      at: '2026-12-07T10:00:01Z',
      request: [
        { op: 'test', path: '/spec/containers/0/name', value: 'app' },
        { op: 'add', path: '/spec/containers/0/resources/requests/cpu', value: '300m' },
      ],
    }),
    auditLine({ verb: 'patch', subresource: 'resize', pod: 'a', at: '2026-12-07T10:00:00Z', stage: 'RequestReceived' }),
    auditLine({ verb: 'get', pod: 'a', at: '2026-12-07T10:00:03Z' }),
    auditLine({ verb: 'delete', pod: 'c', at: '2026-12-07T10:00:04Z', user: 'system:serviceaccount:kube-system:replicaset-controller', senderPod: null }),
    'not json',
  ].join('\n');
  const { actions, unreadable } = readPodActions(text);
  assert.equal(unreadable, 1);
  assert.deepEqual(
    actions.map((a) => [a.kind, a.pod, a.code, a.senderPod, a.user.split(':').at(-1)]),
    [
      ['resize', 'a', 200, 'tailor-updater-1', 'tailor-updater'],
      ['eviction', 'b', 429, 'tailor-updater-1', 'tailor-updater'],
      ['delete', 'c', 200, undefined, 'replicaset-controller'],
    ],
  );
  assert.deepEqual(actions[0]!.containers, [{ name: 'app', requests: { cpu: '300m' }, limits: {} }]);
  assert.match(actions[1]!.message, /disruption budget/);
  assert.equal(actions[0]!.at, Date.parse('2026-12-07T10:00:01Z'));
});
