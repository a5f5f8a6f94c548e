import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VerticalPodAutoscalerCheckpoint } from '../../src/api/vpa-checkpoint.ts';
import { noteUpdates, recovery } from './recovery.ts';

const T0 = Date.parse('2026-12-07T10:00:00Z');
const checkpoint = (vpa: string, container: string, updated: string | undefined): VerticalPodAutoscalerCheckpoint => ({
  apiVersion: 'autoscaling.k8s.io/v1',
  kind: 'VerticalPodAutoscalerCheckpoint',
  metadata: { name: `${vpa}-${container}`, namespace: 'chaos' },
  spec: { vpaObjectName: vpa, containerName: container },
  status: updated ? { lastUpdateTime: updated } : {},
});

test('a VPA is fresh at its first checkpoint update after the last fault, even when later polls saw later writes', () => {
  const seen = new Map<string, Set<number>>();
  noteUpdates(seen, [checkpoint('web', 'app', '2026-12-07T09:59:50Z'), checkpoint('db', 'app', '2026-12-07T09:59:55Z')]);
  noteUpdates(seen, [checkpoint('web', 'app', '2026-12-07T10:00:40Z'), checkpoint('db', 'app', '2026-12-07T10:01:30Z')]);
  noteUpdates(seen, [checkpoint('web', 'app', '2026-12-07T10:01:00Z'), checkpoint('db', 'app', '2026-12-07T10:01:50Z')]);
  assert.deepEqual(recovery(seen, ['web', 'db'], T0), { slowestMs: 90_000, late: [], unserved: [] });
  // The last fault known only at the end: the updates before it do not count.
  assert.deepEqual(recovery(seen, ['web', 'db'], T0 + 45_000), { slowestMs: 45_000, late: [], unserved: [] });
});

test('a VPA served before the last fault and fresh only after 2 minutes, or never, is late; the slowest time is known only when all were seen', () => {
  const seen = new Map([
    ['web', new Set([T0 - 1_000, T0 + 30_000])],
    ['db', new Set([T0 - 5_000, T0 + 150_000])],
    ['api', new Set([T0 - 5_000])],
  ]);
  assert.deepEqual(recovery(seen, ['web', 'db', 'api'], T0), { slowestMs: undefined, late: ['db', 'api'], unserved: [] });
  assert.deepEqual(recovery(seen, ['web', 'db'], T0), { slowestMs: 150_000, late: ['db'], unserved: [] });
});

test('a VPA not served before the last fault has nothing to recover: listed with its first service, if any (the CI run: cron first served 4 minutes in)', () => {
  const seen = new Map([
    ['web', new Set([T0 - 1_000, T0 + 10_000])],
    ['cron', new Set([T0 + 200_000])],
  ]);
  assert.deepEqual(recovery(seen, ['web', 'cron', 'oom'], T0), {
    slowestMs: 10_000,
    late: [],
    unserved: [
      { vpa: 'cron', firstAfterMs: 200_000 },
      { vpa: 'oom', firstAfterMs: undefined },
    ],
  });
});
