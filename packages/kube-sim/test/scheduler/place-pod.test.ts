import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placePod } from '../../src/scheduler/place-pod.ts';
import type { NodeObject, Pod } from '../../src/objects.ts';

const node = (name: string, cpu: string, memory: string, extra: Partial<NodeObject> = {}): NodeObject => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu, memory }, conditions: [{ type: 'Ready', status: 'True' }] },
  ...extra,
});
const pod = (name: string, cpu: string, memory: string, nodeName?: string): Pod => ({
  metadata: { name, namespace: 'default', uid: name },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'app', resources: { requests: { cpu, memory } } }] },
  status: { phase: nodeName ? 'Running' : 'Pending' },
});

const cases: Array<{ name: string; nodes: NodeObject[]; bound: Pod[]; pod: Pod; expect: string | RegExp }> = [
  { name: 'fits on the only node', nodes: [node('a', '2', '4Gi')], bound: [], pod: pod('p', '500m', '1Gi'), expect: 'a' },
  {
    name: 'prefers the node with the most room left',
    nodes: [node('a', '2', '4Gi'), node('b', '2', '4Gi')],
    bound: [pod('x', '1500m', '1Gi', 'a')],
    pod: pod('p', '500m', '1Gi'),
    expect: 'b',
  },
  {
    name: 'skips a node whose bound pods leave too little cpu',
    nodes: [node('a', '2', '4Gi'), node('b', '1', '8Gi')],
    bound: [pod('x', '1800m', '1Gi', 'a')],
    pod: pod('p', '500m', '1Gi'),
    expect: 'b',
  },
  {
    name: 'finished pods hold nothing',
    nodes: [node('a', '1', '1Gi')],
    bound: [{ ...pod('x', '1', '1Gi', 'a'), status: { phase: 'Succeeded' } }],
    pod: pod('p', '1', '1Gi'),
    expect: 'a',
  },
  {
    name: 'nothing fits: the scheduler message counts reasons per node',
    nodes: [node('a', '1', '4Gi'), node('b', '1', '4Gi'), node('c', '4', '1Gi'), node('d', '8', '8Gi', { spec: { unschedulable: true } })],
    bound: [],
    pod: pod('p', '2', '2Gi'),
    expect:
      '0/4 nodes are available: 2 Insufficient cpu, 1 Insufficient memory, 1 node(s) were unschedulable. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.',
  },
  {
    name: 'a node full of pods takes no more',
    nodes: [{ ...node('a', '8', '8Gi'), status: { allocatable: { cpu: '8', memory: '8Gi', pods: '1' } } }],
    bound: [pod('x', '100m', '64Mi', 'a')],
    pod: pod('p', '100m', '64Mi'),
    expect: '0/1 nodes are available: 1 Too many pods. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
  },
];

for (const c of cases) {
  test(`scheduler: ${c.name}`, () => {
    const placement = placePod(c.pod, c.nodes, c.bound);
    if (typeof c.expect === 'string' && c.expect.startsWith('0/')) assert.equal(placement.node === undefined ? placement.message : placement.node, c.expect);
    else assert.equal(placement.node, c.expect);
  });
}
