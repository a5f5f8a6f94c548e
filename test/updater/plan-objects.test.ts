// The updater loop's sequence from objects to decisions, shared by `tailor run` and `tailor plan`:
// the same decisions as its steps taken by hand, invalid VPAs reported, usage read once and attached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MemoryUsageSource } from '../../src/metrics/memory-usage-source.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { plan } from '../../src/updater/updater-plan.ts';
import { planObjects, type LoopObjects } from '../../src/updater/plan-objects.ts';
import { serverCapabilities } from '../../src/updater/server-capabilities.ts';
import { groupWorkloads } from '../../src/updater/workload-groups.ts';
import { container, pod } from '../builders/pods.ts';
import { NOW, MiB } from '../builders/time.ts';
import { vpa } from '../builders/vpas.ts';

function deploymentPod(name: string, deployment: string, cpu: string) {
  const p = pod({ name, containers: [container('app', { requests: { cpu, memory: '256Mi' }, limits: { memory: '512Mi' } })] });
  p.metadata!.labels = { 'pod-template-hash': 'abc' };
  p.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${deployment}-abc`, uid: 'u', controller: true }];
  return p;
}

const web = vpa({
  recommend: { app: { target: { cpu: '400m', memory: '256Mi' }, lower: { cpu: '300m', memory: '200Mi' }, upper: { cpu: '800m', memory: '400Mi' } } },
});
const invalid = {
  ...vpa(),
  metadata: { name: 'api', namespace: 'shop' },
  spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }, updatePolicy: { updateMode: 'Sometimes' } },
};
const objects: LoopObjects = {
  pods: [deploymentPod('web-1', 'web', '100m'), deploymentPod('web-2', 'web', '150m'), deploymentPod('api-1', 'api', '100m')],
  vpas: [web, invalid],
  limitRanges: [],
  hpas: [],
  workloads: [{ kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 2 } }],
};
const context = { options: updaterOptions(), capabilities: serverCapabilities({ major: 1, minor: 35 }), now: NOW, budget: { resizes: 10, evictions: 10 } };

test('the decisions are those of its steps taken one by one; an invalid VPA is returned with its fields and its pods are not planned', async () => {
  const result = await planObjects({ objects, ...context });
  const { groups, unmatched } = groupWorkloads({ ...objects, vpas: [web] });
  assert.deepEqual(result.decisions, plan({ ...context, groups }));
  assert.deepEqual(
    result.decisions.map((d) => [d.podName, d.action]),
    [
      ['web-1', 'ResizeInPlace'],
      ['web-2', 'Wait'],
    ],
  );
  assert.deepEqual(result.unmatched, unmatched);
  assert.deepEqual(
    result.unmatched.map((p) => p.metadata?.name),
    ['api-1'],
  );
  assert.equal(result.invalidVpas.length, 1);
  assert.equal(result.invalidVpas[0]!.raw, invalid);
  assert.deepEqual(
    result.invalidVpas[0]!.errors.map((e) => e.path),
    ['spec.updatePolicy.updateMode'],
  );
  assert.deepEqual(result.usage, { available: false, usage: new Map() }, 'no source, no read');
});

test('a VPA this updater does not handle is left out without being called invalid', async () => {
  const result = await planObjects({ objects, ...context, handles: (v) => v.metadata.name !== 'web' });
  assert.deepEqual(result.decisions, []);
  assert.equal(result.invalidVpas.length, 1);
  assert.deepEqual(
    result.unmatched.map((p) => p.metadata?.name),
    ['web-1', 'web-2', 'api-1'],
  );
});

test('usage is read once for the planned namespaces at now and attached to the groups; a failed read plans without it', async () => {
  const asked: Array<{ namespaces: string[]; now: number }> = [];
  const source: MemoryUsageSource = {
    memoryUsage: async (namespaces, now) => (
      asked.push({ namespaces: [...namespaces], now }),
      [{ key: { namespace: 'shop', pod: 'web-1', container: 'app' }, peakBytes: 300 * MiB }]
    ),
  };
  const read = await planObjects({ objects, ...context, usage: source });
  assert.deepEqual(asked, [{ namespaces: ['shop'], now: NOW }]);
  assert.equal(read.usage.available, true);
  assert.deepEqual(read.groups[0]!.usage, { 'web-1': { app: { memoryPeakBytes: 300 * MiB } } });

  const error = new Error('connect ECONNREFUSED');
  const down = await planObjects({
    objects,
    ...context,
    usage: {
      memoryUsage: async () => {
        throw error;
      },
    },
  });
  assert.deepEqual(down.usage, { available: false, usage: new Map(), error });
  assert.equal(down.groups[0]!.usage, undefined);
  assert.deepEqual(down.decisions, (await planObjects({ objects, ...context })).decisions);
});
