import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keptMetadata } from '../../src/admission/register-webhooks.ts';

test("a replace keeps the labels and annotations an installer set, the webhook's own win, with the current resourceVersion", () => {
  const current = {
    name: 'tailor',
    resourceVersion: '42',
    labels: { 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/component': 'old' },
    annotations: { 'meta.helm.sh/release-name': 'tailor', 'meta.helm.sh/release-namespace': 'tailor-system' },
  };
  const desired = { name: 'tailor', labels: { 'app.kubernetes.io/name': 'tailor', 'app.kubernetes.io/component': 'admission' } };
  assert.deepEqual(keptMetadata(current, desired), {
    name: 'tailor',
    resourceVersion: '42',
    labels: { 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/component': 'admission', 'app.kubernetes.io/name': 'tailor' },
    annotations: { 'meta.helm.sh/release-name': 'tailor', 'meta.helm.sh/release-namespace': 'tailor-system' },
  });
});

test('nothing there yet but a resourceVersion: the desired metadata, no empty maps', () => {
  assert.deepEqual(keptMetadata({ resourceVersion: '7' }, { name: 'tailor' }), { name: 'tailor', resourceVersion: '7' });
});
