import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfigurationName, podNamespaceSelector, webhookConfigurations } from '../../src/admission/webhook-configurations.ts';

const base = { name: 'tailor', timeoutSeconds: 3, failurePolicy: 'Ignore' as const, ownNamespace: 'tailor', namespaces: [], ignoreNamespaces: [] };

test('the service endpoint, caBundle as base64 PEM, safe defaults on both webhooks', () => {
  const { mutating, validating } = webhookConfigurations({
    ...base,
    endpoint: { service: { namespace: 'tailor', name: 'tailor-webhook', port: 443 } },
    caPem: 'PEM',
  });
  const pod = mutating.webhooks![0]!;
  assert.deepEqual(pod.clientConfig, {
    service: { namespace: 'tailor', name: 'tailor-webhook', port: 443, path: '/mutate-pods' },
    caBundle: Buffer.from('PEM').toString('base64'),
  });
  assert.deepEqual(pod.rules, [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' }]);
  assert.equal(pod.failurePolicy, 'Ignore');
  assert.equal(pod.timeoutSeconds, 3);
  assert.equal(pod.sideEffects, 'None');
  const vpa = validating!.webhooks![0]!;
  assert.equal(vpa.clientConfig.service?.path, '/validate-vpa');
  assert.equal(vpa.namespaceSelector, undefined);
  assert.equal(vpa.failurePolicy, 'Ignore');
});

test('a URL endpoint keeps its path prefix', () => {
  const { mutating } = webhookConfigurations({ ...base, endpoint: { url: 'https://10.0.0.5:9443/tailor/' } });
  assert.equal(mutating.webhooks![0]!.clientConfig.url, 'https://10.0.0.5:9443/tailor/mutate-pods');
  assert.equal(mutating.webhooks![0]!.clientConfig.caBundle, undefined);
});

test('namespaceSelector: kube-system and the own namespace always out; --ignore-namespace adds, --namespace restricts', () => {
  assert.deepEqual(podNamespaceSelector({ ownNamespace: 'tailor', namespaces: [], ignoreNamespaces: ['batch', 'kube-system'] }).matchExpressions, [
    { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'tailor', 'batch'] },
  ]);
  assert.deepEqual(podNamespaceSelector({ ownNamespace: 'tailor', namespaces: ['shop', 'tailor'], ignoreNamespaces: [] }).matchExpressions, [
    { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'tailor'] },
    { key: 'kubernetes.io/metadata.name', operator: 'In', values: ['shop'] },
  ]);
});

test('the upstream layout: one mutating configuration whose one webhook vpa.k8s.io takes pods and VPAs at /admit, no validating one', () => {
  assert.equal(defaultConfigurationName('upstream'), 'vpa-webhook-config');
  assert.equal(defaultConfigurationName('tailor'), 'tailor');
  const { mutating, validating } = webhookConfigurations({
    ...base,
    name: 'vpa-webhook-config',
    layout: 'upstream',
    endpoint: { service: { namespace: 'tailor-system', name: 'tailor-webhook', port: 443 } },
    caPem: 'PEM',
  });
  assert.equal(validating, undefined);
  assert.equal(mutating.metadata?.name, 'vpa-webhook-config');
  assert.deepEqual(
    mutating.webhooks!.map((h) => h.name),
    ['vpa.k8s.io'],
  );
  const hook = mutating.webhooks![0]!;
  assert.deepEqual(hook.clientConfig.service, { namespace: 'tailor-system', name: 'tailor-webhook', port: 443, path: '/admit' });
  assert.deepEqual(hook.rules, [
    { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' },
    { operations: ['CREATE', 'UPDATE'], apiGroups: ['autoscaling.k8s.io'], apiVersions: ['v1'], resources: ['verticalpodautoscalers'], scope: 'Namespaced' },
  ]);
  assert.deepEqual(hook.namespaceSelector, podNamespaceSelector(base));
  assert.equal(hook.failurePolicy, 'Ignore');
  assert.equal(hook.sideEffects, 'None');
  assert.equal(hook.reinvocationPolicy, 'Never');
});
