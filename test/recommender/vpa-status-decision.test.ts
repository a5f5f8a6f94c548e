import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideVpaStatus } from '../../src/recommender/vpa-status-decision.ts';

const NOW = Date.UTC(2026, 0, 1, 12);
const rec = (cpu: string) => ({ containerRecommendations: [{ containerName: 'app', target: { cpu, memory: '250Mi' } }] });
const types = (d: ReturnType<typeof decideVpaStatus>) => d.status.conditions.map((c) => `${c.type}=${c.status}`);

test('a fresh recommendation is written with RecommendationProvided; the same one again is no write', () => {
  const first = decideVpaStatus(
    { previous: undefined, podsMatched: 2, fetchingHistory: false, computed: { recommendation: rec('587m'), lowConfidence: [] } },
    NOW,
  );
  assert.equal(first.changed, true);
  assert.deepEqual(types(first), ['RecommendationProvided=True']);
  const again = decideVpaStatus(
    { previous: first.status, podsMatched: 2, fetchingHistory: false, computed: { recommendation: rec('587m'), lowConfidence: [] } },
    NOW + 60_000,
  );
  assert.equal(again.changed, false);
  const moved = decideVpaStatus(
    { previous: first.status, podsMatched: 2, fetchingHistory: false, computed: { recommendation: rec('600m'), lowConfidence: [] } },
    NOW + 60_000,
  );
  assert.equal(moved.changed, true);
  assert.equal(moved.status.recommendation!.containerRecommendations![0]!.target.cpu, '600m');
});

test('a malformed VPA keeps its last recommendation and says why', () => {
  const d = decideVpaStatus(
    {
      previous: { recommendation: rec('587m') },
      problem: { reason: 'InvalidSpec', message: 'spec.targetRef: Required value' },
      podsMatched: 0,
      fetchingHistory: false,
    },
    NOW,
  );
  assert.equal(d.status.recommendation!.containerRecommendations![0]!.target.cpu, '587m');
  assert.deepEqual(types(d), ['RecommendationProvided=True', 'ConfigUnsupported=True']);
  assert.match(d.status.conditions[1]!.message!, /targetRef/);
});

test('no pods, still bootstrapping, little history', () => {
  const none = decideVpaStatus(
    { previous: undefined, podsMatched: 0, fetchingHistory: true, computed: { recommendation: { containerRecommendations: [] }, lowConfidence: [] } },
    NOW,
  );
  assert.deepEqual(types(none), ['RecommendationProvided=False', 'NoPodsMatched=True', 'FetchingHistory=True']);
  assert.equal(none.status.recommendation, undefined);
  const low = decideVpaStatus(
    { previous: undefined, podsMatched: 1, fetchingHistory: false, computed: { recommendation: rec('30m'), lowConfidence: ['app'] } },
    NOW,
  );
  assert.deepEqual(types(low), ['RecommendationProvided=True', 'LowConfidence=True']);
});

test('a recommendation from OOM kills alone says so: LowConfidence reason OomKillsOnly, other short histories named apart', () => {
  const d = decideVpaStatus(
    {
      previous: undefined,
      podsMatched: 1,
      fetchingHistory: false,
      computed: { recommendation: rec('30m'), lowConfidence: ['app', 'proxy'], oomKillsOnly: ['app'] },
    },
    NOW,
  );
  assert.deepEqual(types(d), ['RecommendationProvided=True', 'LowConfidence=True']);
  const low = d.status.conditions[1]!;
  assert.equal(low.reason, 'OomKillsOnly');
  assert.equal(
    low.message,
    'no usage sample yet, recommended from OOM kills only (memory from the kills, CPU at its floor) for: app; less than a day of history for: proxy',
  );
  const later = decideVpaStatus(
    { previous: d.status, podsMatched: 1, fetchingHistory: false, computed: { recommendation: rec('30m'), lowConfidence: ['app', 'proxy'] } },
    NOW + 60_000,
  );
  assert.equal(later.status.conditions[1]!.reason, 'ShortHistory', 'once sampled, the usual reason');
  assert.equal(later.status.conditions[1]!.message, 'less than a day of history for: app, proxy');
});

test('Prometheus down: the recommendation stays and RecommendationProvided says usage was not updated', () => {
  const d = decideVpaStatus(
    {
      previous: { recommendation: rec('587m') },
      podsMatched: 1,
      fetchingHistory: false,
      usageProblem: 'Prometheus unavailable: connect ECONNREFUSED',
      computed: { recommendation: rec('587m'), lowConfidence: [] },
    },
    NOW,
  );
  assert.equal(d.status.recommendation!.containerRecommendations![0]!.target.cpu, '587m');
  assert.match(d.status.conditions[0]!.message!, /usage not updated this cycle: Prometheus unavailable/);
});

test('settings the strategy does not apply: ConfigIgnored, and the recommendation is still written', () => {
  const d = decideVpaStatus(
    {
      previous: undefined,
      podsMatched: 1,
      fetchingHistory: false,
      ignored: 'memoryAggregationIntervalSeconds of container policy "*" not applied',
      computed: { recommendation: rec('30m'), lowConfidence: [] },
    },
    NOW,
  );
  assert.deepEqual(types(d), ['RecommendationProvided=True', 'ConfigIgnored=True']);
  assert.equal(d.status.conditions[1]!.reason, 'NotAppliedByStrategy');
  const fixed = decideVpaStatus(
    { previous: d.status, podsMatched: 1, fetchingHistory: false, computed: { recommendation: rec('30m'), lowConfidence: [] } },
    NOW + 60_000,
  );
  assert.deepEqual(types(fixed), ['RecommendationProvided=True'], 'gone once the VPA no longer sets them');
});
