import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vpaForOwner } from '../../src/admission/vpa-for-pod.ts';

const web = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const vpa = (name: string, created: string, targetRef: Record<string, string>) => ({ metadata: { name, creationTimestamp: created }, spec: { targetRef } });

test('the oldest VPA targeting the owner wins; name breaks ties', () => {
  const vpas = [
    vpa('newer', '2026-01-02T00:00:00Z', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }),
    vpa('older', '2026-01-01T00:00:00Z', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }),
    vpa('oldest-but-other', '2025-01-01T00:00:00Z', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }),
  ];
  assert.equal(vpaForOwner(vpas, web)?.metadata.name, 'older');
  const tie = [vpa('b', '2026-01-01T00:00:00Z', { kind: 'Deployment', name: 'web' }), vpa('a', '2026-01-01T00:00:00Z', { kind: 'Deployment', name: 'web' })];
  assert.equal(vpaForOwner(tie, web)?.metadata.name, 'a');
});

test('targetRef matches by kind, name and API group (versions may differ)', () => {
  assert.equal(vpaForOwner([vpa('v', '2026-01-01T00:00:00Z', { apiVersion: 'apps/v1beta2', kind: 'Deployment', name: 'web' })], web)?.metadata.name, 'v');
  assert.equal(vpaForOwner([vpa('v', '2026-01-01T00:00:00Z', { apiVersion: 'example.com/v1', kind: 'Deployment', name: 'web' })], web), undefined);
  assert.equal(vpaForOwner([vpa('v', '2026-01-01T00:00:00Z', { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' })], web), undefined);
});
