import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TAILOR_DEFAULTS, type TailorOptions } from '../../../src/recommender/tailor/options.ts';
import { isExperiment, NO_EXPERIMENTS, tailorSettings } from '../../../src/recommender/tailor/experiments.ts';
import { LOW_CHURN_OPTIONS } from '../../../src/recommender/tailor/low-churn.ts';

test('a research knob is not a product option: the two sets of names do not meet', () => {
  const product = Object.keys(TAILOR_DEFAULTS);
  const knobs = Object.keys(NO_EXPERIMENTS);
  assert.deepEqual(product.filter((k) => knobs.includes(k)), []);
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
  assert.deepEqual(tailorSettings(), { ...TAILOR_DEFAULTS, ...NO_EXPERIMENTS });
});
