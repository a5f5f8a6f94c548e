/**
 * `/metrics/kube-state`: the kube-state-metrics series Tailor and dashboards use, with KSM's
 * labels. CPU in cores (`unit="core"`), memory in bytes (`unit="byte"`), from the pod specs.
 * `kube_pod_labels` carries every pod label (as KSM does with `--metric-labels-allowlist=pods=[*]`).
 */
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import type { Pod } from '../objects.ts';
import type { Workload } from '../controllers/workload-types.ts';
import type { MetricFamily } from './prometheus-text.ts';

function labelName(key: string): string {
  return `label_${key.replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

export function kubeStateFamilies(pods: readonly Pod[], replicaSets: readonly Workload[]): MetricFamily[] {
  const fam = (name: string, help: string, type: 'counter' | 'gauge' = 'gauge'): MetricFamily => ({ name, help, type, samples: [] });
  const info = fam('kube_pod_info', 'Information about pod.');
  const podLabels = fam('kube_pod_labels', 'Kubernetes labels converted to Prometheus labels.');
  const owner = fam('kube_pod_owner', "Information about the Pod's owner.");
  const phase = fam('kube_pod_status_phase', 'The pods current phase.');
  const requests = fam('kube_pod_container_resource_requests', 'The number of requested request resource by a container.');
  const limits = fam('kube_pod_container_resource_limits', 'The number of requested limit resource by a container.');
  const restarts = fam('kube_pod_container_status_restarts_total', 'The number of container restarts per container.', 'counter');
  const lastReason = fam('kube_pod_container_status_last_terminated_reason', 'Describes the last reason the container was in terminated state.');
  const lastTime = fam('kube_pod_container_status_last_terminated_timestamp', 'Last terminated time for a pod container in unix timestamp.');
  const running = fam('kube_pod_container_status_running', 'Describes whether the container is currently in running state.');
  const containerInfo = fam('kube_pod_container_info', 'Information about a container in a pod.');
  const rsOwner = fam('kube_replicaset_owner', "Information about the ReplicaSet's owner.");

  for (const pod of pods) {
    const base = { namespace: pod.metadata.namespace ?? '', pod: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
    const controller = pod.metadata.ownerReferences?.find((r) => r.controller);
    info.samples.push({
      labels: {
        ...base,
        host_ip: pod.status?.hostIP ?? '',
        pod_ip: pod.status?.podIP ?? '',
        node: pod.spec.nodeName ?? '',
        created_by_kind: controller?.kind ?? '<none>',
        created_by_name: controller?.name ?? '<none>',
        priority_class: '',
        host_network: 'false',
      },
      value: 1,
    });
    podLabels.samples.push({
      labels: { ...base, ...Object.fromEntries(Object.entries(pod.metadata.labels ?? {}).map(([k, v]) => [labelName(k), v])) },
      value: 1,
    });
    const owners = pod.metadata.ownerReferences ?? [];
    if (owners.length === 0) owner.samples.push({ labels: { ...base, owner_kind: '<none>', owner_name: '<none>', owner_is_controller: '<none>' }, value: 1 });
    for (const r of owners)
      owner.samples.push({ labels: { ...base, owner_kind: r.kind, owner_name: r.name, owner_is_controller: String(Boolean(r.controller)) }, value: 1 });
    for (const p of ['Pending', 'Succeeded', 'Failed', 'Unknown', 'Running'])
      phase.samples.push({ labels: { ...base, phase: p }, value: (pod.status?.phase ?? 'Pending') === p ? 1 : 0 });
    for (const c of pod.spec.containers) {
      const node = pod.spec.nodeName ?? '';
      for (const [family, list] of [
        [requests, c.resources?.requests],
        [limits, c.resources?.limits],
      ] as const) {
        if (list?.cpu !== undefined)
          family.samples.push({ labels: { ...base, container: c.name, node, resource: 'cpu', unit: 'core' }, value: parseCpu(list.cpu) / 1000 });
        if (list?.memory !== undefined)
          family.samples.push({ labels: { ...base, container: c.name, node, resource: 'memory', unit: 'byte' }, value: parseMemory(list.memory) });
      }
    }
    for (const s of pod.status?.containerStatuses ?? []) {
      const labels = { ...base, container: s.name };
      restarts.samples.push({ labels, value: s.restartCount });
      running.samples.push({ labels, value: s.state?.running ? 1 : 0 });
      containerInfo.samples.push({
        labels: { ...labels, image_spec: s.image ?? '', image: s.image ?? '', image_id: s.imageID ?? '', container_id: s.containerID ?? '' },
        value: 1,
      });
      const reason = s.lastState?.terminated?.reason;
      if (reason) lastReason.samples.push({ labels: { ...labels, reason }, value: 1 });
      const finishedAt = s.lastState?.terminated?.finishedAt;
      if (finishedAt) lastTime.samples.push({ labels, value: Math.floor(Date.parse(finishedAt) / 1000) });
    }
  }
  for (const rs of replicaSets) {
    const base = { namespace: rs.metadata.namespace ?? '', replicaset: rs.metadata.name ?? '' };
    const owners = rs.metadata.ownerReferences ?? [];
    if (owners.length === 0) rsOwner.samples.push({ labels: { ...base, owner_kind: '<none>', owner_name: '<none>', owner_is_controller: '<none>' }, value: 1 });
    for (const r of owners)
      rsOwner.samples.push({ labels: { ...base, owner_kind: r.kind, owner_name: r.name, owner_is_controller: String(Boolean(r.controller)) }, value: 1 });
  }
  return [info, podLabels, owner, phase, requests, limits, restarts, lastReason, lastTime, running, containerInfo, rsOwner];
}
