import { test } from 'node:test';
import assert from 'node:assert/strict';
import { find, inventory, render, renderCombination, type Manifest } from './kustomize.ts';
import { webhookConfigurations } from '../../src/admission/webhook-configurations.ts';

const BASE_INVENTORY = [
  'ClusterRole/tailor-admission',
  'ClusterRole/tailor-recommender',
  'ClusterRole/tailor-target-reader',
  'ClusterRole/tailor-updater',
  'ClusterRoleBinding/tailor-admission',
  'ClusterRoleBinding/tailor-recommender',
  'ClusterRoleBinding/tailor-target-reader',
  'ClusterRoleBinding/tailor-updater',
  'Deployment/tailor-admission',
  'Deployment/tailor-recommender',
  'Deployment/tailor-updater',
  'MutatingWebhookConfiguration/tailor',
  'Namespace/tailor-system',
  'NetworkPolicy/tailor',
  'PodDisruptionBudget/tailor-admission',
  'Role/tailor-admission-ca',
  'Role/tailor-admission-status',
  'Role/tailor-recommender-leader-election',
  'Role/tailor-updater-admission-status',
  'Role/tailor-updater-leader-election',
  'RoleBinding/tailor-admission-ca',
  'RoleBinding/tailor-admission-status',
  'RoleBinding/tailor-recommender-leader-election',
  'RoleBinding/tailor-updater-admission-status',
  'RoleBinding/tailor-updater-leader-election',
  'Service/tailor-recommender',
  'Service/tailor-updater',
  'Service/tailor-webhook',
  'ServiceAccount/tailor-admission',
  'ServiceAccount/tailor-recommender',
  'ServiceAccount/tailor-updater',
  'ValidatingWebhookConfiguration/tailor',
];
const CRDS = [
  'CustomResourceDefinition/verticalpodautoscalercheckpoints.autoscaling.k8s.io',
  'CustomResourceDefinition/verticalpodautoscalers.autoscaling.k8s.io',
];
const MONITORING = [
  'ClusterRole/tailor-kube-state-metrics-vpa',
  'ConfigMap/tailor-grafana-dashboard',
  'ConfigMap/tailor-kube-state-metrics-vpa',
  'PrometheusRule/tailor-memory-warnings',
  'ServiceMonitor/tailor',
];

/** base's inventory plus its generated ConfigMap, whose name carries a content hash. */
function withoutHash(names: string[]): string[] {
  return names.map((n) => n.replace(/^ConfigMap\/tailor-config-[a-z0-9]{10}$/, 'ConfigMap/tailor-config-<hash>'));
}

test('every directory renders: base, install, install-with-monitoring and each component alone', async () => {
  const base = await render('base');
  assert.deepEqual(withoutHash(inventory(base.objects)), [...BASE_INVENTORY, 'ConfigMap/tailor-config-<hash>'].sort());
  const install = await render('install');
  assert.deepEqual(withoutHash(inventory(install.objects)), [...BASE_INVENTORY, 'ConfigMap/tailor-config-<hash>', ...CRDS].sort());
  const full = await render('install-with-monitoring');
  assert.deepEqual(withoutHash(inventory(full.objects)), [...BASE_INVENTORY, 'ConfigMap/tailor-config-<hash>', ...CRDS, ...MONITORING].sort());
  assert.deepEqual(inventory((await render('crds')).objects), CRDS);
  assert.deepEqual(inventory((await render('monitoring')).objects), MONITORING.sort());
  assert.deepEqual(inventory((await render('monitoring/pod-monitor')).objects), ['PodMonitor/tailor']);
  // Every namespaced object lands in tailor-system.
  const cluster = new Set([
    'Namespace',
    'ClusterRole',
    'ClusterRoleBinding',
    'CustomResourceDefinition',
    'MutatingWebhookConfiguration',
    'ValidatingWebhookConfiguration',
  ]);
  for (const o of full.objects.filter((o) => !cluster.has(o.kind))) assert.equal(o.metadata.namespace, 'tailor-system', `${o.kind}/${o.metadata.name}`);
});

/** The configurations the webhook registers with the manifests' settings, in `layout` (before its caBundle). */
function writtenByWebhook(layout: 'tailor' | 'upstream') {
  return webhookConfigurations({
    name: layout === 'tailor' ? 'tailor' : 'vpa-webhook-config',
    layout,
    endpoint: { service: { namespace: 'tailor-system', name: 'tailor-webhook', port: 443 } },
    timeoutSeconds: 3,
    failurePolicy: 'Ignore',
    ownNamespace: 'tailor-system',
    namespaces: [],
    ignoreNamespaces: [],
  });
}

test('the webhook configurations are what the webhook writes (before its caBundle), so neither kubectl nor Helm fights it over a field', async () => {
  const plain = await render('base');
  const written = writtenByWebhook('tailor');
  assert.deepEqual(find(plain.objects, 'MutatingWebhookConfiguration', 'tailor'), JSON.parse(JSON.stringify(written.mutating)));
  assert.deepEqual(find(plain.objects, 'ValidatingWebhookConfiguration', 'tailor'), JSON.parse(JSON.stringify(written.validating)));
});

test('the kubernetes-1.32 component adds exactly patch on pods to the updater, nothing else changes', async () => {
  const plain = await render('base');
  const legacy = await renderCombination(['base'], ['components/kubernetes-1.32']);
  const rules = (objects: Manifest[]) => (find(objects, 'ClusterRole', 'tailor-updater') as unknown as { rules: object[] }).rules;
  assert.deepEqual(rules(legacy.objects), [...rules(plain.objects), { apiGroups: [''], resources: ['pods'], verbs: ['patch'] }]);
  assert.equal(legacy.objects.length, plain.objects.length);
});

test("the upstream-webhook component: upstream's vpa-webhook-config in place of Tailor's two configurations, as the webhook writes it, RBAC and the layout to match", async () => {
  const plain = await render('install');
  const compat = await renderCombination(['install'], ['components/upstream-webhook']);
  const names = (objects: Manifest[]) => withoutHash(inventory(objects));
  assert.deepEqual(
    names(compat.objects),
    names(plain.objects)
      .filter((n) => n !== 'MutatingWebhookConfiguration/tailor' && n !== 'ValidatingWebhookConfiguration/tailor')
      .concat('MutatingWebhookConfiguration/vpa-webhook-config')
      .sort(),
  );
  // The object is what the webhook registers with --admission-webhook-layout upstream (before its caBundle).
  const written = writtenByWebhook('upstream').mutating;
  assert.deepEqual(find(compat.objects, 'MutatingWebhookConfiguration', 'vpa-webhook-config'), JSON.parse(JSON.stringify(written)));
  // The webhook may keep only that object current.
  const rules = (
    find(compat.objects, 'ClusterRole', 'tailor-admission') as unknown as {
      rules: { apiGroups: string[]; resources: string[]; resourceNames?: string[]; verbs: string[] }[];
    }
  ).rules;
  assert.deepEqual(
    rules.filter((r) => r.apiGroups.includes('admissionregistration.k8s.io')),
    [
      {
        apiGroups: ['admissionregistration.k8s.io'],
        resources: ['mutatingwebhookconfigurations'],
        resourceNames: ['vpa-webhook-config'],
        verbs: ['get', 'update', 'patch'],
      },
    ],
  );
  // Every component reads the shared settings, now with the upstream layout.
  const config = compat.objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('tailor-config-')) as unknown as {
    data: Record<string, string>;
  };
  assert.equal(config.data['TAILOR_ADMISSION_WEBHOOK_LAYOUT'], 'upstream');
});

interface Container {
  name: string;
  args: string[];
  ports: { name: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  resources: { requests: { cpu: string; memory: string }; limits: { memory: string; cpu?: string } };
  securityContext: Record<string, unknown>;
  volumeMounts: { name: string; mountPath: string }[];
  livenessProbe?: unknown;
  readinessProbe?: unknown;
}
interface DeploymentShape {
  spec: {
    replicas: number;
    template: {
      spec: { serviceAccountName: string; securityContext: Record<string, unknown>; containers: Container[]; volumes: { name: string; emptyDir?: object }[] };
    };
  };
}

test('each Deployment runs its own component as its own service account, hardened, with requests and probes', async () => {
  const { objects } = await render('base');
  const expected = { recommender: 1, updater: 1, admission: 2 };
  for (const [component, replicas] of Object.entries(expected)) {
    const d = find(objects, 'Deployment', `tailor-${component}`) as unknown as DeploymentShape;
    const pod = d.spec.template.spec;
    assert.equal(d.spec.replicas, replicas, component);
    assert.equal(pod.serviceAccountName, `tailor-${component}`);
    assert.deepEqual(pod.securityContext, { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } });
    assert.equal(pod.containers.length, 1);
    const c = pod.containers[0] as Container;
    assert.deepEqual(c.args.slice(0, 3), ['run', '--components', component]);
    assert.deepEqual(c.securityContext, { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, privileged: false, capabilities: { drop: ['ALL'] } });
    // A read-only root needs a writable /tmp for tsx's compile cache.
    assert.deepEqual(c.volumeMounts, [{ name: 'tmp', mountPath: '/tmp' }]);
    assert.ok(pod.volumes.find((v) => v.name === 'tmp')?.emptyDir);
    assert.ok(c.resources.requests.cpu && c.resources.requests.memory && c.resources.limits.memory, `${component} has requests and a memory limit`);
    assert.equal(c.resources.limits.cpu, undefined, 'no CPU limit (throttling would only slow the loops)');
    assert.ok(c.livenessProbe && c.readinessProbe);
    assert.ok(c.ports.some((p) => p.name === 'metrics' && p.containerPort === 8942));
  }
  // Loops keep their Lease in their own namespace, not the flag's default kube-system.
  for (const component of ['recommender', 'updater']) {
    const c = (find(objects, 'Deployment', `tailor-${component}`) as unknown as DeploymentShape).spec.template.spec.containers[0] as Container;
    assert.deepEqual(c.env?.find((e) => e.name === 'TAILOR_LEASE_NAMESPACE')?.valueFrom, { fieldRef: { fieldPath: 'metadata.namespace' } });
  }
  const admission = (find(objects, 'Deployment', 'tailor-admission') as unknown as DeploymentShape).spec.template.spec.containers[0] as Container;
  assert.ok(admission.ports.some((p) => p.name === 'https' && p.containerPort === 8443));
  assert.deepEqual(admission.env?.find((e) => e.name === 'TAILOR_ADMISSION_NAMESPACE')?.valueFrom, { fieldRef: { fieldPath: 'metadata.namespace' } });
  // Worked number: the recommender's peak RSS of 521 MiB x 1.2 = 625 MiB -> request 640Mi.
  const recommender = (find(objects, 'Deployment', 'tailor-recommender') as unknown as DeploymentShape).spec.template.spec.containers[0] as Container;
  assert.equal(recommender.resources.requests.memory, '640Mi');
});

interface Webhook {
  name: string;
  clientConfig: { service: { namespace: string; name: string; port: number; path: string }; caBundle?: string };
  failurePolicy: string;
  timeoutSeconds: number;
  sideEffects: string;
  namespaceSelector?: { matchExpressions: { key: string; operator: string; values: string[] }[] };
}

test('webhook configurations are safe by default and point at the webhook Service', async () => {
  const { objects } = await render('base');
  const service = find(objects, 'Service', 'tailor-webhook') as unknown as { spec: { ports: { name: string; port: number; targetPort: string }[] } };
  assert.ok(service.spec.ports.some((p) => p.name === 'https' && p.port === 443 && p.targetPort === 'https'));
  const hooks = [
    ...(find(objects, 'MutatingWebhookConfiguration', 'tailor') as unknown as { webhooks: Webhook[] }).webhooks,
    ...(find(objects, 'ValidatingWebhookConfiguration', 'tailor') as unknown as { webhooks: Webhook[] }).webhooks,
  ];
  assert.deepEqual(
    hooks.map((h) => `${h.name} ${h.clientConfig.service.path}`),
    ['pods.admission.tailor.dev /mutate-pods', 'vpa.admission.tailor.dev /validate-vpa'],
  );
  for (const h of hooks) {
    assert.equal(h.failurePolicy, 'Ignore');
    assert.ok(h.timeoutSeconds <= 5, `${h.name} timeout ${h.timeoutSeconds}s`);
    assert.equal(h.sideEffects, 'None');
    assert.deepEqual(h.clientConfig.service, { namespace: 'tailor-system', name: 'tailor-webhook', port: 443, path: h.clientConfig.service.path });
    assert.equal(h.clientConfig.caBundle, undefined, 'the webhook fills in its own CA');
  }
  // Pods of kube-system and Tailor's own namespace are never sent (the webhook's own pods among them);
  // VPAs are validated in every namespace.
  assert.deepEqual(hooks[0]!.namespaceSelector?.matchExpressions, [
    { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'tailor-system'] },
  ]);
  assert.equal(hooks[1]!.namespaceSelector, undefined);
});

test('PodDisruptionBudget and NetworkPolicy select the pods they are meant for', async () => {
  const { objects } = await render('base');
  const pdb = find(objects, 'PodDisruptionBudget', 'tailor-admission') as unknown as {
    spec: { minAvailable: number; selector: { matchLabels: Record<string, string> } };
  };
  assert.equal(pdb.spec.minAvailable, 1, 'one of the two webhook replicas always stays');
  const admission = find(objects, 'Deployment', 'tailor-admission') as unknown as { spec: { selector: { matchLabels: Record<string, string> } } };
  assert.deepEqual(pdb.spec.selector.matchLabels, admission.spec.selector.matchLabels);
  const policy = find(objects, 'NetworkPolicy', 'tailor') as unknown as {
    spec: { podSelector: { matchLabels: Record<string, string> }; policyTypes: string[]; ingress: { ports: { port: string }[] }[] };
  };
  assert.deepEqual(policy.spec.podSelector.matchLabels, { 'app.kubernetes.io/name': 'tailor' });
  assert.deepEqual(policy.spec.policyTypes, ['Ingress']);
  assert.deepEqual(policy.spec.ingress.flatMap((r) => r.ports.map((p) => p.port)).sort(), ['https', 'metrics']);
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const labels = (d as unknown as { spec: { template: { metadata: { labels: Record<string, string> } } } }).spec.template.metadata.labels;
    assert.equal(labels['app.kubernetes.io/name'], 'tailor', `${d.metadata.name} is covered by the NetworkPolicy`);
  }
});
