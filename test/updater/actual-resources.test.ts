import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actualResources, nodeLacksResizeSupport } from '../../src/updater/actual-resources.ts';
import { container, pod } from '../builders/pods.ts';

test('status.resources is what the container has, even when the spec asks for more', () => {
  const p = pod({ containers: [container('app', { requests: { cpu: '2' }, actual: { requests: { cpu: '500m' } } })] });
  const [app] = actualResources(p);
  assert.deepEqual(app!.actual, { requests: { cpu: '500m' } });
  assert.deepEqual(app!.desired, { requests: { cpu: '2' } });
  assert.equal(app!.source, 'status');
});

test('without status.resources, allocatedResources gives the requests and the spec the limits', () => {
  const p = pod({ containers: [container('app', { requests: { cpu: '2' }, limits: { memory: '1Gi' }, actual: 'none', allocated: { cpu: '750m' } })] });
  const [app] = actualResources(p);
  assert.deepEqual(app!.actual, { requests: { cpu: '750m' }, limits: { memory: '1Gi' } });
  assert.equal(app!.source, 'allocated');
});

test('without any status the spec is used, and a running container without resources means no resize support', () => {
  const p = pod({ containers: [container('app', { requests: { cpu: '2' }, actual: 'none' })] });
  const containers = actualResources(p);
  assert.equal(containers[0]!.source, 'spec');
  assert.equal(nodeLacksResizeSupport(containers), true);
  assert.equal(nodeLacksResizeSupport(actualResources(pod({ containers: [container('app', { requests: { cpu: '2' } })] }))), false);
});

test('restartable init containers (sidecars) are resizable; ordinary init containers are not listed', () => {
  const p = pod({ containers: [container('app', { requests: { cpu: '1' } }), container('proxy', { requests: { cpu: '100m' }, sidecar: true })] });
  p.spec!.initContainers!.push({ name: 'migrate', image: 'x' });
  assert.deepEqual(
    actualResources(p).map((c) => [c.name, c.kind]),
    [
      ['app', 'container'],
      ['proxy', 'sidecar'],
    ],
  );
});
