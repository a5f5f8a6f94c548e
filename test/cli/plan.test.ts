import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI_DEADLINE_MS } from '../support/cli-deadline.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-plan-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function pod(name: string, cpu: string): string {
  return `- apiVersion: v1
  kind: Pod
  metadata:
    name: ${name}
    namespace: shop
    labels: {app: web, pod-template-hash: 7f9c}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7f9c, uid: u1, controller: true}]
  spec:
    containers: [{name: app, image: web:1, resources: {requests: {cpu: ${cpu}, memory: 256Mi}, limits: {memory: 512Mi}}}]
  status:
    phase: Running
    startTime: "2026-06-01T11:00:00Z"
    conditions: [{type: Ready, status: "True"}]
    containerStatuses:
    - {name: app, image: web:1, imageID: x, ready: true, restartCount: 0, state: {running: {}}, resources: {requests: {cpu: ${cpu}, memory: 256Mi}, limits: {memory: 512Mi}}}
`;
}

const OBJECTS = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec: {replicas: 2}
- apiVersion: autoscaling.k8s.io/v1
  kind: VerticalPodAutoscaler
  metadata: {name: web, namespace: shop}
  spec:
    targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
    updatePolicy: {updateMode: InPlaceOrRecreate}
  status:
    recommendation:
      containerRecommendations:
      - containerName: app
        target: {cpu: 400m, memory: 256Mi}
        lowerBound: {cpu: 300m, memory: 200Mi}
        upperBound: {cpu: 800m, memory: 400Mi}
${pod('web-7f9c-a', '100m')}${pod('web-7f9c-b', '150m')}- apiVersion: v1
  kind: Pod
  metadata: {name: stray, namespace: shop}
  spec: {containers: [{name: app, image: x}]}
  status: {phase: Running}
`;

function tailor(args: string[]) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', ...args], { encoding: 'utf8', timeout: CLI_DEADLINE_MS });
}

test('tailor plan prints one line per pod and a summary, and changes nothing', () => {
  const path = join(dir, 'shop.yaml');
  writeFileSync(path, OBJECTS);
  const result = tailor(['plan', '-f', path, '--now', '2026-06-01T12:00:00Z', '--server-version', '1.33']);
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.trim().split('\n');
  assert.equal(lines[0], 'shop/web-7f9c-a ResizeInPlace OutsideBounds: app cpu request 100m below lowerBound 300m | app: cpu request 100m -> 200m');
  assert.match(lines[1]!, /^shop\/web-7f9c-b Wait Canary: waiting for the canary pod/);
  assert.equal(lines[2], '2 pod(s): ResizeInPlace 1, ResizeWithRestart 0, Evict 0, Wait 1, Skip 0');
  assert.match(result.stderr, /1 pod\(s\) not targeted by any VPA/);
});

test('on a server without in-place resize the same plan evicts, within the disruption budget', () => {
  const path = join(dir, 'shop.yaml');
  writeFileSync(path, OBJECTS);
  const result = tailor(['plan', '-f', path, '--now', '2026-06-01T12:00:00Z', '--server-version', '1.30']);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^shop\/web-7f9c-a Evict FallbackInPlaceUnsupported: .*does not support in-place resize/m);
});

test('a bad --server-version is refused', () => {
  const path = join(dir, 'shop.yaml');
  writeFileSync(path, OBJECTS);
  const result = tailor(['plan', '-f', path, '--server-version', 'latest']);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /tailor plan: --server-version must look like 1.34, got latest/);
  assert.equal(tailor(['plan', '-f', path, '--now', 'yesterday']).status, 2);
});
