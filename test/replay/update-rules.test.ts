import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_UPDATE_RULES,
  MEMORY_PEAK_WINDOW_MS,
  memoryFloor,
  stepToward,
  updateReason,
  updateRulesFrom,
  type ContainerUpdateState,
} from '../../src/replay/update-rules.ts';
import { DEFAULT_UPDATER_OPTIONS, updaterOptions } from '../../src/policy/update-thresholds.ts';
import { limitStep } from '../../src/policy/change-rules.ts';
import { estimate } from './helpers.ts';

const H = 3_600_000;

function state(overrides: Partial<ContainerUpdateState> = {}): ContainerUpdateState {
  return {
    request: { cpu: 500, memory: 1000 },
    startedAt: 0,
    lastChangeAt: -Infinity,
    oomPending: false,
    pressurePending: false,
    hasMemory: true,
    ...overrides,
  };
}

test('the rules in order: OOM, cooldown, bounds, age with difference', () => {
  const inBounds = estimate(440, 1000, [400, 900], [600, 1100]);
  // |440 - 500| / 500 = 12% >= 10%: acts once the container is 12 h old.
  assert.equal(updateReason(state(), inBounds, DEFAULT_UPDATE_RULES, 11 * H), undefined);
  assert.equal(updateReason(state(), inBounds, DEFAULT_UPDATE_RULES, 12 * H), 'drift');
  // Target 470m: 6% is not enough.
  assert.equal(updateReason(state(), estimate(470, 1000, [400, 900], [600, 1100]), DEFAULT_UPDATE_RULES, 13 * H), undefined);
  // Outside the bounds acts at any age, but not within the cooldown.
  const outside = estimate(300, 1000, [250, 900], [400, 1100]);
  assert.equal(updateReason(state(), outside, DEFAULT_UPDATE_RULES, 1000), 'outside-bounds');
  // The cooldown is 15 minutes.
  assert.equal(updateReason(state({ lastChangeAt: 0 }), outside, DEFAULT_UPDATE_RULES, 14 * 60_000), undefined);
  assert.equal(updateReason(state({ lastChangeAt: 0 }), outside, DEFAULT_UPDATE_RULES, 15 * 60_000), 'outside-bounds');
  // An OOM acts at once, even in the cooldown; not for CPU-only containers.
  assert.equal(updateReason(state({ lastChangeAt: 0, oomPending: true }), inBounds, DEFAULT_UPDATE_RULES, 1), 'oom');
  assert.equal(updateReason(state({ lastChangeAt: 0, oomPending: true, hasMemory: false }), inBounds, DEFAULT_UPDATE_RULES, 1), undefined);
  // Memory is ignored for CPU-only containers: memory out of bounds does not count.
  assert.equal(updateReason(state({ hasMemory: false }), estimate(500, 5000), DEFAULT_UPDATE_RULES, 1), undefined);
});

test('memory safety floor: peak + max(15%, 64 MiB)', () => {
  const MIB = 1024 ** 2;
  const rule = DEFAULT_UPDATE_RULES.memorySafety;
  assert.ok(rule !== null);
  assert.equal(memoryFloor(800 * MIB, rule), 920 * MIB);
  assert.equal(memoryFloor(200 * MIB, rule), 264 * MIB);
});

test('steps go at most x2 up and x0.5 down', () => {
  assert.equal(stepToward(200, 900, DEFAULT_UPDATE_RULES), 400);
  assert.equal(stepToward(200, 300, DEFAULT_UPDATE_RULES), 300);
  assert.equal(stepToward(200, 30, DEFAULT_UPDATE_RULES), 100);
  assert.equal(stepToward(0, 30, DEFAULT_UPDATE_RULES), 30);
});

test('the replay rules are the real updater defaults, not a copy', () => {
  const o = DEFAULT_UPDATER_OPTIONS;
  assert.equal(DEFAULT_UPDATE_RULES.minAgeMs, o.minPodAgeForDriftMs);
  assert.equal(DEFAULT_UPDATE_RULES.minRelativeDiff, o.driftThreshold);
  assert.equal(DEFAULT_UPDATE_RULES.cooldownMs, o.podCooldownMs);
  assert.equal(DEFAULT_UPDATE_RULES.maxStepUp, o.maxStepUpFactor);
  assert.equal(DEFAULT_UPDATE_RULES.maxStepDown, o.maxStepDownFactor);
  assert.deepEqual(DEFAULT_UPDATE_RULES.memoryPressure, {
    threshold: o.memoryPressureRatio,
    durationMs: o.memoryPressureWindowMs,
    raiseFactor: o.memoryPressureRaiseFactor,
  });
  assert.deepEqual(DEFAULT_UPDATE_RULES.memorySafety, {
    windowMs: MEMORY_PEAK_WINDOW_MS,
    marginRatio: o.memoryPeakMarginRatio,
    marginBytes: o.memoryPeakMarginBytes,
  });
  // A changed updater option flows through: cooldown 30 min, steps x3 / x0.25.
  const rules = updateRulesFrom(updaterOptions({ podCooldownMs: 30 * 60_000, maxStepUpFactor: 3, maxStepDownFactor: 0.25 }));
  assert.equal(rules.cooldownMs, 30 * 60_000);
  assert.equal(stepToward(200, 900, rules), 600);
  assert.equal(stepToward(200, 30, rules), 50);
});

test("steps and the memory floor are the updater planner's arithmetic", () => {
  const steps = { maxStepUpFactor: DEFAULT_UPDATER_OPTIONS.maxStepUpFactor, maxStepDownFactor: DEFAULT_UPDATER_OPTIONS.maxStepDownFactor };
  // Odd values show the planner's rounding: 333 x 0.5 = 166.5 -> 167, 333 x 2 = 666.
  for (const [current, target] of [
    [333, 1],
    [333, 5000],
    [333, 400],
    [0, 7],
  ] as const) {
    assert.equal(stepToward(current, target, DEFAULT_UPDATE_RULES), limitStep(current, target, steps));
  }
  assert.equal(stepToward(333, 1, DEFAULT_UPDATE_RULES), 167);
});
