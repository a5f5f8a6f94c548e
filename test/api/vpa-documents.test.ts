import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkVpaDocuments } from '../../src/api/vpa-documents.ts';

const vpa = (name: string, mode: string) =>
  `{apiVersion: autoscaling.k8s.io/v1, kind: VerticalPodAutoscaler, metadata: {name: ${name}}, spec: {targetRef: {kind: Deployment, name: x}, updatePolicy: {updateMode: ${mode}}}}`;

test('VPAs are found in several documents and in List items; other kinds are skipped', () => {
  const text = [`kind: ConfigMap\nmetadata: {name: c}`, vpa('a', 'Off'), `kind: List\nitems:\n- ${vpa('b', 'Bad')}\n- {kind: Service}`, ''].join('\n---\n');
  const result = checkVpaDocuments(text);
  assert.ok(result.readable);
  assert.deepEqual(result.objects.map((o) => [o.ref, o.errors.map((e) => e.path)]), [
    ['VerticalPodAutoscaler/a', []],
    ['VerticalPodAutoscaler/b', ['spec.updatePolicy.updateMode']],
  ]);
});

test('a document without kind or name is checked and named by its position', () => {
  const result = checkVpaDocuments(`${vpa('a', 'Off')}\n---\nspec: {}\n`);
  assert.ok(result.readable);
  assert.equal(result.objects[1]?.ref, 'VerticalPodAutoscaler/(document 2)');
  assert.deepEqual(result.objects[1]?.errors.map((e) => e.path), ['apiVersion', 'kind', 'metadata', 'spec.targetRef']);
});

test('a scalar document is a problem; a syntax error makes the text unreadable', () => {
  const scalar = checkVpaDocuments('just text');
  assert.ok(scalar.readable);
  assert.deepEqual(scalar.objects[0]?.errors, [{ path: '', message: 'the document is not an object' }]);
  const broken = checkVpaDocuments('a: 1\n---\nb: [\n');
  assert.equal(broken.readable, false);
  assert.match(broken.readable ? '' : broken.error, /^document 2: /);
});

test('documents that are not VPAs are skipped and named, a kube-sim scenario (no kind, other fields) included', () => {
  const scenario = 'serverVersion: "1.35"\nspeed: 60\nnodes: [{name: node, count: 2}]\nworkloads: []\n';
  const result = checkVpaDocuments(`${scenario}---\nkind: Deployment\nmetadata: {name: web}\n---\n${vpa('a', 'Off')}\n`);
  assert.ok(result.readable);
  assert.deepEqual(result.objects.map((o) => o.ref), ['VerticalPodAutoscaler/a']);
  assert.deepEqual(result.skipped, ['(document 1: no kind, not shaped like a Kubernetes object)', 'Deployment/web']);
});
