import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSelector, selectorMatches, SelectorParseError } from '../../src/recommender/label-selector.ts';

test('matchLabels and every matchExpressions operator', () => {
  const s = {
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'In' as const, values: ['front', 'edge'] },
      { key: 'canary', operator: 'DoesNotExist' as const },
    ],
  };
  assert.equal(selectorMatches(s, { app: 'web', tier: 'edge' }), true);
  assert.equal(selectorMatches(s, { app: 'web', tier: 'edge', canary: '1' }), false);
  assert.equal(selectorMatches(s, { app: 'web', tier: 'back' }), false);
  assert.equal(selectorMatches(s, { app: 'api', tier: 'edge' }), false);
  assert.equal(selectorMatches({ matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['1'] }] }, { x: '2' }), true);
  assert.equal(selectorMatches({ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, {}), false);
  assert.equal(selectorMatches({}, undefined), true, 'an empty selector matches everything');
});

test('the string form of a scale subresource selector', () => {
  const s = parseSelector('app=web,tier in (front, edge),!canary,track!=beta,zone');
  assert.deepEqual(s.matchLabels, { app: 'web' });
  assert.equal(selectorMatches(s, { app: 'web', tier: 'front', track: 'stable', zone: 'a' }), true);
  assert.equal(selectorMatches(s, { app: 'web', tier: 'front', track: 'beta', zone: 'a' }), false);
  assert.equal(selectorMatches(s, { app: 'web', tier: 'front', zone: 'a', canary: 'y' }), false);
  assert.equal(selectorMatches(s, { app: 'web', tier: 'front' }), false);
  assert.deepEqual(parseSelector('a==b').matchLabels, { a: 'b' });
  assert.throws(() => parseSelector('a in b'), SelectorParseError);
});
