import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TAILOR_DEFAULTS, type TailorOptions } from '../../../src/model/tailor/options.ts';
import { isExperiment, NO_EXPERIMENTS, tailorSettings } from '../../../src/model/tailor/experiments.ts';
import { LOW_CHURN_OPTIONS } from '../../../src/model/tailor/low-churn.ts';
import { changeRuleOptions } from '../../../src/policy/change-rules.ts';
import { DEFAULT_UPDATER_OPTIONS, updaterOptions } from '../../../src/policy/update-thresholds.ts';

test('a research knob is not a product option: the two sets of names do not meet', () => {
  const product = Object.keys(TAILOR_DEFAULTS);
  const knobs = Object.keys(NO_EXPERIMENTS);
  assert.deepEqual(
    product.filter((k) => knobs.includes(k)),
    [],
  );
  assert.ok(knobs.every(isExperiment));
  assert.ok(!product.some(isExperiment));
  // The presets are product options only.
  assert.ok(!Object.keys(LOW_CHURN_OPTIONS).some(isExperiment));
});

test('tailorSettings: a research knob comes from the experiments only; one that reached the options untyped is off', () => {
  const untyped = JSON.parse('{"coalesceChanges":true,"cpuQuantile":0.95}') as Partial<TailorOptions>;
  const settings = tailorSettings(untyped);
  assert.equal(settings.coalesceChanges, false);
  assert.equal(settings.cpuQuantile, 0.95);
  assert.equal(tailorSettings({}, { coalesceChanges: true }).coalesceChanges, true);
  assert.deepEqual(tailorSettings(), { ...TAILOR_DEFAULTS, ...NO_EXPERIMENTS, updater: changeRuleOptions(DEFAULT_UPDATER_OPTIONS) });
});

test("tailorSettings: the updater's rules come from the updater's options only, the held CPU band from its drift threshold", () => {
  const operators = tailorSettings({}, {}, updaterOptions({ driftThreshold: 0.2, podCooldownMs: 300_000, allowContainerRestart: true }));
  assert.equal(operators.updater.podCooldownMs, 300_000);
  assert.deepEqual(operators.stickyBand, [0.8, 1, Infinity, 1]);
  assert.ok(!('allowContainerRestart' in operators.updater), 'only what changes a rule of one container');
  const untyped = JSON.parse('{"updater":{"podCooldownMs":1}}') as Partial<TailorOptions>;
  assert.equal(tailorSettings(untyped).updater.podCooldownMs, DEFAULT_UPDATER_OPTIONS.podCooldownMs);
});
