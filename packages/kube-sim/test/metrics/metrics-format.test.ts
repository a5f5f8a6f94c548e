import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { renderText } from '../../src/metrics/prometheus-text.ts';
import { cadvisorFamilies } from '../../src/metrics/cadvisor-metrics.ts';
import { kubeStateFamilies } from '../../src/metrics/kube-state-metrics.ts';
import { advanceMeter, newMeter } from '../../src/usage/container-meter.ts';
import type { Pod } from '../../src/objects.ts';

const pod: Pod = {
  metadata: {
    name: 'web-abc',
    namespace: 'prod',
    uid: 'uid-1',
    labels: { app: 'web', 'app.kubernetes.io/name': 'web' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d4f', uid: 'rs1', controller: true }],
  },
  spec: {
    nodeName: 'node-a',
    containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } } }],
  },
  status: {
    phase: 'Running',
    hostIP: '10.0.0.1',
    podIP: '10.244.0.5',
    containerStatuses: [
      {
        name: 'app',
        image: 'nginx:1.27',
        containerID: 'sim://uid-1-app-1',
        ready: true,
        restartCount: 1,
        state: { running: {} },
        lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: '2026-01-01T00:10:00Z' } },
        resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
      },
    ],
  },
};

const meter = advanceMeter(newMeter(), { dtMs: 60_000, cpuDemand: 900, memoryDemand: 300 * 2 ** 20, cpuLimit: 500, memoryLimit: 512 * 2 ** 20 }).meter;

test('cadvisor text: usage counter, working set, throttling with cAdvisor labels', () => {
  const text = renderText(cadvisorFamilies([pod], (uid, c) => (uid === 'uid-1' && c === 'app' ? meter : undefined)));
  const labels = 'container="app",id="/kubepods/burstable/poduid-1/uid-1-app",image="nginx:1.27",name="uid-1-app",namespace="prod",pod="web-abc"';
  assert.ok(text.includes(`container_cpu_usage_seconds_total{${labels}} 30\n`), text);
  assert.ok(text.includes(`container_memory_working_set_bytes{${labels}} ${300 * 2 ** 20}\n`));
  assert.ok(text.includes(`container_cpu_cfs_throttled_periods_total{${labels}} 600\n`));
  assert.ok(text.includes(`container_oom_events_total{${labels}} 0\n`));
  assert.ok(text.includes('# TYPE container_cpu_usage_seconds_total counter\n'));
});

test('kube-state text: requests and limits in cores and bytes, owners, last terminated reason, restarts', () => {
  const rs = {
    metadata: {
      name: 'web-5d4f',
      namespace: 'prod',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd1', controller: true }],
    },
    spec: { template: { spec: { containers: [] } } },
  };
  const text = renderText(kubeStateFamilies([pod], [rs]));
  const base = 'namespace="prod",pod="web-abc",uid="uid-1"';
  assert.ok(text.includes(`kube_pod_container_resource_requests{${base},container="app",node="node-a",resource="cpu",unit="core"} 0.25\n`), text);
  assert.ok(text.includes(`kube_pod_container_resource_limits{${base},container="app",node="node-a",resource="memory",unit="byte"} ${512 * 2 ** 20}\n`));
  assert.ok(text.includes(`kube_pod_container_status_last_terminated_reason{${base},container="app",reason="OOMKilled"} 1\n`));
  assert.ok(text.includes(`kube_pod_container_status_restarts_total{${base},container="app"} 1\n`));
  assert.ok(text.includes(`kube_pod_container_status_last_terminated_timestamp{${base},container="app"} ${Date.UTC(2026, 0, 1, 0, 10) / 1000}\n`));
  assert.ok(text.includes(`kube_pod_owner{${base},owner_kind="ReplicaSet",owner_name="web-5d4f",owner_is_controller="true"} 1\n`));
  assert.ok(
    text.includes('kube_replicaset_owner{namespace="prod",replicaset="web-5d4f",owner_kind="Deployment",owner_name="web",owner_is_controller="true"} 1\n'),
  );
  assert.ok(text.includes(`kube_pod_labels{${base},label_app="web",label_app_kubernetes_io_name="web"} 1\n`));
});

test('label values are escaped', () => {
  const text = renderText([{ name: 'x', help: 'h', type: 'gauge', samples: [{ labels: { a: 'q"b\\c\nd' }, value: 1 }] }]);
  assert.equal(text, '# HELP x h\n# TYPE x gauge\nx{a="q\\"b\\\\c\\nd"} 1\n');
});

test('promtool accepts both endpoints as valid exposition text', () => {
  const rs = { metadata: { name: 'web-5d4f', namespace: 'prod' }, spec: { template: { spec: { containers: [] } } } };
  for (const text of [renderText(cadvisorFamilies([pod], () => meter)), renderText(kubeStateFamilies([pod], [rs]))]) {
    const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    assert.equal(result.error, undefined, 'promtool must be installed');
    assert.equal(result.status, 0, result.stdout + result.stderr);
  }
});
