import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tailorVariants, tailorVariantStrategy } from '../../bench/bench-args.ts';

test('a --variant may set product options and research knobs; a key that is neither stops the bench', () => {
  const variants = tailorVariants(['--variant', 'mix={"cpuQuantile":0.95,"coalesceChanges":true}']);
  assert.deepEqual(
    variants.map(([name]) => name),
    ['tailor', 'mix'],
  );
  assert.equal(tailorVariantStrategy(variants[1]![1], 'mix').name, 'mix');
  assert.throws(
    () => tailorVariantStrategy(JSON.parse('{"stickyAdaptiveCut":true}') as object, 'old'),
    /"stickyAdaptiveCut" is neither a tailor option nor a research knob/,
  );
});
