import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPlan } from '../../src/updater/dry-run.ts';
import { plan } from '../../src/updater/updater-plan.ts';
import { container, pod } from '../builders/pods.ts';
import { HOUR } from '../builders/time.ts';
import { vpa } from '../builders/vpas.ts';
import { context } from './planner-fixtures.ts';

test('one line per pod: decision, reason, from -> to; then a summary', () => {
  const pods = [
    pod({
      name: 'web-1',
      containers: [container('app', { requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' }, oomKilledAgo: 60_000 })],
      startedAgo: HOUR,
    }),
    pod({ name: 'web-2', containers: [container('app', { requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' } })], startedAgo: HOUR }),
    pod({ name: 'web-3', containers: [container('app', { requests: { cpu: '200m', memory: '512Mi' }, limits: { memory: '1Gi' } })], startedAgo: HOUR }),
  ];
  const v = vpa({ recommend: { app: { target: { cpu: '200m', memory: '512Mi' }, lower: { cpu: '150m' }, upper: { cpu: '400m' } } } });
  const decisions = plan({ ...context(), groups: [{ workload: 'Deployment/shop/web', vpa: v, pods }], budget: { resizes: 10, evictions: 10 } });
  assert.equal(
    formatPlan(decisions),
    [
      // web-1 is also below the cpu bound, so both change; the OOM makes it urgent (first).
      'shop/web-1 ResizeInPlace OomKilled: OOM-killed recently: app; app cpu request 100m below lowerBound 150m | app: cpu request 100m -> 200m, memory request 512Mi -> 768Mi, memory limit 1Gi -> 1536Mi',
      'shop/web-2 ResizeInPlace OutsideBounds: app cpu request 100m below lowerBound 150m | app: cpu request 100m -> 200m',
      'shop/web-3 Skip WithinBounds: requests within the recommended bounds; the pod is too young for drift updates',
      '3 pod(s): ResizeInPlace 2, ResizeWithRestart 0, Evict 0, Wait 0, Skip 1',
    ].join('\n'),
  );
});
