import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitRangeConstraints } from '../../src/policy/limit-range.ts';
import { limitRange, MiB } from './fixtures.ts';

test('LimitRanges merge to the strictest bounds per type and resource', () => {
  const constraints = limitRangeConstraints([
    limitRange('Container', { min: { cpu: '10m', memory: '32Mi' }, max: { cpu: '4', memory: '8Gi' }, maxLimitRequestRatio: { cpu: '10' } }),
    limitRange('Container', { min: { cpu: '50m' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '2.5' } }),
    limitRange('Pod', { max: { memory: '16Gi' } }),
  ]);
  assert.deepEqual(constraints.container, {
    cpu: { min: 50, max: 2000, maxRatioMilli: 2500 },
    memory: { min: 32 * MiB, max: 8192 * MiB },
  });
  assert.deepEqual(constraints.pod, { cpu: {}, memory: { max: 16384 * MiB } });
});

test('malformed values and ratios below 1 are ignored', () => {
  const constraints = limitRangeConstraints([limitRange('Container', { max: { cpu: 'many' }, maxLimitRequestRatio: { cpu: '0.5', memory: '2' } })]);
  assert.deepEqual(constraints.container, { cpu: {}, memory: { maxRatioMilli: 2000 } });
});
