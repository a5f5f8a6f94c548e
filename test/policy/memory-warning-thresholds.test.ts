import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MEMORY_WARNING_THRESHOLDS, memoryWarningLevel } from '../../src/policy/memory-warning-thresholds.ts';
import { DEFAULT_UPDATER_OPTIONS } from '../../src/policy/update-thresholds.ts';

test('75% warns, 85% escalates, both below the pressure guard that acts', () => {
  assert.equal(memoryWarningLevel(750, 1000), undefined);
  assert.equal(memoryWarningLevel(751, 1000), 'warning');
  assert.equal(memoryWarningLevel(851, 1000), 'critical');
  assert.equal(memoryWarningLevel(851, undefined), undefined);
  assert.equal(memoryWarningLevel(851, 0), undefined);
  assert.equal(memoryWarningLevel(undefined, 1000), undefined);
  assert.ok(MEMORY_WARNING_THRESHOLDS.criticalRatio < DEFAULT_UPDATER_OPTIONS.memoryPressureRatio);
});
