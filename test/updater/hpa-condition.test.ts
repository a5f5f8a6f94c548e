import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VerticalPodAutoscaler, VpaCondition } from '../../src/api/vpa.ts';
import { hpaConditionUpdate, hpaConflictMessage } from '../../src/updater/hpa-condition.ts';
import { groupConflict } from '../../src/updater/hpa-status.ts';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const provided: VpaCondition = {
  type: 'RecommendationProvided',
  status: 'True',
  reason: 'RecommendationProvided',
  message: 'ok',
  lastTransitionTime: '2026-06-01T10:00:00Z',
};
const vpaWith = (conditions: VpaCondition[]) =>
  ({
    metadata: { name: 'web', namespace: 'shop' },
    spec: { targetRef: { kind: 'Deployment', name: 'web' } },
    status: { conditions },
  }) as unknown as VerticalPodAutoscaler;
const conflict = { workload: 'Deployment/shop/web', hpaNames: ['web'], resources: ['cpu' as const] };

test('an HPA conflict adds the HpaConflict condition after the other conditions, with the time of now', () => {
  const update = hpaConditionUpdate(vpaWith([provided]), conflict, NOW)!;
  assert.deepEqual(update.conditions, [
    provided,
    {
      type: 'HpaConflict',
      status: 'True',
      lastTransitionTime: '2026-06-01T12:00:00Z',
      reason: 'ResourcesLeftToHpa',
      message: 'HorizontalPodAutoscaler web scales Deployment/shop/web on cpu utilisation; the updater leaves cpu to it',
    },
  ]);
  assert.equal(update.condition, update.conditions[1]);
});

test('the same conflict again writes nothing; a changed one keeps the transition time', () => {
  const written = hpaConditionUpdate(vpaWith([provided]), conflict, NOW)!.conditions;
  assert.equal(hpaConditionUpdate(vpaWith(written), conflict, NOW + 60_000), undefined);
  const both = hpaConditionUpdate(vpaWith(written), { ...conflict, resources: ['cpu', 'memory'] }, NOW + 60_000)!;
  assert.equal(both.condition!.lastTransitionTime, '2026-06-01T12:00:00Z');
  assert.match(both.condition!.message!, /on cpu and memory utilisation; the updater leaves cpu and memory to it/);
});

test('no conflict removes the condition and keeps the rest; without one there is nothing to write', () => {
  const written = hpaConditionUpdate(vpaWith([provided]), conflict, NOW)!.conditions;
  assert.deepEqual(hpaConditionUpdate(vpaWith(written), undefined, NOW), { conditions: [provided] });
  assert.equal(hpaConditionUpdate(vpaWith([provided]), undefined, NOW), undefined);
  assert.equal(hpaConditionUpdate(vpaWith([provided]), { ...conflict, resources: [] }, NOW), undefined);
});

test('the message names every HPA', () => {
  assert.equal(
    hpaConflictMessage({ workload: 'StatefulSet/db/pg', hpaNames: ['a', 'b'], resources: ['memory'] }),
    'HorizontalPodAutoscaler a, b scales StatefulSet/db/pg on memory utilisation; the updater leaves memory to it',
  );
});

test('only VPAs whose pods the updater changes report the conflict, and only with respectHpa', () => {
  const group = (mode: string) => ({
    workload: 'Deployment/shop/web',
    vpa: {
      metadata: { name: 'web' },
      spec: { targetRef: { kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: mode } },
    } as unknown as VerticalPodAutoscaler,
    pods: [],
    hpaResources: ['memory', 'cpu'] as ('cpu' | 'memory')[],
    hpaNames: ['web'],
  });
  assert.deepEqual(groupConflict(group('InPlaceOrRecreate'), true), { workload: 'Deployment/shop/web', hpaNames: ['web'], resources: ['cpu', 'memory'] });
  assert.equal(groupConflict(group('Off'), true), undefined);
  assert.equal(groupConflict(group('Initial'), true), undefined);
  assert.equal(groupConflict(group('Recreate'), false), undefined);
});
