/**
 * Options of the admission webhook (`tailor run --components admission`): where it listens, where
 * its certificate comes from (files such as a cert-manager Secret, or a self-signed CA shared
 * through a Secret), and how the webhook configurations it writes look. Safe defaults:
 * failurePolicy Ignore and a 3 s timeout.
 */
import type { OptionTable } from '../config/option-spec.ts';
import { booleanType, durationType, enumType, integerType, pathType, stringType, urlType } from '../config/option-types.ts';
import { WEBHOOK_LAYOUTS } from './webhook-configurations.ts';
import { ADMISSION_STATUS_INTERVAL_MS, ADMISSION_STATUS_LEASE_NAME } from '../kube/admission-status-names.ts';

export const FAILURE_POLICIES = ['Ignore', 'Fail'] as const;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const label = (v: string) => (v.length <= 63 && DNS_LABEL.test(v) ? undefined : 'must be a DNS-1123 label (lower case letters, digits and -, at most 63)');

export const ADMISSION_OPTIONS = {
  admissionAddress: {
    flag: 'admission-address',
    env: 'TAILOR_ADMISSION_ADDRESS',
    type: stringType,
    default: '0.0.0.0',
    description: "Address the webhook's HTTPS server listens on.",
    group: 'Admission webhook',
  },
  admissionPort: {
    flag: 'admission-port',
    env: 'TAILOR_ADMISSION_PORT',
    type: integerType(0, 65535),
    default: 8443,
    description: "Port of the webhook's HTTPS server (POST /mutate-pods, POST /validate-vpa, GET /healthz).",
    group: 'Admission webhook',
  },
  admissionNamespace: {
    flag: 'admission-namespace',
    env: 'TAILOR_ADMISSION_NAMESPACE',
    type: stringType,
    default: 'tailor',
    description: "Tailor's own namespace: never mutated, holds the Service and the self-signed CA Secret.",
    group: 'Admission webhook',
    check: label,
  },
  admissionCertFile: {
    flag: 'admission-cert-file',
    env: 'TAILOR_ADMISSION_CERT_FILE',
    type: pathType,
    description: 'Serving certificate (PEM), e.g. tls.crt of a cert-manager Secret; reloaded when it changes. Without it a self-signed CA is used.',
    group: 'Admission webhook',
  },
  admissionKeyFile: {
    flag: 'admission-key-file',
    env: 'TAILOR_ADMISSION_KEY_FILE',
    type: pathType,
    description: 'Private key of the serving certificate (PEM), e.g. tls.key.',
    group: 'Admission webhook',
  },
  admissionCaFile: {
    flag: 'admission-ca-file',
    env: 'TAILOR_ADMISSION_CA_FILE',
    type: pathType,
    description: "CA of the serving certificate (PEM), e.g. ca.crt; published as the configurations' caBundle.",
    group: 'Admission webhook',
  },
  admissionCertPollInterval: {
    flag: 'admission-cert-poll-interval',
    env: 'TAILOR_ADMISSION_CERT_POLL_INTERVAL',
    type: durationType,
    default: 10_000,
    description: 'How often the certificate files are re-read besides watching them.',
    group: 'Admission webhook',
  },
  admissionCaSecret: {
    flag: 'admission-ca-secret',
    env: 'TAILOR_ADMISSION_CA_SECRET',
    type: stringType,
    default: 'tailor-webhook-ca',
    description: 'Secret in the admission namespace holding the self-signed CA all replicas share (created if absent).',
    group: 'Admission webhook',
  },
  admissionRegisterWebhooks: {
    flag: 'admission-register-webhooks',
    env: 'TAILOR_ADMISSION_REGISTER_WEBHOOKS',
    type: booleanType,
    default: true,
    description: 'Create/replace the webhook configurations with the current caBundle (--no-admission-register-webhooks when manifests own them).',
    group: 'Admission webhook',
  },
  admissionWebhookLayout: {
    flag: 'admission-webhook-layout',
    env: 'TAILOR_ADMISSION_WEBHOOK_LAYOUT',
    type: enumType(WEBHOOK_LAYOUTS),
    default: 'tailor' as (typeof WEBHOOK_LAYOUTS)[number],
    description:
      "Which webhook configurations to register: tailor (a mutating one for pods, a validating one for VPAs, webhooks *.admission.tailor.dev) or upstream (upstream VPA's: one MutatingWebhookConfiguration whose webhook vpa.k8s.io mutates pods and validates VPAs; for migrating from upstream, never beside it).",
    group: 'Admission webhook',
  },
  admissionWebhookConfigName: {
    flag: 'admission-webhook-config-name',
    env: 'TAILOR_ADMISSION_WEBHOOK_CONFIG_NAME',
    type: stringType,
    defaultText: 'tailor; vpa-webhook-config with --admission-webhook-layout upstream',
    description: 'Name of the webhook configuration objects.',
    group: 'Admission webhook',
  },
  admissionServiceName: {
    flag: 'admission-service-name',
    env: 'TAILOR_ADMISSION_SERVICE_NAME',
    type: stringType,
    default: 'tailor-webhook',
    description: 'Service in front of the webhook (the API server calls <service>.<namespace>.svc).',
    group: 'Admission webhook',
    check: label,
  },
  admissionServicePort: {
    flag: 'admission-service-port',
    env: 'TAILOR_ADMISSION_SERVICE_PORT',
    type: integerType(1, 65535),
    default: 443,
    description: 'Port of that Service.',
    group: 'Admission webhook',
  },
  admissionWebhookUrl: {
    flag: 'admission-webhook-url',
    env: 'TAILOR_ADMISSION_WEBHOOK_URL',
    type: urlType,
    description: 'Reach the webhook at this https URL instead of the Service (outside the cluster); paths are added.',
    group: 'Admission webhook',
  },
  admissionTimeout: {
    flag: 'admission-timeout',
    env: 'TAILOR_ADMISSION_TIMEOUT',
    type: durationType,
    default: 3_000,
    description: 'timeoutSeconds of the webhooks (1s to 30s, whole seconds).',
    group: 'Admission webhook',
    check: (v: number) => (v % 1000 === 0 && v >= 1000 && v <= 30_000 ? undefined : 'must be whole seconds from 1s to 30s'),
  },
  admissionFailurePolicy: {
    flag: 'admission-failure-policy',
    env: 'TAILOR_ADMISSION_FAILURE_POLICY',
    type: enumType(FAILURE_POLICIES),
    default: 'Ignore' as (typeof FAILURE_POLICIES)[number],
    description: 'failurePolicy of the webhooks: Ignore admits pods and VPAs when the webhook is down.',
    group: 'Admission webhook',
  },
  admissionStatusLeaseName: {
    flag: 'admission-status-lease-name',
    env: 'TAILOR_ADMISSION_STATUS_LEASE_NAME',
    type: stringType,
    default: ADMISSION_STATUS_LEASE_NAME,
    description: "Lease the webhook renews while it can set resources and the updater reads before it evicts (upstream VPA's name).",
    group: 'Admission webhook',
  },
  admissionStatusLeaseNamespace: {
    flag: 'admission-status-lease-namespace',
    env: 'TAILOR_ADMISSION_STATUS_LEASE_NAMESPACE',
    type: stringType,
    defaultText: 'the --admission-namespace',
    description: "Namespace of that Lease: where Tailor runs (the manifests set it to the pods' namespace).",
    group: 'Admission webhook',
    check: label,
  },
  admissionStatusInterval: {
    flag: 'admission-status-interval',
    env: 'TAILOR_ADMISSION_STATUS_INTERVAL',
    type: durationType,
    default: ADMISSION_STATUS_INTERVAL_MS,
    description: 'How often the webhook renews the status Lease (well below --admission-status-timeout).',
    group: 'Admission webhook',
  },
} satisfies OptionTable;

/** The namespace of the status Lease: the option, else the admission namespace. */
export function admissionStatusNamespace(config: { admissionStatusLeaseNamespace?: string | undefined; admissionNamespace: string }): string {
  return config.admissionStatusLeaseNamespace ?? config.admissionNamespace;
}
