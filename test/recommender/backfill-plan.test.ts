import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackfillPlan } from '../../src/recommender/backfill-plan.ts';

const NOON = Date.UTC(2026, 0, 1, 12);
const cursors = (m: Record<string, number>) => (ns: string) => m[ns];

test('a VPA first seen in a namespace the feed already reads is pending; one in a namespace not read yet is covered', () => {
  const plan = new BackfillPlan();
  plan.observe(
    [
      { id: 'shop/a', namespace: 'shop', ready: true },
      { id: 'lab/c', namespace: 'lab', ready: true },
    ],
    cursors({ shop: NOON }),
  );
  assert.equal(plan.isPending('shop/a'), true);
  assert.equal(plan.isPending('lab/c'), false, 'the feed bootstraps lab itself');
  assert.equal(plan.pendingCount, 1);
});

test('the VPAs seen at the first sync (no cursor anywhere) are covered by the bootstrap and never pending later', () => {
  const plan = new BackfillPlan();
  plan.observe([{ id: 'shop/a', namespace: 'shop', ready: true }], cursors({}));
  plan.observe([{ id: 'shop/a', namespace: 'shop', ready: true }], cursors({ shop: NOON }));
  assert.equal(plan.pendingCount, 0);
});

test('at most `max` VPAs per cycle, oldest first, grouped by cursor: one group per distinct cursor, its namespaces listed once', () => {
  const plan = new BackfillPlan();
  const c = cursors({ shop: NOON, lab: NOON, slow: NOON - 60_000 });
  plan.observe([{ id: 'x/seed', namespace: 'x', ready: true }], cursors({}));
  plan.observe(
    [
      { id: 'shop/a', namespace: 'shop', ready: true },
      { id: 'shop/b', namespace: 'shop', ready: true },
      { id: 'lab/c', namespace: 'lab', ready: true },
      { id: 'slow/d', namespace: 'slow', ready: true },
      { id: 'shop/e', namespace: 'shop', ready: true },
    ],
    c,
  );
  assert.deepEqual(plan.next(4, c), [
    { until: NOON, namespaces: ['shop', 'lab'], vpaIds: ['shop/a', 'shop/b', 'lab/c'] },
    { until: NOON - 60_000, namespaces: ['slow'], vpaIds: ['slow/d'] },
  ]);
  plan.done(['shop/a', 'shop/b', 'lab/c', 'slow/d']);
  assert.deepEqual(plan.next(4, c), [{ until: NOON, namespaces: ['shop'], vpaIds: ['shop/e'] }], 'the fifth waits for the next cycle');
});

test('500 VPAs created at once are read 50 per cycle over 10 cycles', () => {
  const plan = new BackfillPlan();
  const vpas = Array.from({ length: 500 }, (_, i) => ({ id: `shop/v${i}`, namespace: 'shop', ready: true }));
  plan.observe(vpas, cursors({ shop: NOON }));
  let cycles = 0;
  while (plan.pendingCount > 0) {
    const groups = plan.next(50, cursors({ shop: NOON }));
    assert.equal(groups.length, 1);
    assert.equal(groups[0]!.vpaIds.length, 50);
    plan.done(groups[0]!.vpaIds);
    cycles++;
  }
  assert.equal(cycles, 10);
});

test('a VPA with a problem waits unclassified; a known VPA with a problem stays known (its history is kept); a deleted one is forgotten', () => {
  const plan = new BackfillPlan();
  const c = cursors({ shop: NOON });
  plan.observe([{ id: 'shop/a', namespace: 'shop', ready: true }], cursors({}));
  plan.observe(
    [
      { id: 'shop/a', namespace: 'shop', ready: false },
      { id: 'shop/b', namespace: 'shop', ready: false },
    ],
    c,
  );
  assert.equal(plan.pendingCount, 0);
  plan.observe(
    [
      { id: 'shop/a', namespace: 'shop', ready: true },
      { id: 'shop/b', namespace: 'shop', ready: true },
    ],
    c,
  );
  assert.equal(plan.isPending('shop/a'), false, 'a kept its history through the problem');
  assert.equal(plan.isPending('shop/b'), true, 'b never had pods routed: its history is read');
  plan.observe([], c);
  assert.equal(plan.pendingCount, 0);
  plan.observe([{ id: 'shop/a', namespace: 'shop', ready: true }], c);
  assert.equal(plan.isPending('shop/a'), true, 'a VPA recreated under the same name starts over (its old history was pruned)');
});
