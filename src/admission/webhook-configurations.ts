/**
 * The MutatingWebhookConfiguration (pods, CREATE) and ValidatingWebhookConfiguration
 * (verticalpodautoscalers, CREATE and UPDATE) that route reviews to Tailor. Safe by default:
 * `failurePolicy: Ignore` (a webhook that is down or slow never blocks pods or VPAs), a short
 * timeout (3 s), `sideEffects: None`, `reinvocationPolicy: Never`, and for pods a namespaceSelector
 * (label `kubernetes.io/metadata.name`, which the API server sets on every namespace) that leaves
 * out kube-system, Tailor's own namespace and `--ignore-namespace`, or takes only `--namespace`.
 * The endpoint is the Service (`<svc>.<ns>.svc:<port>`) or a URL (outside the cluster, tests).
 */
import type { V1LabelSelector, V1MutatingWebhookConfiguration, V1ValidatingWebhookConfiguration, AdmissionregistrationV1WebhookClientConfig } from '@kubernetes/client-node';

export const MUTATE_PODS_PATH = '/mutate-pods';
export const VALIDATE_VPA_PATH = '/validate-vpa';
export const POD_WEBHOOK_NAME = 'pods.admission.tailor.dev';
export const VPA_WEBHOOK_NAME = 'vpa.admission.tailor.dev';
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** Where the API server sends reviews. */
export type WebhookEndpoint = { service: { namespace: string; name: string; port: number } } | { url: string };

/** What the configurations are built from. */
export interface WebhookConfigurationOptions {
  /** Name of both configuration objects. */
  name: string;
  endpoint: WebhookEndpoint;
  /** PEM of the CA that signed the serving certificate (omitted = the API server's roots). */
  caPem?: string;
  timeoutSeconds: number;
  failurePolicy: 'Ignore' | 'Fail';
  /** Tailor's own namespace, always excluded. */
  ownNamespace: string;
  /** Only these namespaces (empty = all but the excluded). */
  namespaces: readonly string[];
  /** Namespaces excluded besides kube-system and the own one. */
  ignoreNamespaces: readonly string[];
}

/** The pod webhook's namespaceSelector. */
export function podNamespaceSelector(options: Pick<WebhookConfigurationOptions, 'ownNamespace' | 'namespaces' | 'ignoreNamespaces'>): V1LabelSelector {
  const excluded = [...new Set(['kube-system', options.ownNamespace, ...options.ignoreNamespaces])];
  const expressions: V1LabelSelector['matchExpressions'] = [{ key: NAMESPACE_NAME_LABEL, operator: 'NotIn', values: excluded }];
  const included = options.namespaces.filter((n) => !excluded.includes(n));
  if (options.namespaces.length > 0) expressions.push({ key: NAMESPACE_NAME_LABEL, operator: 'In', values: included.length > 0 ? included : ['-none-'] });
  return { matchExpressions: expressions };
}

function clientConfig(options: WebhookConfigurationOptions, path: string): AdmissionregistrationV1WebhookClientConfig {
  const out: AdmissionregistrationV1WebhookClientConfig =
    'url' in options.endpoint
      ? { url: `${options.endpoint.url.replace(/\/+$/, '')}${path}` }
      : { service: { ...options.endpoint.service, path } };
  if (options.caPem) out.caBundle = Buffer.from(options.caPem).toString('base64');
  return out;
}

const LABELS = { 'app.kubernetes.io/name': 'tailor', 'app.kubernetes.io/component': 'admission' };

/** Both configurations. Pure. */
export function webhookConfigurations(options: WebhookConfigurationOptions): { mutating: V1MutatingWebhookConfiguration; validating: V1ValidatingWebhookConfiguration } {
  const common = {
    failurePolicy: options.failurePolicy,
    timeoutSeconds: options.timeoutSeconds,
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    matchPolicy: 'Equivalent',
  };
  return {
    mutating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: options.name, labels: LABELS },
      webhooks: [{
        name: POD_WEBHOOK_NAME,
        clientConfig: clientConfig(options, MUTATE_PODS_PATH),
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' }],
        namespaceSelector: podNamespaceSelector(options),
        reinvocationPolicy: 'Never',
        ...common,
      }],
    },
    validating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: options.name, labels: LABELS },
      webhooks: [{
        name: VPA_WEBHOOK_NAME,
        clientConfig: clientConfig(options, VALIDATE_VPA_PATH),
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['autoscaling.k8s.io'], apiVersions: ['v1'], resources: ['verticalpodautoscalers'], scope: 'Namespaced' }],
        ...common,
      }],
    },
  };
}
