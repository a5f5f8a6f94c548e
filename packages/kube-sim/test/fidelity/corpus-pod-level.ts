/**
 * The fidelity corpus's entries for pods with pod-level resources (`spec.resources`, KEP-2837) and
 * their in-place resize through `pods/resize` (KEP-5419: alpha and off in 1.35, beta and on from
 * 1.36). Two running fixtures: `pl` (pod-level requests cpu 200m / memory 64Mi, limits 400m /
 * 128Mi, one container without resources: Burstable) and `plc` (the same pod-level resources, its
 * container asking cpu 100m / memory 32Mi, limited to 200m / 64Mi). corpus.ts adds them to the
 * corpus; what a success shows is `podLevelView`: the spec the server stored and the status it
 * returned at once (the kubelet has not acted on the resize yet: the pod-level
 * `status.allocatedResources` and `status.resources` it reported before, 1.36+ only).
 */
import type * as k8s from '@kubernetes/client-node';
import type { CorpusEntry } from './corpus.ts';

/** The fixtures of these entries. */
export type PodLevelFixtureName = 'podLevel' | 'podLevelWithContainer';

const POD_LEVEL: k8s.V1ResourceRequirements = { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '400m', memory: '128Mi' } };

/** A running pod with pod-level resources; its one container `app` has `resources` or none. */
export function podLevelPod(name: string, image: string, containerResources?: k8s.V1ResourceRequirements): k8s.V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      terminationGracePeriodSeconds: 0,
      resources: structuredClone(POD_LEVEL),
      containers: [{ name: 'app', image, imagePullPolicy: 'Never', command: ['sleep', '3600'], ...(containerResources ? { resources: containerResources } : {}) }],
    },
  };
}

/** The container resources of `plc`. */
export const PLC_CONTAINER: k8s.V1ResourceRequirements = { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '200m', memory: '64Mi' } };

type AnyPod = {
  metadata?: { generation?: number };
  spec?: { resources?: unknown; containers?: { name: string; resources?: unknown }[] };
  status?: { qosClass?: string; observedGeneration?: number; allocatedResources?: unknown; resources?: unknown };
};

/** A resized pod with pod-level resources: generation, pod-level and container resources, and the pod-level status returned. */
export function podLevelView(body: unknown): unknown {
  const p = body as AnyPod;
  return {
    generation: p.metadata?.generation,
    resources: p.spec?.resources,
    containers: (p.spec?.containers ?? []).map((c) => ({ name: c.name, resources: c.resources })),
    qosClass: p.status?.qosClass,
    observedGeneration: p.status?.observedGeneration,
    allocatedResources: p.status?.allocatedResources,
    statusResources: p.status?.resources,
  };
}

const JSON_PATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const PL = '/api/v1/namespaces/{ns}/pods/pl/resize';
const PLC = '/api/v1/namespaces/{ns}/pods/plc/resize';
const add = (path: string, value: unknown) => ({ op: 'add', path, value });

/** The entries (their ids all contain `pod-level`, so `CORPUS_ONLY=pod-level` records just them). */
export const POD_LEVEL_ENTRIES: readonly CorpusEntry[] = [
  {
    id: 'resize-pod-level-json',
    about: 'pod-level cpu 200m/400m → 300m/500m through a JSON patch of add ops, as the updater sends',
    fixtures: ['podLevel'],
    request: { method: 'PATCH', path: PL, contentType: JSON_PATCH, body: [add('/spec/resources/requests/cpu', '300m'), add('/spec/resources/limits/cpu', '500m')] },
    view: podLevelView,
  },
  {
    id: 'resize-pod-level-strategic',
    about: 'pod-level memory 64Mi/128Mi → 96Mi/160Mi through a strategic merge patch',
    fixtures: ['podLevel'],
    request: { method: 'PATCH', path: PL, contentType: STRATEGIC, body: { spec: { resources: { requests: { memory: '96Mi' }, limits: { memory: '160Mi' } } } } },
    view: podLevelView,
  },
  {
    id: 'resize-pod-level-container-only',
    about: 'only the container of a pod with pod-level resources resized (cpu request 100m → 150m)',
    fixtures: ['podLevelWithContainer'],
    request: { method: 'PATCH', path: PLC, contentType: JSON_PATCH, body: [add('/spec/containers/0/resources/requests/cpu', '150m')] },
    view: podLevelView,
  },
  {
    id: 'resize-pod-level-container-above-pod-limit',
    about: "a container's cpu limit resized above the pod-level limit (600m > 400m)",
    fixtures: ['podLevelWithContainer'],
    request: { method: 'PATCH', path: PLC, contentType: JSON_PATCH, body: [add('/spec/containers/0/resources/limits/cpu', '600m')] },
  },
  {
    id: 'resize-pod-level-requests-below-containers',
    about: 'pod-level cpu request resized below the aggregate container requests (50m < 100m)',
    fixtures: ['podLevelWithContainer'],
    request: { method: 'PATCH', path: PLC, contentType: JSON_PATCH, body: [add('/spec/resources/requests/cpu', '50m')] },
  },
  {
    id: 'resize-pod-level-qos-change',
    about: 'pod-level requests raised to the limits: Burstable would become Guaranteed',
    fixtures: ['podLevel'],
    request: { method: 'PATCH', path: PL, contentType: STRATEGIC, body: { spec: { resources: { requests: { cpu: '400m', memory: '128Mi' } } } } },
  },
  {
    id: 'resize-pod-level-beyond-node',
    about: 'pod-level cpu resized to 1000 cores, more than the node can ever hold',
    fixtures: ['podLevel'],
    request: { method: 'PATCH', path: PL, contentType: JSON_PATCH, body: [add('/spec/resources/requests/cpu', '1000'), add('/spec/resources/limits/cpu', '1000')] },
    view: podLevelView,
  },
  {
    id: 'resize-pod-level-remove-limit',
    about: 'a pod-level limit (cpu) removed through pods/resize',
    fixtures: ['podLevel'],
    request: { method: 'PATCH', path: PL, contentType: JSON_PATCH, body: [{ op: 'remove', path: '/spec/resources/limits/cpu' }] },
  },
  {
    id: 'resize-pod-level-remove-all',
    about: 'the pod-level resources removed through pods/resize',
    fixtures: ['podLevel'],
    request: { method: 'PATCH', path: PL, contentType: JSON_PATCH, body: [{ op: 'remove', path: '/spec/resources' }] },
  },
  {
    id: 'resize-pod-level-added',
    about: 'pod-level resources added to a running pod without them (Guaranteed 200m/64Mi, added equal: still Guaranteed)',
    fixtures: ['runningPod'],
    request: {
      method: 'PATCH',
      path: '/api/v1/namespaces/{ns}/pods/rp/resize',
      contentType: JSON_PATCH,
      body: [add('/spec/resources', { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '200m', memory: '64Mi' } })],
    },
    view: podLevelView,
  },
];
