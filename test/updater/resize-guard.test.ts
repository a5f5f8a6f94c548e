import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerChange } from '../../src/updater/decision.ts';
import { actualResources } from '../../src/updater/actual-resources.ts';
import { inPlaceBlocker, resizeViolations } from '../../src/updater/resize-guard.ts';
import { serverCapabilities } from '../../src/updater/server-capabilities.ts';
import { container, pod } from '../builders/pods.ts';
import { GiB, MiB } from '../builders/time.ts';

const v134 = serverCapabilities({ major: 1, minor: 34 });
const v133 = serverCapabilities({ major: 1, minor: 33 });
const burstable = () => pod({ containers: [container('app', { requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' } })] });
const from = { requests: { cpu: 100, memory: 512 * MiB }, limits: { memory: GiB } };
const change = (to: ContainerChange['to']): ContainerChange => ({
  containerName: 'app',
  kind: 'container',
  from,
  to,
  resources: ['cpu', 'memory'],
  restart: false,
});

test('a safe change breaks nothing', () => {
  assert.deepEqual(
    resizeViolations(burstable(), [change({ requests: { cpu: 200, memory: 512 * MiB }, limits: { memory: GiB } })], v134, { app: Infinity }),
    [],
  );
});

test('removing a request or limit is refused', () => {
  const v = resizeViolations(burstable(), [change({ requests: { cpu: 200 }, limits: {} })], v134, {});
  assert.deepEqual(
    v.filter((s) => /removed/.test(s)),
    ['app: memory request would be removed', 'app: memory limit would be removed'],
  );
});

test('a request above its limit is refused', () => {
  assert.match(
    resizeViolations(burstable(), [change({ requests: { cpu: 100, memory: 2 * GiB }, limits: { memory: GiB } })], v134, {}).join(),
    /memory request 2147483648 above limit 1073741824/,
  );
});

test('a QoS change is refused: Burstable -> Guaranteed', () => {
  const v = resizeViolations(burstable(), [change({ requests: { cpu: 100, memory: GiB }, limits: { cpu: 100, memory: GiB } })], v134, {});
  assert.ok(
    v.some((s) => /QOS Class may not change .*Burstable -> Guaranteed/.test(s)),
    v.join('\n'),
  );
});

test('lowering a memory limit: 1.33 needs RestartContainer; and never below the floor', () => {
  const lower = change({ requests: { cpu: 100, memory: 300 * MiB }, limits: { memory: 600 * MiB } });
  assert.match(resizeViolations(burstable(), [lower], v133, { app: 0 }).join(), /memory limits cannot be decreased unless resizePolicy is RestartContainer/);
  assert.deepEqual(resizeViolations(burstable(), [lower], v134, { app: 264 * MiB }), []);
  assert.match(resizeViolations(burstable(), [lower], v134, { app: 920 * MiB }).join(), /below the safety floor/);
  assert.match(resizeViolations(burstable(), [lower], v134, {}).join(), /below the safety floor/, 'no floor known: no decrease');
});

test('in-place blockers: server, pod-level resources, static pod, Windows, node support', () => {
  const p = burstable();
  assert.equal(inPlaceBlocker(p, actualResources(p), v134), undefined);
  assert.match(inPlaceBlocker(p, actualResources(p), serverCapabilities({ major: 1, minor: 30 }))!, /1\.30\) does not support/);
  const windows = burstable();
  windows.spec!.os = { name: 'windows' };
  assert.match(inPlaceBlocker(windows, actualResources(windows), v134)!, /Windows/);
  const noSupport = pod({ containers: [container('app', { requests: { cpu: '1' }, actual: 'none' })] });
  assert.match(inPlaceBlocker(noSupport, actualResources(noSupport), v134)!, /node without support for resize/);
  const podLevel = pod({ containers: [container('app')], podResources: { requests: { cpu: '1' } } });
  assert.match(
    inPlaceBlocker(podLevel, actualResources(podLevel), serverCapabilities({ major: 1, minor: 35 }))!,
    /only from Kubernetes 1\.36 \(the API server is 1\.35\)/,
  );
  assert.equal(inPlaceBlocker(podLevel, actualResources(podLevel), serverCapabilities({ major: 1, minor: 36 })), undefined);
});

test("pod-level changes: the API server's rules for them and the QoS class from the pod-level values", () => {
  const p = pod({
    containers: [container('app', { requests: { cpu: '100m' }, limits: { cpu: '300m' } })],
    podResources: { requests: { cpu: '200m', memory: '256Mi' }, limits: { cpu: '400m', memory: '256Mi' } },
  });
  const v136 = serverCapabilities({ major: 1, minor: 36 });
  const to = (request: number, limit: number): ContainerChange => ({
    containerName: '(pod)',
    kind: 'pod',
    from: { requests: { cpu: 200, memory: 256 * MiB }, limits: { cpu: 400, memory: 256 * MiB } },
    to: { requests: { cpu: request, memory: 256 * MiB }, limits: { cpu: limit, memory: 256 * MiB } },
    resources: ['cpu'],
    restart: false,
  });
  assert.deepEqual(resizeViolations(p, [to(300, 600)], v136, {}), []);
  assert.deepEqual(resizeViolations(p, [to(50, 250)], v136, {}), [
    "pod-level cpu request 50m below the containers' own requests (100m)",
    "pod-level cpu limit 250m below a container's own limit (300m)",
  ]);
  assert.match(resizeViolations(p, [to(400, 400)], v136, {}).join(), /QOS Class may not change as a result of resizing \(Burstable -> Guaranteed\)/);
});
