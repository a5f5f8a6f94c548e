/**
 * Turns a validated scenario into the Kubernetes objects the sim creates at start: Node objects
 * (capacity = allocatable, Ready), namespaces, and one workload object per scenario workload whose
 * pod template carries the usage patterns in the `tailor.dev/sim-usage` annotation.
 */
import type { Container, NodeObject, PodTemplate } from './objects.ts';
import type { ContainerSpec, NodeSpec, Scenario, WorkloadSpec } from './scenario.ts';
import { USAGE_ANNOTATION } from './usage/usage-annotation.ts';

export const SIM_NODE_LABEL = 'tailor.dev/sim-node';

/** A Node object for a scenario node; its kubelet reports `version` (e.g. `1.33` -> `v1.33.0`). */
export function nodeObject(spec: NodeSpec, index: number, version = '1.35'): NodeObject {
  const resources = { cpu: spec.cpu, memory: spec.memory, pods: String(spec.pods), 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      labels: { 'kubernetes.io/hostname': spec.name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', [SIM_NODE_LABEL]: 'true', ...spec.labels },
      ...(spec.resizeSupport ? {} : { annotations: { 'tailor.dev/sim-resize-support': 'false' } }),
    },
    spec: {},
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      addresses: [
        { type: 'InternalIP', address: `10.0.0.${index + 10}` },
        { type: 'Hostname', address: spec.name },
      ],
      nodeInfo: { kubeletVersion: `v${version}.0`, operatingSystem: 'linux', architecture: 'amd64', containerRuntimeVersion: 'sim://1.0' },
    },
  };
}

function container(c: ContainerSpec): Container {
  const resources = { ...(c.requests ? { requests: c.requests } : {}), ...(c.limits ? { limits: c.limits } : {}) };
  const resizePolicy = Object.entries(c.resizePolicy ?? {}).map(([resourceName, restartPolicy]) => ({ resourceName, restartPolicy }));
  return { name: c.name, image: c.image, resources, ...(resizePolicy.length ? { resizePolicy } : {}) };
}

/** The pod template of a scenario workload. */
export function podTemplate(w: WorkloadSpec): PodTemplate {
  const usage = Object.fromEntries(w.containers.filter((c) => c.usage).map((c) => [c.name, c.usage]));
  const annotations = { ...w.annotations, ...(Object.keys(usage).length ? { [USAGE_ANNOTATION]: JSON.stringify(usage) } : {}) };
  return {
    metadata: { labels: w.labels, ...(Object.keys(annotations).length ? { annotations } : {}) },
    spec: { containers: w.containers.map(container), ...(w.kind === 'Job' ? { restartPolicy: 'Never' } : {}) },
  };
}

/** The object to create for a scenario workload. */
export function workloadObject(w: WorkloadSpec): Record<string, unknown> {
  const template = podTemplate(w);
  const metadata = { name: w.name, namespace: w.namespace, labels: w.labels };
  const selector = { matchLabels: w.labels };
  switch (w.kind) {
    case 'Pod':
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { ...metadata, ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}) },
        spec: template.spec,
      };
    case 'Job':
      return { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: { completions: w.replicas, parallelism: w.replicas, template } };
    case 'DaemonSet':
      return { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata, spec: { selector, template } };
    case 'StatefulSet':
      return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata, spec: { replicas: w.replicas, serviceName: w.name, selector, template } };
    default:
      return { apiVersion: 'apps/v1', kind: w.kind, metadata, spec: { replicas: w.replicas, selector, template } };
  }
}

/** Namespaces the scenario's workloads need, besides `default`. */
export function scenarioNamespaces(s: Scenario): string[] {
  return [...new Set(s.workloads.map((w) => w.namespace))].filter((n) => n !== 'default').sort();
}
