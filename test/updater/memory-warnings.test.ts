import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryWarnings } from '../../src/updater/memory-warnings.ts';
import { MemoryWarningTracker } from '../../src/updater/memory-warning-tracker.ts';
import { containerWarningMessage, workloadWarningMessage } from '../../src/updater/memory-warning-report.ts';
import type { WorkloadGroup } from '../../src/updater/updater-plan.ts';
import { container, pod } from '../builders/pods.ts';
import { vpa } from '../builders/vpas.ts';

const MiB = 1024 * 1024;
const limited = (name: string, limit = '1Gi') =>
  pod({
    name,
    namespace: 'shop',
    containers: [container('app', { requests: { memory: '512Mi' }, limits: { memory: limit } }), container('sidecar', { requests: { memory: '64Mi' } })],
  });

function group(pods: ReturnType<typeof pod>[], sustainedMiB: Record<string, number>): WorkloadGroup {
  return {
    workload: 'Deployment/shop/web',
    vpa: vpa(),
    pods,
    usage: Object.fromEntries(
      Object.entries(sustainedMiB).map(([p, mib]) => [
        p,
        { app: { memoryWorkingSetMinBytes: mib * MiB, memoryWindowMs: 120_000 }, sidecar: { memoryWorkingSetMinBytes: 60 * MiB, memoryWindowMs: 120_000 } },
      ]),
    ),
  };
}

test('levels: above 75% of the limit warns, above 85% is critical, at 75% exactly or without a limit nothing', () => {
  const pods = ['a', 'b', 'c', 'd'].map((n) => limited(n));
  const w = memoryWarnings([group(pods, { a: 768, b: 769, c: 871, d: 500 })]);
  assert.deepEqual(
    w.containers.map((c) => `${c.pod}/${c.container} ${c.level} ${c.ratio.toFixed(3)}`),
    ['b/app warning 0.751', 'c/app critical 0.851'],
  );
  // the sidecar has no memory limit: never a warning; two pods at a warning level: the workload is flagged.
  assert.deepEqual(w.workloads, [{ namespace: 'shop', workload: 'Deployment/shop/web', vpa: 'web', pods: ['b', 'c'] }]);
});

test('one pod under pressure does not flag its workload; a pod not running or without usage is left out', () => {
  const stopped = { ...limited('b'), status: { ...limited('b').status, phase: 'Succeeded' } };
  const w = memoryWarnings([group([limited('a'), stopped, limited('c')], { a: 900, b: 900 })]);
  assert.deepEqual(
    w.containers.map((c) => c.pod),
    ['a'],
  );
  assert.deepEqual(w.workloads, []);
  assert.deepEqual(memoryWarnings([{ workload: 'Deployment/shop/web', vpa: vpa(), pods: [limited('a')] }]), { containers: [], workloads: [] });
});

test('the tracker tells a rise once, keeps quiet while it lasts, tells again after it ended', () => {
  const t = new MemoryWarningTracker();
  const pods = [limited('a'), limited('b')];
  const at = (a: number, b: number) => memoryWarnings([group(pods, { a, b })]);
  const told = (x: ReturnType<MemoryWarningTracker['update']>) => [
    ...x.containers.map((c) => `${c.pod} ${c.level}`),
    ...x.workloads.map((w) => `workload ${w.pods.join('+')}`),
  ];
  assert.deepEqual(told(t.update(at(800, 500))), ['a warning']);
  assert.deepEqual(told(t.update(at(800, 500))), []);
  assert.deepEqual(told(t.update(at(900, 800))), ['a critical', 'b warning', 'workload a+b']);
  // down from critical to warning: nothing new; back to critical: still nothing (the higher mark is kept)
  assert.deepEqual(told(t.update(at(800, 800))), []);
  assert.deepEqual(told(t.update(at(900, 800))), []);
  assert.deepEqual(told(t.update(at(500, 500))), []);
  assert.deepEqual(told(t.update(at(800, 500))), ['a warning']);
});

test('messages say the working set, the share, the limit, the window and the pods', () => {
  const [w] = memoryWarnings([group([limited('a')], { a: 900 })]).containers;
  assert.equal(
    containerWarningMessage(w!, 120_000),
    'container app: working set 900.0Mi stayed above 85% of its memory limit 1Gi for 2 min (88%): close to an OOM kill',
  );
  assert.equal(
    workloadWarningMessage({ namespace: 'shop', workload: 'Deployment/shop/web', vpa: 'web', pods: ['a', 'b'] }),
    "2 pods of Deployment/shop/web above 75% of their memory limit at once (a, b): the workload's memory is too small, not one pod",
  );
});
