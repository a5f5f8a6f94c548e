import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsonpatch from 'fast-json-patch';
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerChange } from '../../src/updater/decision.ts';
import { ResizePatchError, resizeJsonPatch, resizeRequest } from '../../src/updater/resize-patch.ts';
import { serverCapabilities } from '../../src/updater/server-capabilities.ts';
import { container, pod } from '../builders/pods.ts';
import { MiB } from '../builders/time.ts';

const change = (
  name: string,
  to: ContainerChange['to'],
  resources: ContainerChange['resources'],
  kind: ContainerChange['kind'] = 'container',
): ContainerChange => ({
  containerName: name,
  kind,
  from: { requests: {}, limits: {} },
  to,
  resources,
  restart: false,
});

const twoContainers = () =>
  pod({
    containers: [
      container('app', { requests: { cpu: '100m', memory: '512Mi', 'ephemeral-storage': '1Gi' }, limits: { memory: '1Gi' } }),
      container('log', { requests: { cpu: '50m' } }),
    ],
  });

test('JSON Patch: test the name at the index, then add each changed value as a quantity', () => {
  const ops = resizeJsonPatch(twoContainers(), [change('log', { requests: { cpu: 75 }, limits: {} }, ['cpu'])]);
  assert.deepEqual(ops, [
    { op: 'test', path: '/spec/containers/1/name', value: 'log' },
    { op: 'add', path: '/spec/containers/1/resources/requests/cpu', value: '75m' },
  ]);
});

test('applied to the pod, the patch changes exactly the planned values and keeps everything else', () => {
  const p = twoContainers();
  const ops = resizeJsonPatch(p, [change('app', { requests: { cpu: 2000, memory: 768 * MiB }, limits: { memory: 1536 * MiB } }, ['cpu', 'memory'])]);
  const patched = jsonpatch.applyPatch(structuredClone(p), ops as jsonpatch.Operation[], true, false).newDocument as V1Pod;
  assert.deepEqual(patched.spec!.containers[0]!.resources, {
    requests: { cpu: '2', memory: '768Mi', 'ephemeral-storage': '1Gi' },
    limits: { memory: '1536Mi' },
  });
  assert.deepEqual(patched.spec!.containers[1], p.spec!.containers[1]);
});

test('a missing limits object is added whole; a resource that did not change is not written', () => {
  const p = pod({ containers: [container('app', { requests: { cpu: '100m', memory: '256Mi' } })] });
  const ops = resizeJsonPatch(p, [change('app', { requests: { cpu: 200, memory: 256 * MiB }, limits: {} }, ['cpu'])]);
  assert.deepEqual(
    ops.map((o) => o.path),
    ['/spec/containers/0/name', '/spec/containers/0/resources/requests/cpu'],
  );
  const noLimits = resizeJsonPatch(p, [change('app', { requests: { memory: 256 * MiB }, limits: { memory: 512 * MiB } }, ['memory'])]);
  assert.deepEqual(noLimits[2], { op: 'add', path: '/spec/containers/0/resources/limits', value: { memory: '512Mi' } });
});

test('a pod whose containers were reordered since it was read makes the patch fail instead of resizing the wrong one', () => {
  const p = twoContainers();
  const ops = resizeJsonPatch(p, [change('log', { requests: { cpu: 75 }, limits: {} }, ['cpu'])]);
  const reordered = structuredClone(p);
  reordered.spec!.containers.reverse();
  assert.throws(() => jsonpatch.applyPatch(reordered, ops as jsonpatch.Operation[], true, false), /Test operation failed/i);
});

test('sidecars are patched under initContainers', () => {
  const p = pod({ containers: [container('app', { requests: { cpu: '1' } }), container('proxy', { requests: { cpu: '100m' }, sidecar: true })] });
  const ops = resizeJsonPatch(p, [change('proxy', { requests: { cpu: 200 }, limits: {} }, ['cpu'], 'sidecar')]);
  assert.equal(ops[1]!.path, '/spec/initContainers/0/resources/requests/cpu');
});

test('pod-level values (1.36+) are patched under /spec/resources, without a container test', () => {
  const p = pod({ containers: [container('app')], podResources: { requests: { cpu: '100m' }, limits: { cpu: '200m', memory: '1Gi' } } });
  const ops = resizeJsonPatch(p, [
    change('(pod)', { requests: { cpu: 300, memory: 512 * MiB }, limits: { cpu: 600, memory: 1024 * MiB } }, ['cpu', 'memory'], 'pod'),
  ]);
  assert.deepEqual(ops, [
    { op: 'add', path: '/spec/resources/requests/cpu', value: '300m' },
    { op: 'add', path: '/spec/resources/requests/memory', value: '512Mi' },
    { op: 'add', path: '/spec/resources/limits/cpu', value: '600m' },
    { op: 'add', path: '/spec/resources/limits/memory', value: '1Gi' },
  ]);
  const patched = jsonpatch.applyPatch(structuredClone(p), ops as jsonpatch.Operation[], true, false).newDocument as V1Pod;
  assert.deepEqual(patched.spec!.resources, { requests: { cpu: '300m', memory: '512Mi' }, limits: { cpu: '600m', memory: '1Gi' } });
  assert.deepEqual(patched.spec!.containers, p.spec!.containers);
});

test('an unknown container is an error, not a silent no-op', () => {
  assert.throws(
    () => resizeJsonPatch(twoContainers(), [change('nope', { requests: { cpu: 1 }, limits: {} }, ['cpu'])]),
    (e: unknown) => e instanceof ResizePatchError && /container nope is not in containers of pod shop\/web-1/.test(e.message),
  );
});

test('the request names the subresource from 1.33 and always the JSON Patch content type', () => {
  const changes = [change('log', { requests: { cpu: 75 }, limits: {} }, ['cpu'])];
  const on133 = resizeRequest(twoContainers(), changes, serverCapabilities({ major: 1, minor: 33 }));
  assert.equal(on133.subresource, 'resize');
  assert.equal(on133.contentType, 'application/json-patch+json');
  assert.deepEqual([on133.namespace, on133.name], ['shop', 'web-1']);
  assert.equal(resizeRequest(twoContainers(), changes, serverCapabilities({ major: 1, minor: 32 }, true)).subresource, undefined);
});
