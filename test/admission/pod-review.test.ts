import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewPod, type PodReviewSource } from '../../src/admission/pod-review.ts';
import { cached, container, view, vpaObject, webPod } from './fixtures.ts';

const pod = webPod([container('app', { cpu: '100m' })]);
const request = (operation = 'CREATE') => ({ uid: 'u', operation, namespace: 'shop', object: pod });
const ready = (vpas = [cached(vpaObject('web-vpa', 'web', { app: { cpu: '250m' } }))]): PodReviewSource => ({
  notSynced: () => [],
  namespaceView: () => view(vpas),
});

test('a patched pod is logged at info with owner, VPA and the change; the pod is named by its generateName', () => {
  const r = reviewPod(request(), ready());
  assert.equal(r.outcome, 'patched');
  assert.equal(r.response.patchType, 'JSONPatch');
  assert.equal(r.log.level, 'info');
  assert.equal(r.log.message, 'resources set: VPA web-vpa: app: cpu request 100m -> 250m');
  assert.deepEqual(r.log.fields, { pod: 'shop/web-5d8f7-<generated>', owner: 'Deployment/web', vpa: 'web-vpa' });
});

test('before the watches have listed, pods are admitted unchanged with a warning naming what is missing', () => {
  const r = reviewPod(request(), {
    notSynced: () => ['replicasets', 'jobs'],
    namespaceView: () => {
      throw new Error('must not be read');
    },
  });
  assert.deepEqual(r.response, { uid: 'u', allowed: true });
  assert.equal(r.outcome, 'not-ready');
  assert.equal(r.log.level, 'warn');
  assert.match(r.log.message, /not synced yet \(replicasets, jobs\)/);
});

test('a failing decision admits the pod unchanged (outcome error, warning with the error)', () => {
  const r = reviewPod(request(), {
    notSynced: () => [],
    namespaceView: () => {
      throw new Error('cache broken');
    },
  });
  assert.deepEqual(r.response, { uid: 'u', allowed: true });
  assert.equal(r.outcome, 'error');
  assert.equal(r.log.level, 'warn');
  assert.match(String((r.log.fields.err as Error).message), /cache broken/);
});

test('an invalid VPA is a warning; no VPA is debug; UPDATE is not mutated', () => {
  const invalid = cached(vpaObject('web-vpa', 'web', { app: { cpu: '250m' } }, { updatePolicy: { updateMode: 'Sometimes' } }));
  const r = reviewPod(request(), ready([invalid]));
  assert.equal(r.outcome, 'invalid-vpa');
  assert.equal(r.log.level, 'warn');
  assert.match(r.log.message, /admitted unchanged: VPA web-vpa \(targets Deployment\/web\) is invalid, so it is not applied: spec\.updatePolicy\.updateMode/);
  assert.equal(reviewPod(request(), ready([])).log.level, 'debug');
  const update = reviewPod(request('UPDATE'), ready());
  assert.deepEqual(update.response, { uid: 'u', allowed: true });
});

test("a JVM's memory kept above heap + overhead is in the log line's adjustments, with the reason", () => {
  const jvm = webPod([{ ...container('app', { memory: '2Gi' }, { memory: '2Gi' }), env: [{ name: 'JAVA_TOOL_OPTIONS', value: '-Xmx1g' }] }]);
  const r = reviewPod(
    { uid: 'u', operation: 'CREATE', namespace: 'shop', object: jvm },
    ready([cached(vpaObject('web-vpa', 'web', { app: { memory: '512Mi' } }))]),
  );
  assert.equal(r.outcome, 'patched');
  assert.equal(r.log.message, 'resources set: VPA web-vpa: app: memory request 2Gi -> 1280Mi, memory limit 2Gi -> 1280Mi');
  assert.deepEqual(r.log.fields.adjustments, [
    'app: memory: request and limit kept at 1280Mi, not the 512Mi recommended: a memory limit is not lowered below what jvm (-Xmx 1024Mi, from env JAVA_TOOL_OPTIONS) needs (heap + overhead)',
    'app: memory: limit set to 1280Mi, equal to the request as before',
  ]);
});

test('a pod given a start-up CPU boost says so to the server (which counts it); a plain patch does not', () => {
  const boostedVpa = vpaObject('web-vpa', 'web', { app: { cpu: '250m' } });
  (boostedVpa.metadata as { annotations?: Record<string, string> }).annotations = { 'tailor.dev/startup-cpu-boost': '2x' };
  const boosted = reviewPod(request(), ready([cached(boostedVpa)]));
  assert.equal(boosted.outcome, 'patched');
  assert.match(boosted.log.message, /boost/);
  assert.equal(boosted.startupBoost, true);
  assert.equal(reviewPod(request(), ready()).startupBoost, undefined);
});
