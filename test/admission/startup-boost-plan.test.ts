import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1LimitRange, V1Pod } from '@kubernetes/client-node';
import { withStartupBoost } from '../../src/admission/startup-boost-plan.ts';
import { planPodResources } from '../../src/policy/pod-resources.ts';

function pod(resizePolicy?: 'RestartContainer'): V1Pod {
  return {
    metadata: { name: 'web-1' },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'x',
          resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          ...(resizePolicy ? { resizePolicy: [{ resourceName: 'cpu', restartPolicy: resizePolicy }] } : {}),
        },
      ],
    },
  };
}
const boost = () => ({ amount: { kind: 'factor' as const, factor: 3 }, until: { kind: 'ready' as const, afterMs: 0 }, requestsOnly: false });
const plan = (p: V1Pod) => planPodResources({ pod: p, recommendations: [{ containerName: 'app', target: { cpu: 500, memory: 256 * 1024 * 1024 } }] });

test('a Guaranteed container is boosted with its limit; the steady values are recorded', () => {
  const out = withStartupBoost(pod(), plan(pod()), boost, []);
  assert.equal(out.plan.changed, true);
  assert.deepEqual(out.plan.containers[0]!.proposed.requests.cpu, 1500);
  assert.deepEqual(out.plan.containers[0]!.proposed.limits.cpu, 1500);
  assert.deepEqual(out.record, { until: { kind: 'ready', afterMs: 0 }, containers: { app: { request: 500, limit: 500 } } });
});

test('cpu resizePolicy RestartContainer: not boosted (giving it back would restart it)', () => {
  const out = withStartupBoost(pod('RestartContainer'), plan(pod('RestartContainer')), boost, []);
  assert.equal(out.record, undefined);
  assert.equal(out.plan.changed, false);
  assert.match(out.notes.join(), /RestartContainer, not boosted/);
});

test('a LimitRange maximum caps the boost (the API server would refuse the pod)', () => {
  const lr: V1LimitRange = { spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } };
  const out = withStartupBoost(pod(), plan(pod()), boost, [lr]);
  assert.equal(out.plan.containers[0]!.proposed.requests.cpu, 1000);
  assert.equal(out.plan.containers[0]!.proposed.limits.cpu, 1000);
  assert.match(out.notes.join(), /capped at the LimitRange maximum/);
});

test('each container its own boost: the record keeps each end that differs from the first', () => {
  const p: V1Pod = {
    metadata: { name: 'web-1' },
    spec: { containers: ['app', 'log', 'side'].map((name) => ({ name, image: 'x', resources: { requests: { cpu: '100m' } } })) },
  };
  const steady = planPodResources({ pod: p, recommendations: [] });
  const ends = { app: 65, log: 185 } as Record<string, number>;
  const out = withStartupBoost(
    p,
    steady,
    (name) =>
      name in ends ? { amount: { kind: 'factor', factor: 2 }, until: { kind: 'ready', afterMs: ends[name]! * 1000 }, requestsOnly: false } : undefined,
    [],
  );
  assert.deepEqual(
    out.plan.containers.map((c) => c.proposed.requests.cpu),
    [200, 200, 100],
  );
  assert.deepEqual(out.record, {
    until: { kind: 'ready', afterMs: 65_000 },
    containers: { app: { request: 100 }, log: { request: 100, until: { kind: 'ready', afterMs: 185_000 } } },
  });
  assert.match(out.notes[0]!, /until ready\+65s \/ ready\+185s/);
});

test('controlledValues RequestsOnly: the limit stays and caps the boosted request', () => {
  const p: V1Pod = {
    metadata: { name: 'web-1' },
    spec: { containers: [{ name: 'app', image: 'x', resources: { requests: { cpu: '100m' }, limits: { cpu: '250m' } } }] },
  };
  const steady = planPodResources({ pod: p, recommendations: [] });
  const out = withStartupBoost(p, steady, () => ({ amount: { kind: 'factor', factor: 3 }, until: { kind: 'ready', afterMs: 0 }, requestsOnly: true }), []);
  assert.deepEqual(out.plan.containers[0]!.proposed.requests.cpu, 250);
  assert.deepEqual(out.plan.containers[0]!.proposed.limits.cpu, 250);
  const scaled = withStartupBoost(p, steady, () => ({ amount: { kind: 'factor', factor: 3 }, until: { kind: 'ready', afterMs: 0 }, requestsOnly: false }), []);
  assert.deepEqual(scaled.plan.containers[0]!.proposed.limits.cpu, 750, 'RequestsAndLimits: the limit scales with the request');
});
