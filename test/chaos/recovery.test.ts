import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VerticalPodAutoscalerCheckpoint } from '../../src/api/vpa-checkpoint.ts';
import { noteFresh, recovery } from './recovery.ts';

const T0 = Date.parse('2026-12-07T10:00:00Z');
const checkpoint = (vpa: string, container: string, updated: string | undefined): VerticalPodAutoscalerCheckpoint => ({
  apiVersion: 'autoscaling.k8s.io/v1',
  kind: 'VerticalPodAutoscalerCheckpoint',
  metadata: { name: `${vpa}-${container}`, namespace: 'chaos' },
  spec: { vpaObjectName: vpa, containerName: container },
  status: updated ? { lastUpdateTime: updated } : {},
});

test('a VPA is fresh at the first checkpoint update after the last fault; earlier ones and ones without a time do not count', () => {
  const fresh = new Map<string, number>();
  noteFresh(fresh, [checkpoint('web', 'app', '2026-12-07T09:59:50Z'), checkpoint('db', 'app', undefined)], T0);
  assert.deepEqual([...fresh], []);
  noteFresh(fresh, [checkpoint('web', 'app', '2026-12-07T10:00:40Z'), checkpoint('db', 'app', '2026-12-07T10:01:30Z')], T0);
  // A later poll sees later writes: the first time seen fresh is kept.
  noteFresh(fresh, [checkpoint('web', 'app', '2026-12-07T10:01:00Z')], T0);
  assert.deepEqual([...fresh], [
    ['web', T0 + 40_000],
    ['db', T0 + 90_000],
  ]);
  assert.deepEqual(recovery(fresh, ['web', 'db'], T0), { slowestMs: 90_000, late: [] });
});

test('a VPA fresh after 2 minutes, or never, is late; the slowest time is known only when all were seen', () => {
  const fresh = new Map([
    ['web', T0 + 30_000],
    ['db', T0 + 150_000],
  ]);
  assert.deepEqual(recovery(fresh, ['web', 'db', 'cron'], T0), { slowestMs: undefined, late: ['db', 'cron'] });
  assert.deepEqual(recovery(fresh, ['web', 'db'], T0), { slowestMs: 150_000, late: ['db'] });
});
