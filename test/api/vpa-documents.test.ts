import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkVpaDocuments } from '../../src/api/vpa-documents.ts';

const vpa = (name: string, mode: string) =>
  `{apiVersion: autoscaling.k8s.io/v1, kind: VerticalPodAutoscaler, metadata: {name: ${name}}, spec: {targetRef: {kind: Deployment, name: x}, updatePolicy: {updateMode: ${mode}}}}`;

test('VPAs are found in several documents and in List items; other kinds are skipped', () => {
  const text = [`kind: ConfigMap\nmetadata: {name: c}`, vpa('a', 'Off'), `kind: List\nitems:\n- ${vpa('b', 'Bad')}\n- {kind: Service}`, ''].join('\n---\n');
  const result = checkVpaDocuments(text);
  assert.ok(result.readable);
  assert.deepEqual(
    result.objects.map((o) => [o.ref, o.errors.map((e) => e.path)]),
    [
      ['VerticalPodAutoscaler/a', []],
      ['VerticalPodAutoscaler/b', ['spec.updatePolicy.updateMode']],
    ],
  );
});

test('a document without kind or name is checked and named by its position', () => {
  const result = checkVpaDocuments(`${vpa('a', 'Off')}\n---\nspec: {}\n`);
  assert.ok(result.readable);
  assert.equal(result.objects[1]?.ref, 'VerticalPodAutoscaler/(document 2)');
  assert.deepEqual(
    result.objects[1]?.errors.map((e) => e.path),
    ['apiVersion', 'kind', 'metadata', 'spec.targetRef'],
  );
});

test('a text that is not YAML or JSON objects (prose, binary data) or has a syntax error is unreadable; a scalar List item is a problem', () => {
  const prose = checkVpaDocuments('just text');
  assert.deepEqual(prose, { readable: false, error: 'not YAML or JSON objects: document 1 is a string, not an object' });
  const binary = checkVpaDocuments(Buffer.from([0x00, 0xff, 0xfe, 0x41, 0x3a, 0x0a]).toString('utf8'));
  assert.deepEqual(binary, { readable: false, error: 'not YAML or JSON: binary data' });
  const broken = checkVpaDocuments('a: 1\n---\nb: [\n');
  assert.equal(broken.readable, false);
  assert.match(broken.readable ? '' : broken.error, /^document 2: /);
  const list = checkVpaDocuments('kind: List\nitems: [just text]\n');
  assert.ok(list.readable);
  assert.deepEqual(list.objects[0]?.errors, [{ path: '', message: 'the item is not an object' }]);
});

test('documents that are not VPAs are skipped and named, a kube-sim scenario (no kind, other fields) included', () => {
  const scenario = 'serverVersion: "1.35"\nspeed: 60\nnodes: [{name: node, count: 2}]\nworkloads: []\n';
  const result = checkVpaDocuments(`${scenario}---\nkind: Deployment\nmetadata: {name: web}\n---\n${vpa('a', 'Off')}\n`);
  assert.ok(result.readable);
  assert.deepEqual(
    result.objects.map((o) => o.ref),
    ['VerticalPodAutoscaler/a'],
  );
  assert.deepEqual(result.skipped, ['(document 1: no kind, not shaped like a Kubernetes object)', 'Deployment/web']);
});
