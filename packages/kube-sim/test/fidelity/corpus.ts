/**
 * The fidelity corpus: requests whose answers kube-sim must give as a real Kubernetes v1.35.4 API
 * server does. Each entry runs in a namespace of its own (`{ns}` in paths and bodies), after its
 * fixtures are created and its `before` steps succeeded; the answer compared is the HTTP code, the
 * Status reason, `details.causes[].field/reason`, the normalised Status message, and for a success
 * the entry's `view` of the body. The real server's answers are recorded in
 * `recorded-v1.35.4.json` (how they were captured is written in that file); `corpus.test.ts`
 * compares kube-sim with them on every `npm test`, the lane's `test/real-cluster/corpus.lane.ts`
 * compares the live real server with them. docs/kube-sim-fidelity.md lists what is compared.
 */
import type * as k8s from '@kubernetes/client-node';
import { PLC_CONTAINER, POD_LEVEL_ENTRIES, podLevelPod, type PodLevelFixtureName } from './corpus-pod-level.ts';

/** One HTTP request; `{ns}` in the path or a JSON body is the entry's namespace. */
export interface CorpusRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  contentType?: string;
  /** JSON (serialised by the runner) or a raw string (sent as is, e.g. an apply patch in YAML). */
  body?: unknown;
  /** A watch: the answer is the event stream read until the initial-events-end bookmark or an ERROR. */
  watch?: boolean;
}

/** Objects an entry needs before its request. */
export type FixtureName = 'pod' | 'podNoPolicy' | 'runningPod' | 'pdb' | PodLevelFixtureName;

export interface CorpusEntry {
  id: string;
  /** What the request shows (one line). */
  about: string;
  fixtures?: FixtureName[];
  /** Requests that must succeed first (e.g. a resize by another field manager). */
  before?: CorpusRequest[];
  request: CorpusRequest;
  /** For a success: what of the body is compared. */
  view?: (body: unknown) => unknown;
  /**
   * The message ends with a diff of the object (the real server's is of its internal Go structs):
   * compare its first line and the changed lines, trimmed.
   */
  diffMessage?: boolean;
}

/** The image of the lane (busybox-static, imported into each node; kube-sim accepts any). */
export const CORPUS_IMAGE = 'localhost/tailor-busybox:lane';

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

function container(withPolicy: boolean): k8s.V1Container {
  return {
    name: 'app',
    image: CORPUS_IMAGE,
    imagePullPolicy: 'Never',
    command: ['sleep', '3600'],
    resources: { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '200m', memory: '64Mi' } },
    ...(withPolicy ? { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }] } : {}),
  };
}

function pod(name: string, withPolicy: boolean, labels: Record<string, string> = {}): k8s.V1Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { terminationGracePeriodSeconds: 0, containers: [container(withPolicy)] } };
}

/**
 * The fixtures: pods `p` (Guaranteed, resizePolicy cpu NotRequired / memory RestartContainer), `np` (no resizePolicy), `rp` (running), PDB `pdb` over `rp`;
 * running pods with pod-level resources `pl` (container without resources) and `plc` (container with its own), corpus-pod-level.ts.
 */
export const FIXTURES: Record<FixtureName, { pod?: () => k8s.V1Pod; pdb?: () => k8s.V1PodDisruptionBudget; running?: boolean }> = {
  pod: { pod: () => pod('p', true) },
  podNoPolicy: { pod: () => pod('np', false) },
  runningPod: { pod: () => pod('rp', true, { corpus: 'guarded' }), running: true },
  podLevel: { pod: () => podLevelPod('pl', CORPUS_IMAGE), running: true },
  podLevelWithContainer: { pod: () => podLevelPod('plc', CORPUS_IMAGE, structuredClone(PLC_CONTAINER)), running: true },
  pdb: { pdb: () => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb' }, spec: { minAvailable: 1, selector: { matchLabels: { corpus: 'guarded' } } } }) },
};

const RESIZE = '/api/v1/namespaces/{ns}/pods/p/resize';
const POD = '/api/v1/namespaces/{ns}/pods/p';
const VPAS = '/apis/autoscaling.k8s.io/v1/namespaces/{ns}/verticalpodautoscalers';

type AnyPod = { metadata?: { generation?: number; managedFields?: { manager?: string; operation?: string; subresource?: string }[] }; spec?: k8s.V1PodSpec };

/** A resized pod: its generation and each container's resources and resizePolicy. */
function resizeView(body: unknown): unknown {
  const p = body as AnyPod;
  return { generation: p.metadata?.generation, containers: (p.spec?.containers ?? []).map((c) => ({ name: c.name, resources: c.resources, resizePolicy: c.resizePolicy })) };
}

/**
 * managedFields as (manager, operation, subresource), sorted: the server orders entries by time
 * at one-second resolution, so the order of writes within a second is not stable. Entries of the
 * `status` subresource are the cluster's own components (scheduler, kubelet), timing-dependent on a
 * real cluster, and left out.
 */
function managersView(body: unknown): unknown {
  return ((body as AnyPod).metadata?.managedFields ?? [])
    .filter((e) => e.subresource !== 'status')
    .map((e) => [e.manager, e.operation, e.subresource ?? ''])
    .sort((a, b) => a.join('/').localeCompare(b.join('/')));
}

/** What pod creation adds: defaults, the service-account token volume and mount, tolerations. */
function podDefaultsView(body: unknown): unknown {
  const s = (body as AnyPod).spec!;
  const c = s.containers[0]!;
  return {
    tolerations: s.tolerations,
    preemptionPolicy: s.preemptionPolicy,
    priority: s.priority,
    volumes: (s.volumes ?? []).map((v) => v.name),
    mounts: c.volumeMounts,
    serviceAccountName: s.serviceAccountName,
    dnsPolicy: s.dnsPolicy,
    restartPolicy: s.restartPolicy,
    schedulerName: s.schedulerName,
    enableServiceLinks: s.enableServiceLinks,
    securityContext: s.securityContext,
    terminationGracePeriodSeconds: s.terminationGracePeriodSeconds,
    container: { imagePullPolicy: c.imagePullPolicy, terminationMessagePath: c.terminationMessagePath, terminationMessagePolicy: c.terminationMessagePolicy },
  };
}

/** A watch's events: type, kind and name, the bookmark's initial-events-end annotation, an ERROR's Status. */
function watchView(body: unknown): unknown {
  const lines = String(body).split('\n').filter((l) => l.trim() !== '');
  // Events after the initial-events-end bookmark are live changes (the scheduler binding the pod,
  // the kubelet's status) whose timing is the cluster's, not the answer's: they are not compared.
  const end = lines.findIndex((l) => l.includes('"k8s.io/initial-events-end":"true"'));
  return (end < 0 ? lines : lines.slice(0, end + 1))
    .map((l) => {
      const e = JSON.parse(l) as { type: string; object: { kind?: string; code?: number; reason?: string; message?: string; metadata?: { name?: string; annotations?: Record<string, string> } } };
      if (e.type === 'ERROR') return [e.type, e.object.code, e.object.reason, e.object.message];
      if (e.type === 'BOOKMARK') return [e.type, e.object.kind, e.object.metadata?.annotations?.['k8s.io/initial-events-end'] ?? null];
      return [e.type, e.object.kind, e.object.metadata?.name];
    });
}

/** The OpenAPI v3 document of core v1: its Eviction schemas with their group-version-kind and properties (what kubectl validates with). */
function evictionSchemaView(body: unknown): unknown {
  const schemas = (body as { components?: { schemas?: Record<string, { 'x-kubernetes-group-version-kind'?: unknown; properties?: Record<string, unknown> }> } }).components?.schemas ?? {};
  return Object.entries(schemas)
    .filter(([name]) => name.endsWith('.Eviction'))
    .map(([name, schema]) => ({ name, gvk: schema['x-kubernetes-group-version-kind'], properties: Object.keys(schema.properties ?? {}).sort() }));
}

const cpu = (value: string) => ({ spec: { containers: [{ name: 'app', resources: { requests: { cpu: value }, limits: { cpu: value } } }] } });

/** The corpus. */
export const CORPUS: readonly CorpusEntry[] = [
  // --- pods/resize: what may change, through each patch type ---
  { id: 'resize-cpu-strategic', about: 'cpu 200m → 300m through a strategic merge patch', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, body: cpu('300m') }, view: resizeView },
  { id: 'resize-cpu-merge', about: 'a merge patch replaces the containers list; only resources are taken from it', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: MERGE, body: cpu('300m') }, view: resizeView },
  {
    id: 'resize-cpu-json',
    about: 'cpu through a JSON patch',
    fixtures: ['pod'],
    request: { method: 'PATCH', path: RESIZE, contentType: JSON_PATCH, body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '300m' }, { op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: '300m' }] },
    view: resizeView,
  },
  { id: 'resize-memory', about: 'memory 64Mi → 96Mi (RestartContainer policy)', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, body: { spec: { containers: [{ name: 'app', resources: { requests: { memory: '96Mi' }, limits: { memory: '96Mi' } } }] } } }, view: resizeView },
  {
    id: 'resize-beyond-node',
    about: 'a running pod resized to 1000 cores, more than its node can ever hold: accepted up to 1.35 (the kubelet says Infeasible), refused at admission since 1.36',
    fixtures: ['runningPod'],
    request: { method: 'PATCH', path: '/api/v1/namespaces/{ns}/pods/rp/resize', contentType: STRATEGIC, body: cpu('1000') },
    view: resizeView,
  },
  { id: 'resize-request-above-limit', about: 'a request above its limit', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, body: { spec: { containers: [{ name: 'app', resources: { requests: { cpu: '300m' } } }] } } } },
  { id: 'resize-qos-change', about: 'a resize that would change the QoS class', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, body: { spec: { containers: [{ name: 'app', resources: { requests: { cpu: '100m' } } }] } } } },
  { id: 'resize-remove-requests', about: 'removing a request', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: JSON_PATCH, body: [{ op: 'remove', path: '/spec/containers/0/resources/requests/cpu' }] } },
  { id: 'resize-policy-changed', about: 'resizePolicy changed through pods/resize', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: JSON_PATCH, body: [{ op: 'replace', path: '/spec/containers/0/resizePolicy/0/restartPolicy', value: 'RestartContainer' }] } },
  { id: 'resize-policy-added', about: 'resizePolicy added through pods/resize', fixtures: ['podNoPolicy'], request: { method: 'PATCH', path: '/api/v1/namespaces/{ns}/pods/np/resize', contentType: STRATEGIC, body: { spec: { containers: [{ name: 'app', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }] } } } },
  { id: 'resize-policy-dropped', about: 'resizePolicy dropped through pods/resize', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: JSON_PATCH, body: [{ op: 'remove', path: '/spec/containers/0/resizePolicy' }] } },
  { id: 'resize-policy-bad-value', about: 'an unknown restartPolicy in resizePolicy', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: JSON_PATCH, body: [{ op: 'replace', path: '/spec/containers/0/resizePolicy/0/restartPolicy', value: 'Sometimes' }] } },
  { id: 'resize-image-ignored', about: 'a non-resource field (image) in a resize patch', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, body: { spec: { containers: [{ name: 'app', image: 'other:1' }] } } }, view: (b) => ({ image: (b as AnyPod).spec?.containers[0]?.image, ...(resizeView(b) as object) }) },
  { id: 'resize-add-container', about: 'a container added through pods/resize', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, body: { spec: { containers: [{ name: 'extra', resources: { requests: { cpu: '100m' } } }] } } } },
  { id: 'resize-unparsable-quantity', about: 'an unparsable quantity in a resize PATCH', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, body: cpu('lots') } },
  { id: 'resize-negative-quantity', about: 'a negative quantity in a resize PATCH', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, body: cpu('-300m') } },
  { id: 'resize-put-unparsable', about: 'an unparsable quantity in a resize PUT body', fixtures: ['pod'], request: { method: 'PUT', path: RESIZE, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: '{ns}' }, spec: { containers: [{ name: 'app', image: CORPUS_IMAGE, resources: { requests: { cpu: 'lots' } } }] } } } },
  // --- pods/resize of pods with pod-level resources (corpus-pod-level.ts) ---
  ...POD_LEVEL_ENTRIES,
  // --- server-side apply on pods/resize ---
  { id: 'resize-apply-no-manager', about: 'server-side apply on pods/resize without fieldManager', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: APPLY, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, ...cpu('300m') }) } },
  { id: 'resize-apply-conflict-creator', about: 'apply on pods/resize of cpu owned by the creator', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: APPLY, query: { fieldManager: 'corpus-a' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, ...cpu('300m') }) } },
  {
    id: 'resize-apply-conflict-manager',
    about: 'apply on pods/resize of cpu another applier forced',
    fixtures: ['pod'],
    before: [{ method: 'PATCH', path: RESIZE, contentType: APPLY, query: { fieldManager: 'corpus-a', force: 'true' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, ...cpu('300m') }) }],
    request: { method: 'PATCH', path: RESIZE, contentType: APPLY, query: { fieldManager: 'corpus-b' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, ...cpu('400m') }) },
  },
  { id: 'resize-apply-forced', about: 'forced apply on pods/resize; managedFields after', fixtures: ['pod'], request: { method: 'PATCH', path: RESIZE, contentType: APPLY, query: { fieldManager: 'corpus-a', force: 'true' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, ...cpu('300m') }) }, view: managersView },
  {
    id: 'managed-fields-per-manager',
    about: 'managedFields: one entry per manager, operation and subresource',
    fixtures: ['pod'],
    before: [
      { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, query: { fieldManager: 'resizer' }, body: cpu('300m') },
      { method: 'PATCH', path: POD, contentType: MERGE, query: { fieldManager: 'labeller' }, body: { metadata: { labels: { a: 'b' } } } },
      { method: 'PATCH', path: POD, contentType: MERGE, body: { metadata: { labels: { c: 'd' } } } },
    ],
    request: { method: 'PATCH', path: RESIZE, contentType: STRATEGIC, query: { fieldManager: 'resizer' }, body: cpu('400m') },
    view: managersView,
  },
  // --- pods: create defaults, immutable spec, quantities, status ---
  { id: 'pod-create-defaults', about: 'what creating a pod adds (dry run)', request: { method: 'POST', path: '/api/v1/namespaces/{ns}/pods', query: { dryRun: 'All' }, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'd' }, spec: { containers: [{ name: 'app', image: CORPUS_IMAGE }] } } }, view: podDefaultsView },
  { id: 'pod-create-negative-quantity', about: 'a negative request on create', request: { method: 'POST', path: '/api/v1/namespaces/{ns}/pods', query: { dryRun: 'All' }, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'd' }, spec: { containers: [{ name: 'app', image: CORPUS_IMAGE, resources: { requests: { cpu: '-1' } } }] } } } },
  { id: 'pod-create-unparsable-quantity', about: 'an unparsable quantity in a create body', request: { method: 'POST', path: '/api/v1/namespaces/{ns}/pods', query: { dryRun: 'All' }, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'd' }, spec: { containers: [{ name: 'app', image: CORPUS_IMAGE, resources: { requests: { cpu: 'lots' } } }] } } } },
  { id: 'pod-patch-unparsable-quantity', about: 'an unparsable quantity in a pod PATCH', fixtures: ['pod'], request: { method: 'PATCH', path: POD, contentType: STRATEGIC, body: cpu('lots') } },
  { id: 'pod-immutable-spec', about: 'changing an immutable pod field (command)', fixtures: ['pod'], diffMessage: true, request: { method: 'PATCH', path: POD, contentType: JSON_PATCH, body: [{ op: 'replace', path: '/spec/containers/0/command', value: ['sleep', '7200'] }] } },
  { id: 'pod-add-container', about: 'a container without image added by a pod patch', fixtures: ['pod'], request: { method: 'PATCH', path: POD, contentType: STRATEGIC, body: { spec: { containers: [{ name: 'extra' }] } } } },
  { id: 'pod-status-negative-observed-generation', about: 'status.observedGeneration < 0', fixtures: ['pod'], request: { method: 'PATCH', path: `${POD}/status`, contentType: MERGE, body: { status: { observedGeneration: -1 } } } },
  // --- eviction ---
  { id: 'eviction-pdb-blocked', about: 'eviction of a Ready pod its PDB protects', fixtures: ['runningPod', 'pdb'], request: { method: 'POST', path: '/api/v1/namespaces/{ns}/pods/rp/eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'rp', namespace: '{ns}' } } } },
  { id: 'eviction-missing-pod', about: 'eviction of a pod that does not exist', request: { method: 'POST', path: '/api/v1/namespaces/{ns}/pods/gone/eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'gone', namespace: '{ns}' } } } },
  { id: 'eviction-name-mismatch', about: 'an Eviction whose name is not the pod\'s', fixtures: ['pod'], request: { method: 'POST', path: '/api/v1/namespaces/{ns}/pods/p/eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other', namespace: '{ns}' } } } },
  { id: 'openapi-eviction', about: 'the OpenAPI v3 schema of policy/v1 Eviction (served with core v1: pods/eviction)', request: { method: 'GET', path: '/openapi/v3/api/v1' }, view: evictionSchemaView },
  // --- VPA CRD validation ---
  { id: 'vpa-bad-update-mode', about: 'a VPA with an unknown updateMode', request: { method: 'POST', path: VPAS, body: { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name: 'v' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'Sometimes' } } } } },
  { id: 'vpa-bad-controlled-values', about: 'a VPA with an unknown controlledValues', request: { method: 'POST', path: VPAS, body: { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name: 'v' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, resourcePolicy: { containerPolicies: [{ containerName: '*', controlledValues: 'Everything' }] } } } } },
  { id: 'vpa-bad-quantity', about: 'a VPA with an unparsable minAllowed quantity', request: { method: 'POST', path: VPAS, body: { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name: 'v' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, resourcePolicy: { containerPolicies: [{ containerName: '*', minAllowed: { cpu: 'lots' } }] } } } } },
  { id: 'vpa-missing-target', about: 'a VPA without targetRef', request: { method: 'POST', path: VPAS, body: { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name: 'v' }, spec: {} } } },
  // --- watch ---
  { id: 'watch-initial-events', about: 'a watch-list: initial events then the initial-events-end bookmark', fixtures: ['pod'], request: { method: 'GET', path: '/api/v1/namespaces/{ns}/pods', watch: true, query: { watch: '1', sendInitialEvents: 'true', allowWatchBookmarks: 'true', resourceVersionMatch: 'NotOlderThan' } }, view: watchView },
  { id: 'watch-initial-events-without-match', about: 'sendInitialEvents without resourceVersionMatch', request: { method: 'GET', path: '/api/v1/namespaces/{ns}/pods', watch: true, query: { watch: '1', sendInitialEvents: 'true', allowWatchBookmarks: 'true' } }, view: watchView },
  { id: 'watch-bad-resource-version', about: 'a watch from an unparsable resourceVersion', request: { method: 'GET', path: '/api/v1/namespaces/{ns}/pods', watch: true, query: { watch: '1', resourceVersion: 'abc' } }, view: watchView },
];
