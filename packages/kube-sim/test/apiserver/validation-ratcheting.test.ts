import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratchetCauses } from '../../src/apiserver/validation-ratcheting.ts';

const cause = (field: string, message = 'Unsupported value') => ({ reason: 'FieldValueNotSupported', message, field });

test('an error whose field is unchanged since the old object is dropped; a changed one stays', () => {
  const old = { spec: { updatePolicy: { updateMode: 'Sometimes' } } };
  const statusOnly = { spec: { updatePolicy: { updateMode: 'Sometimes' } }, status: { conditions: [] } };
  assert.deepEqual(ratchetCauses([cause('spec.updatePolicy.updateMode')], statusOnly, old), []);
  const changed = { spec: { updatePolicy: { updateMode: 'Never' } } };
  assert.equal(ratchetCauses([cause('spec.updatePolicy.updateMode')], changed, old).length, 1);
  const wasValid = { spec: { updatePolicy: { updateMode: 'Off' } } };
  assert.equal(ratchetCauses([cause('spec.updatePolicy.updateMode')], old, wasValid).length, 1, 'a valid object cannot be made invalid');
});

test('a missing required field that was missing before is ratcheted; anyOf errors and list items are not', () => {
  assert.deepEqual(ratchetCauses([cause('spec.targetRef', 'Required value')], { spec: {} }, { spec: {} }), []);
  const anyOf = cause('spec.x', 'Invalid value: "lots": spec.x in body must validate at least one schema');
  assert.equal(ratchetCauses([anyOf], { spec: { x: 'lots' } }, { spec: { x: 'lots' } }).length, 1);
  const item = cause('spec.list[0].memory');
  assert.equal(ratchetCauses([item], { spec: { list: [{ memory: 'x' }] } }, { spec: { list: [{ memory: 'x' }] } }).length, 1);
});
