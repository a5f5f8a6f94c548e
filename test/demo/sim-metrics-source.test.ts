import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveUsageRecorder } from '../../src/demo/live-usage-recorder.ts';
import { SimMetricsSource } from '../../src/demo/sim-metrics-source.ts';
import type { ContainerHistory } from '../../src/demo/usage-history.ts';
import { pod } from './demo-fixtures.ts';

const MiB = 2 ** 20;
const key = { namespace: 'default', pod: 'web-a', container: 'app' };
const reading = (cpu: number, ws: number, oom = 0) => [{ key, cpuSecondsTotal: cpu, workingSetBytes: ws, oomEventsTotal: oom }];

test('the live recorder reads back a rate, a peak and OOM kills per window; old readings are dropped', () => {
  const r = new LiveUsageRecorder(3_600_000);
  r.record(0, reading(4, 100 * MiB));
  r.record(10_000, reading(6.5, 150 * MiB));
  r.record(20_000, reading(9, 120 * MiB, 1));
  // (0, 20 s]: 6.5 -> 9 CPU-seconds in 10 s = 0.25 cores; [0, 20 s]: 4 -> 9 in 20 s = 0.25 too.
  assert.equal(r.cpuCores(key, 0, 20_000), 0.25);
  assert.equal(r.cpuCores(key, -1, 20_000), 0.25);
  assert.equal(r.cpuCores(key, 10_000, 20_000), undefined, 'one reading is no rate');
  assert.equal(r.memoryPeak(key, 0, 20_000), 150 * MiB);
  assert.equal(r.oomKills(key, 10_000, 20_000), 1);
  assert.equal(r.oomKills(key, 0, 10_000), 0);
  assert.deepEqual(r.keys(0, 20_000), [key]);
  r.record(3_700_000, reading(10, 1));
  assert.equal(r.memoryPeak(key, -1, 20_000), undefined, 'readings older than an hour are gone');
});

test('the simulator source: history steps from the patterns, later steps from the live meters', async () => {
  const history: ContainerHistory = {
    key,
    cpu: { kind: 'steady', value: 500, noise: 0 },
    memory: { kind: 'steady', value: 256 * MiB, noise: 0 },
    start: 0,
    end: 120_000,
    seed: 1,
  };
  const recorder = new LiveUsageRecorder();
  recorder.record(130_000, reading(0, 200 * MiB));
  recorder.record(170_000, reading(10, 300 * MiB, 0));
  recorder.record(175_000, reading(11, 280 * MiB, 1));
  const source = new SimMetricsSource({
    histories: [history],
    recorder,
    intervalMs: 30_000,
    pods: () =>
      [pod({ name: 'web-a', app: 'web', cpu: '600m', memory: '256Mi' })].map((p) => ({
        ...p,
        metadata: { ...p.metadata, ownerReferences: [{ kind: 'ReplicaSet', name: 'web-5d' }] },
      })) as never,
    replicaSets: () => [{ metadata: { name: 'web-5d', namespace: 'default', ownerReferences: [{ kind: 'Deployment', name: 'web' }] } }],
  });
  const range = { start: 60_000, end: 180_000, step: 60_000 };
  const cpu = await source.cpuUsage(['default'], range);
  // 60 s and 120 s: the mean of the 30 s history samples (0.5); 180 s: 0 -> 11 CPU-seconds in 45 s.
  assert.deepEqual(cpu.data, [{ key, times: [60_000, 120_000, 180_000], values: [0.5, 0.5, 11 / 45] }]);
  const memory = await source.memoryPeaks(['default'], range);
  assert.deepEqual(memory.data[0]!.values, [256 * MiB, 256 * MiB, 300 * MiB]);
  assert.deepEqual((await source.oomKills(['default'], range)).data, [{ key, at: 180_000, count: 1 }]);
  assert.deepEqual((await source.cpuUsage(['other'], range)).data, [], 'namespaces filter');
  assert.deepEqual([...(await source.namespaceSizes(180_000, 60_000))], [['default', 1]]);
  assert.deepEqual(await source.owners(['default']), [
    { namespace: 'default', kind: 'Pod', name: 'web-a', ownerKind: 'ReplicaSet', ownerName: 'web-5d' },
    { namespace: 'default', kind: 'ReplicaSet', name: 'web-5d', ownerKind: 'Deployment', ownerName: 'web' },
  ]);
  assert.deepEqual(await source.resources(['default']), [{ key, requests: { cpu: 0.6, memory: 256 * MiB }, limits: {} }]);
});
