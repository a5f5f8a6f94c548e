import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, appPod } from './cluster-fixture.ts';

function sample(text: string, metric: string, pod: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${metric}{`) && l.includes(`pod="${pod}"`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

test('a leaking container is OOM-killed at its limit: restart, OOMKilled, counters in both exporters', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  // 200Mi + 100Mi/min crosses the 512Mi limit after a bit more than 3 minutes.
  await f.core.createNamespacedPod({
    namespace: 'default',
    body: appPod(
      'leaky',
      { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '200m', memory: '512Mi' } },
      { annotations: { 'tailor.dev/sim-usage': '{"app": {"cpu": "steady(150m)", "memory": "leak(200Mi, 100Mi/m)"}}' } },
    ),
  });
  await f.tick(1000);
  for (let i = 0; i < 3; i++) await f.tick(60_000);
  let pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'leaky' });
  assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 0, 'below the limit after 3 minutes');
  await f.tick(30_000);
  pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'leaky' });
  const cs = pod.status?.containerStatuses?.[0];
  assert.equal(cs?.restartCount, 1);
  assert.equal(cs?.lastState?.terminated?.reason, 'OOMKilled');
  assert.equal(cs?.lastState?.terminated?.exitCode, 137);
  assert.ok(cs?.state?.running, 'running again');

  const cadvisor = await f.scrape('/metrics/cadvisor');
  assert.equal(sample(cadvisor, 'container_oom_events_total', 'leaky'), 1);
  // 150m for 1 s + 210 s = 31.65 cpu-seconds.
  const cpuSeconds = sample(cadvisor, 'container_cpu_usage_seconds_total', 'leaky')!;
  assert.ok(Math.abs(cpuSeconds - 31.65) < 1e-6, String(cpuSeconds));
  const ksm = await f.scrape('/metrics/kube-state');
  assert.ok(ksm.includes('kube_pod_container_status_last_terminated_reason{namespace="default",pod="leaky",'), ksm.slice(0, 300));
  assert.match(ksm, /kube_pod_container_status_last_terminated_reason\{[^}]*pod="leaky"[^}]*reason="OOMKilled"\} 1/);
  assert.match(ksm, /kube_pod_container_status_restarts_total\{[^}]*pod="leaky"[^}]*\} 1/);
  // After the restart the leak starts over from 200Mi: no second kill a minute later.
  await f.tick(60_000);
  pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'leaky' });
  assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 1);
});

test('cpu above the limit is throttled: usage capped, throttled periods counted, counter increases', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  await f.core.createNamespacedPod({
    namespace: 'default',
    body: appPod(
      'busy',
      { requests: { cpu: '250m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
      { annotations: { 'tailor.dev/sim-usage': '{"app": {"cpu": "steady(900m)", "memory": "steady(100Mi)"}}' } },
    ),
  });
  await f.tick(1000);
  await f.tick(60_000);
  const first = await f.scrape('/metrics/cadvisor');
  await f.tick(60_000);
  const second = await f.scrape('/metrics/cadvisor');
  const a = sample(first, 'container_cpu_usage_seconds_total', 'busy')!;
  const b = sample(second, 'container_cpu_usage_seconds_total', 'busy')!;
  assert.ok(Math.abs(b - a - 30) < 1e-6, `capped at 0.5 cores for 60 s: ${b - a}`);
  // 1 s + 120 s above the limit, 10 periods of 100 ms per second.
  assert.equal(sample(second, 'container_cpu_cfs_throttled_periods_total', 'busy'), 1210);
  assert.equal(sample(second, 'container_memory_working_set_bytes', 'busy'), 100 * 2 ** 20);
  const ksm = await f.scrape('/metrics/kube-state');
  assert.match(
    ksm,
    /kube_pod_container_resource_limits\{namespace="default",pod="busy",uid="[^"]+",container="app",node="sim-node-[123]",resource="cpu",unit="core"\} 0\.5/,
  );
});

test('scheduler: a pod that fits nowhere stays Pending with PodScheduled=False, and is bound once room frees', async (t) => {
  const f = await startCluster('1.35', [{ cpu: '2', memory: '4Gi' }]);
  t.after(() => f.close());
  await f.core.createNamespacedPod({ namespace: 'default', body: appPod('big', { requests: { cpu: '1500m', memory: '1Gi' } }) });
  await f.tick(1000);
  await f.core.createNamespacedPod({ namespace: 'default', body: appPod('late', { requests: { cpu: '1', memory: '1Gi' } }) });
  await f.tick(1000);
  let late = await f.core.readNamespacedPod({ namespace: 'default', name: 'late' });
  assert.equal(late.status?.phase, 'Pending');
  assert.equal(late.spec?.nodeName, undefined);
  const scheduled = late.status?.conditions?.find((c) => c.type === 'PodScheduled');
  assert.equal(scheduled?.status, 'False');
  assert.equal(scheduled?.reason, 'Unschedulable');
  assert.equal(
    scheduled?.message,
    '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
  );
  const events = await f.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=late' });
  assert.equal(events.items.find((e) => e.reason === 'FailedScheduling')?.type, 'Warning');
  await f.core.deleteNamespacedPod({ namespace: 'default', name: 'big' });
  await f.tick(1000);
  late = await f.core.readNamespacedPod({ namespace: 'default', name: 'late' });
  assert.equal(late.spec?.nodeName, 'node-1');
  assert.equal(late.status?.phase, 'Running');
});

test('an invalid usage annotation is reported as a Warning event and the defaults are used', async (t) => {
  const f = await startCluster('1.35');
  t.after(() => f.close());
  await f.core.createNamespacedPod({
    namespace: 'default',
    body: appPod('typo', { requests: { cpu: '100m', memory: '64Mi' } }, { annotations: { 'tailor.dev/sim-usage': '{"app": {"cpu": "diurnal(1)"}}' } }),
  });
  await f.tick(1000);
  const events = await f.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=typo' });
  const warning = events.items.find((e) => e.reason === 'InvalidUsagePattern');
  assert.equal(warning?.type, 'Warning');
  assert.match(warning?.message ?? '', /app\.cpu: diurnal needs 2 values \(low, high\), got 1/);
  const pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'typo' });
  assert.equal(pod.status?.phase, 'Running');
});

test('kubelet admission: a pod bound straight to a full node is rejected OutOfcpu', async (t) => {
  const f = await startCluster('1.35', [{ cpu: '2', memory: '4Gi' }]);
  t.after(() => f.close());
  await f.core.createNamespacedPod({ namespace: 'default', body: appPod('first', { requests: { cpu: '1500m', memory: '1Gi' } }) });
  await f.tick(1000);
  const direct = appPod('direct', { requests: { cpu: '1', memory: '1Gi' } });
  direct.spec!.nodeName = 'node-1';
  await f.core.createNamespacedPod({ namespace: 'default', body: direct });
  await f.tick(1000);
  const pod = await f.core.readNamespacedPod({ namespace: 'default', name: 'direct' });
  assert.equal(pod.status?.phase, 'Failed');
  assert.equal(pod.status?.reason, 'OutOfcpu');
  assert.equal(pod.status?.message, "Pod was rejected: Node didn't have enough resource: cpu, requested: 1000, used: 1500, capacity: 2000");
});
