import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handlesRecommenders, namespaceSelected, watchNamespaces, type VpaSelection } from '../../src/controller/vpa-selection.ts';

const base: VpaSelection = { alsoUnnamedVpas: false, namespace: [], ignoreNamespace: [] };

test('without --recommender-name Tailor is the default recommender', () => {
  assert.equal(handlesRecommenders(undefined, base), true);
  assert.equal(handlesRecommenders([], base), true);
  assert.equal(handlesRecommenders([{ name: 'default' }], base), true);
  assert.equal(handlesRecommenders([{ name: 'tailor' }], base), false);
});

test('with --recommender-name only the VPAs that name it, and unnamed ones only when asked', () => {
  const named = { ...base, recommenderName: 'tailor' };
  assert.equal(handlesRecommenders([{ name: 'tailor' }], named), true);
  assert.equal(handlesRecommenders([{ name: 'other' }, { name: 'tailor' }], named), true);
  assert.equal(handlesRecommenders([{ name: 'default' }], named), false);
  assert.equal(handlesRecommenders(undefined, named), false);
  assert.equal(handlesRecommenders(undefined, { ...named, alsoUnnamedVpas: true }), true);
  assert.equal(handlesRecommenders([{ name: 'other' }], { ...named, alsoUnnamedVpas: true }), false);
});

test('namespaces: all by default, a selected list, or all but an ignored list', () => {
  assert.equal(namespaceSelected('shop', base), true);
  assert.equal(watchNamespaces(base), undefined);
  const only = { ...base, namespace: ['shop', 'blog'] };
  assert.equal(namespaceSelected('blog', only), true);
  assert.equal(namespaceSelected('kube-system', only), false);
  assert.deepEqual(watchNamespaces(only), ['shop', 'blog']);
  const ignoring = { ...base, ignoreNamespace: ['kube-system'] };
  assert.equal(namespaceSelected('kube-system', ignoring), false);
  assert.equal(namespaceSelected('shop', ignoring), true);
});
