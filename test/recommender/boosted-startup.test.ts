import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boostWindow } from '../../src/recommender/boosted-startup.ts';
import { GONE_POD_READY_ALLOWANCE_MS } from '../../src/policy/startup-boost.ts';
import { vpa } from '../builders/vpas.ts';

test("the boost window of gone pods: the longest of the VPA's boosts, upstream's field or the annotation; none without a boost", () => {
  assert.deepEqual(boostWindow(vpa()), {});
  assert.deepEqual(boostWindow(vpa({ annotations: { 'tailor.dev/startup-cpu-boost': '2x', 'tailor.dev/startup-cpu-boost-duration': '90s' } })), {
    boostWindowMs: 90_000,
  });
  const upstream = vpa({
    startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 15 } },
    policies: [{ containerName: 'log', startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 185 } } }],
  });
  assert.deepEqual(boostWindow(upstream), { boostWindowMs: GONE_POD_READY_ALLOWANCE_MS + 185_000 });
});
