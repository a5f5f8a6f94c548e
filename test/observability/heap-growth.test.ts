import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from '../../src/observability/heap-growth.ts';

describe('heapGrowthFlag', () => {
  it('asks V8 for a fixed growth when node was started without one', () => {
    assert.equal(heapGrowthFlag(['--max-semi-space-size=4'], undefined), `--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    assert.equal(heapGrowthFlag([], ''), '--heap-growing-percent=25');
  });

  it("leaves the operator's own choice on node's command line alone", () => {
    assert.equal(heapGrowthFlag(['--heap-growing-percent=50'], undefined), undefined);
    assert.equal(heapGrowthFlag(['--heap_growing_percent=50'], undefined), undefined);
  });

  it("leaves the operator's own choice in NODE_OPTIONS alone", () => {
    assert.equal(heapGrowthFlag([], '--max-old-space-size=512 --heap-growing-percent=10'), undefined);
    assert.equal(heapGrowthFlag([], '--heap-growing-percent 10'), undefined);
  });

  it('is not fooled by a flag whose name only starts the same', () => {
    assert.equal(heapGrowthFlag(['--heap-growing-percentage=5'], '--no-heap-growing-percent-x'), '--heap-growing-percent=25');
  });
});
