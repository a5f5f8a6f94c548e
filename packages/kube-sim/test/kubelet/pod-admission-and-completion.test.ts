import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admitAtStart } from '../../src/kubelet/pod-admission.ts';
import { finishIfDone, runForMs } from '../../src/kubelet/run-to-completion.ts';
import type { Pod } from '../../src/objects.ts';

test('admission at start: fits, OutOfcpu, OutOfmemory with the kubelet wording', () => {
  const allocatable = { cpu: 2000, memory: 4096 };
  assert.equal(admitAtStart({ cpu: 500, memory: 1024 }, allocatable, { cpu: 1500, memory: 1024 }), undefined);
  assert.deepEqual(admitAtStart({ cpu: 1000, memory: 1024 }, allocatable, { cpu: 1500, memory: 0 }), {
    reason: 'OutOfcpu',
    message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 1000, used: 1500, capacity: 2000",
  });
  assert.equal(admitAtStart({ cpu: 0, memory: 4000 }, allocatable, { cpu: 0, memory: 100 })?.reason, 'OutOfmemory');
});

const jobPod = (runFor?: string, restartPolicy = 'Never'): Pod => ({
  metadata: { name: 'j', ...(runFor ? { annotations: { 'tailor.dev/sim-run-for': runFor } } : {}) },
  spec: { restartPolicy, containers: [{ name: 'c' }] },
});

test('run to completion: default 30s, annotation durations, Always never finishes', () => {
  assert.equal(runForMs(jobPod()), 30_000);
  assert.equal(runForMs(jobPod('5m')), 300_000);
  assert.equal(runForMs(jobPod('bogus')), 30_000);
  const status = {
    phase: 'Running',
    containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: { running: { startedAt: 'T' } } }],
    conditions: [{ type: 'Ready', status: 'True' as const }],
  };
  assert.equal(finishIfDone(jobPod('1m'), status, 0, 59_000), status);
  const done = finishIfDone(jobPod('1m'), status, 0, 60_000);
  assert.equal(done.phase, 'Succeeded');
  assert.equal(done.containerStatuses?.[0]?.state?.terminated?.reason, 'Completed');
  assert.equal(done.conditions?.[0]?.status, 'False');
  assert.equal(finishIfDone(jobPod('1m', 'Always'), status, 0, 3_600_000), status);
});
