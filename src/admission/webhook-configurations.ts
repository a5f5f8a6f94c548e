/**
 * The webhook configurations that route reviews to Tailor, in one of two layouts
 * (`--admission-webhook-layout`, decision 0280):
 * - `tailor` (the default): a MutatingWebhookConfiguration (webhook `pods.admission.tailor.dev`,
 *   pods CREATE, path /mutate-pods) and a ValidatingWebhookConfiguration (webhook
 *   `vpa.admission.tailor.dev`, verticalpodautoscalers CREATE and UPDATE, path /validate-vpa), both
 *   named `tailor`: names no other autoscaler uses, so upstream's VPA can run beside it;
 * - `upstream`: upstream VPA's registration, for clusters (and upstream's e2e suite) that look for
 *   it: one MutatingWebhookConfiguration `vpa-webhook-config` whose one webhook `vpa.k8s.io` takes
 *   pod CREATEs and VPA CREATEs and UPDATEs at /admit (the server routes each review by its
 *   resource), so a bad VPA is refused with `admission webhook "vpa.k8s.io" denied the request`.
 *   Its namespaceSelector is the pod one, so VPAs in the excluded namespaces are not validated.
 *
 * Safe by default:
 * `failurePolicy: Ignore` (a webhook that is down or slow never blocks pods or VPAs), a short
 * timeout (3 s), `sideEffects: None`, `reinvocationPolicy: Never`, and for pods a namespaceSelector
 * (label `kubernetes.io/metadata.name`, which the API server sets on every namespace) that leaves
 * out kube-system, Tailor's own namespace and `--ignore-namespace`, or takes only `--namespace`.
 * The endpoint is the Service (`<svc>.<ns>.svc:<port>`) or a URL (outside the cluster, tests).
 */
import type {
  V1LabelSelector,
  V1MutatingWebhookConfiguration,
  V1ValidatingWebhookConfiguration,
  AdmissionregistrationV1WebhookClientConfig,
} from '@kubernetes/client-node';

export const MUTATE_PODS_PATH = '/mutate-pods';
export const VALIDATE_VPA_PATH = '/validate-vpa';
/** Pods and VPAs at one path, routed by the review's resource (the upstream layout). */
export const ADMIT_PATH = '/admit';
export const POD_WEBHOOK_NAME = 'pods.admission.tailor.dev';
export const VPA_WEBHOOK_NAME = 'vpa.admission.tailor.dev';
/** Upstream VPA's configuration and webhook names (its admission-controller's config.go). */
export const UPSTREAM_CONFIGURATION_NAME = 'vpa-webhook-config';
export const UPSTREAM_WEBHOOK_NAME = 'vpa.k8s.io';

export const WEBHOOK_LAYOUTS = ['tailor', 'upstream'] as const;
export type WebhookLayout = (typeof WEBHOOK_LAYOUTS)[number];

/** The configuration name when none is given: `tailor`, or upstream's `vpa-webhook-config`. */
export function defaultConfigurationName(layout: WebhookLayout): string {
  return layout === 'upstream' ? UPSTREAM_CONFIGURATION_NAME : 'tailor';
}
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** Where the API server sends reviews. */
export type WebhookEndpoint = { service: { namespace: string; name: string; port: number } } | { url: string };

/** What the configurations are built from. */
export interface WebhookConfigurationOptions {
  /** Name of the configuration objects. */
  name: string;
  /** Default `tailor`. */
  layout?: WebhookLayout;
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
    'url' in options.endpoint ? { url: `${options.endpoint.url.replace(/\/+$/, '')}${path}` } : { service: { ...options.endpoint.service, path } };
  if (options.caPem) out.caBundle = Buffer.from(options.caPem).toString('base64');
  return out;
}

const LABELS = { 'app.kubernetes.io/name': 'tailor', 'app.kubernetes.io/component': 'admission' };

const POD_RULE = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' };
const VPA_RULE = {
  operations: ['CREATE', 'UPDATE'],
  apiGroups: ['autoscaling.k8s.io'],
  apiVersions: ['v1'],
  resources: ['verticalpodautoscalers'],
  scope: 'Namespaced',
};

/** The configurations of the layout: the validating one only in the `tailor` layout. Pure. */
export function webhookConfigurations(options: WebhookConfigurationOptions): {
  mutating: V1MutatingWebhookConfiguration;
  validating?: V1ValidatingWebhookConfiguration;
} {
  const common = {
    failurePolicy: options.failurePolicy,
    timeoutSeconds: options.timeoutSeconds,
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    matchPolicy: 'Equivalent',
  };
  const mutating = (webhook: string, path: string, rules: object[]): V1MutatingWebhookConfiguration => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: options.name, labels: LABELS },
    webhooks: [
      {
        name: webhook,
        clientConfig: clientConfig(options, path),
        rules,
        namespaceSelector: podNamespaceSelector(options),
        reinvocationPolicy: 'Never',
        ...common,
      },
    ],
  });
  if (options.layout === 'upstream') return { mutating: mutating(UPSTREAM_WEBHOOK_NAME, ADMIT_PATH, [POD_RULE, VPA_RULE]) };
  return {
    mutating: mutating(POD_WEBHOOK_NAME, MUTATE_PODS_PATH, [POD_RULE]),
    validating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: options.name, labels: LABELS },
      webhooks: [
        {
          name: VPA_WEBHOOK_NAME,
          clientConfig: clientConfig(options, VALIDATE_VPA_PATH),
          rules: [VPA_RULE],
          ...common,
        },
      ],
    },
  };
}
