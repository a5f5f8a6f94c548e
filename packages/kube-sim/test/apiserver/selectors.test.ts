import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileLabelSelector, formatLabelSelector, matchesLabels, parseLabelSelector } from '../../src/apiserver/label-selector.ts';
import { matchesFields, parseFieldSelector } from '../../src/apiserver/field-selector.ts';

const labels = { app: 'web', tier: 'front', 'example.com/team': 'a' };
const cases: [string, boolean][] = [
  ['', true],
  ['app=web', true],
  ['app==web', true],
  ['app!=web', false],
  ['app!=db', true],
  ['missing!=x', true],
  ['app in (web, db)', true],
  ['app notin (web)', false],
  ['tier,app=web', true],
  ['!tier', false],
  ['!missing', true],
  ['example.com/team=a', true],
  ['app in (db),tier=front', false],
];
for (const [selector, expected] of cases) {
  test(`label selector "${selector}" -> ${expected}`, () => {
    assert.equal(matchesLabels(parseLabelSelector(selector), labels), expected);
  });
}

test('a malformed label selector is 400 BadRequest', () => {
  assert.throws(() => parseLabelSelector('app=(web'), { code: 400, reason: 'BadRequest' });
});

test('structured selectors compile and format like the Scale status selector', () => {
  const selector = {
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['front', 'back'] },
      { key: 'legacy', operator: 'DoesNotExist' },
    ],
  };
  assert.equal(matchesLabels(compileLabelSelector(selector), labels), true);
  assert.equal(formatLabelSelector(selector), 'app=web,tier in (front,back),!legacy');
  assert.throws(() => compileLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Like' }] }), { code: 400 });
});

test('field selectors: supported fields per kind, = and !=, unsupported is 400', () => {
  const pod = { metadata: { name: 'p', namespace: 'n' }, spec: { nodeName: 'node-1' }, status: { phase: 'Running' } };
  assert.equal(matchesFields(parseFieldSelector('spec.nodeName=node-1,status.phase!=Pending', 'Pod'), pod), true);
  assert.equal(matchesFields(parseFieldSelector('spec.nodeName=', 'Pod'), pod), false);
  assert.throws(() => parseFieldSelector('spec.nodeName=x', 'ConfigMap'), { code: 400, message: 'field label not supported: spec.nodeName' });
});
