import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duration, exactAlternation, oneOf, selector, validateExtraSelector } from '../../src/metrics/promql-selector.ts';

test('namespace alternations escape regex characters so a.b matches only itself', () => {
  assert.equal(exactAlternation(['a.b', 'c+d']), String.raw`a\.b|c\+d`);
  assert.equal(oneOf('namespace', ['b', 'a.b']), String.raw`namespace=~"a\\.b|b"`);
  assert.equal(oneOf('namespace', ['shop']), 'namespace="shop"');
});

test('selectors carry the extra matchers and reject bad names', () => {
  assert.equal(selector('up', ['job="x"'], 'cluster="prod"'), 'up{job="x",cluster="prod"}');
  assert.equal(selector('up', []), 'up{}');
  assert.throws(() => selector('bad-name', []), /invalid metric name/);
});

test('extra selectors must be label matchers', () => {
  assert.equal(validateExtraSelector(' cluster="prod", region=~"eu-.*", '), 'cluster="prod", region=~"eu-.*"');
  assert.equal(validateExtraSelector(''), '');
  assert.throws(() => validateExtraSelector('cluster=prod'), /invalid extra selector/);
  assert.throws(() => validateExtraSelector('{cluster="prod"}'), /invalid extra selector/);
});

test('durations are whole seconds', () => {
  assert.equal(duration(300_000), '300s');
  assert.equal(duration(8 * 24 * 3600_000), '691200s');
});
