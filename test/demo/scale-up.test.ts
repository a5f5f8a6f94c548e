import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeToAdd } from '../../src/demo/scale-up.ts';
import type { NodeSpec } from 'kube-sim/scenario';
import { node, pod } from './demo-fixtures.ts';

const large: NodeSpec = { name: 'large-1', cpu: '8', memory: '32Gi', pods: 110, labels: {}, resizeSupport: true };
const unschedulable = pod({
  name: 'batch-b',
  app: 'batch',
  phase: 'Pending',
  conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
});

test('a node is added once, for a pod that fits no node', () => {
  const add = nodeToAdd([pod({ name: 'web-a', app: 'web' }), unschedulable], [node('small-1', '2')], large);
  assert.equal(add?.node.name, 'large-1');
  assert.equal(add?.for.metadata.name, 'batch-b');
  assert.equal(nodeToAdd([unschedulable], [node('small-1', '2'), node('large-1', '8')], large), undefined, 'already added');
  assert.equal(nodeToAdd([pod({ name: 'web-a', app: 'web' })], [node('small-1', '2')], large), undefined, 'every pod is scheduled');
  assert.equal(nodeToAdd([unschedulable], [node('small-1', '2')], undefined), undefined, 'no scale-up node in the scenario');
});
