import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computePodQos, podQosClass } from '../../src/policy/qos.ts';
import { c, pod } from './fixtures.ts';

test('BestEffort: no cpu or memory requests or limits (other resources do not count)', () => {
  assert.equal(computePodQos(pod([c('a'), c('b', { 'ephemeral-storage': '1Gi' })])), 'BestEffort');
});

test('zero quantities do not count', () => {
  assert.equal(computePodQos(pod([c('a', { cpu: '0', memory: '0' })])), 'BestEffort');
});

test('Guaranteed: every container has cpu and memory limits equal to its requests', () => {
  const g = c('a', { cpu: '500m', memory: '1Gi' }, { cpu: '0.5', memory: '1024Mi' });
  assert.equal(computePodQos(pod([g, g])), 'Guaranteed');
});

test('Guaranteed with limits only: requests default to the limits', () => {
  assert.equal(computePodQos(pod([c('a', undefined, { cpu: '1', memory: '1Gi' })])), 'Guaranteed');
});

test('Burstable: a container without a memory limit', () => {
  assert.equal(computePodQos(pod([c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1' })])), 'Burstable');
});

test('Burstable: requests below limits', () => {
  assert.equal(computePodQos(pod([c('a', { cpu: '500m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })])), 'Burstable');
});

test('Burstable: one Guaranteed-looking container and one without resources', () => {
  assert.equal(computePodQos(pod([c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }), c('b')])), 'Burstable');
});

test('init containers count: an init container below its limits makes the pod Burstable', () => {
  const g = c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' });
  assert.equal(computePodQos(pod([g], [c('init', { cpu: '100m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })])), 'Burstable');
  assert.equal(computePodQos(pod([g], [c('init', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })])), 'Guaranteed');
});

test('pod-level resources decide the class when set', () => {
  const p = pod([c('a')]);
  p.spec!.resources = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } };
  assert.equal(computePodQos(p), 'Guaranteed');
});

test('the class recorded in status wins over the computed one', () => {
  const p = pod([c('a', { cpu: '1' })]);
  assert.equal(podQosClass(p), 'Burstable');
  p.status = { qosClass: 'Guaranteed' };
  assert.equal(podQosClass(p), 'Guaranteed');
});
