/**
 * Options every `tailor run` component shares: which components, the cluster connection, which
 * namespaces, the loop schedule, leader election and the health/metrics server. Defaults of the
 * leader election follow client-go and the upstream VPA (15 s lease, 10 s renew deadline, 2 s
 * retry period).
 */
import type { OptionTable } from '../config/option-spec.ts';
import { LOG_LEVELS } from '../observability/logger.ts';
import { booleanType, cronType, durationType, enumType, integerType, listType, pathType, stringType, type OptionType } from '../config/option-types.ts';

const namespaceItem: OptionType<string> = { ...stringType, name: 'namespace', placeholder: '<namespace>' };

/** The components `tailor run` knows. */
export const COMPONENT_NAMES = ['recommender', 'updater', 'admission'] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];

export { LOG_LEVELS };

/** A DNS-1123 subdomain, as Lease names and namespaces must be. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const subdomain = (v: string) => (v.length <= 253 && DNS_SUBDOMAIN.test(v) ? undefined : 'must be a DNS-1123 subdomain (lower case letters, digits, - and .)');
const label = (v: string) => (v.length <= 63 && DNS_LABEL.test(v) ? undefined : 'must be a DNS-1123 label (lower case letters, digits and -, at most 63)');
const labels = (vs: string[]) => vs.map(label).find((p) => p !== undefined);

export const CONTROLLER_OPTIONS = {
  components: {
    flag: 'components',
    env: 'TAILOR_COMPONENTS',
    type: listType(enumType(COMPONENT_NAMES), `list of ${COMPONENT_NAMES.join(', ')}`),
    default: ['recommender'] as ComponentName[],
    description: 'Components to run in this process.',
    group: 'Components',
    check: (v: string[]) => (v.length === 0 ? 'name at least one component' : undefined),
  },
  kubeconfig: {
    flag: 'kubeconfig',
    env: 'TAILOR_KUBECONFIG',
    type: pathType,
    description: 'Kubeconfig file. Without it: $KUBECONFIG, then the in-cluster service account, then ~/.kube/config.',
    group: 'Kubernetes',
  },
  kubeContext: {
    flag: 'kube-context',
    env: 'TAILOR_KUBE_CONTEXT',
    type: stringType,
    description: 'Context of the kubeconfig to use (default: its current context).',
    group: 'Kubernetes',
  },
  namespace: {
    flag: 'namespace',
    env: 'TAILOR_NAMESPACES',
    type: listType(namespaceItem, 'list of namespaces'),
    default: [] as string[],
    description: 'Only these namespaces (repeatable or comma-separated; default: all).',
    group: 'Kubernetes',
    check: labels,
  },
  ignoreNamespace: {
    flag: 'ignore-namespace',
    env: 'TAILOR_IGNORE_NAMESPACES',
    type: listType(namespaceItem, 'list of namespaces'),
    default: [] as string[],
    description: 'All namespaces but these (repeatable or comma-separated).',
    group: 'Kubernetes',
    check: labels,
  },
  interval: {
    flag: 'interval',
    env: 'TAILOR_INTERVAL',
    type: durationType,
    default: 60_000,
    description: 'Time between loop cycles; must divide a minute, an hour or a day (10s, 1m, 5m, 1h).',
    group: 'Loop',
  },
  schedule: {
    flag: 'schedule',
    env: 'TAILOR_SCHEDULE',
    type: cronType,
    description: 'Cron schedule of the loop cycles (node-cron; 6 fields = with seconds); overrides --interval.',
    group: 'Loop',
  },
  unhealthyAfterIntervals: {
    flag: 'unhealthy-after-intervals',
    env: 'TAILOR_UNHEALTHY_AFTER_INTERVALS',
    type: integerType(2, 1000),
    default: 3,
    description: '/healthz fails when no cycle has ended for this many intervals.',
    group: 'Loop',
  },
  leaderElect: {
    flag: 'leader-elect',
    env: 'TAILOR_LEADER_ELECT',
    type: booleanType,
    default: true,
    description: 'Run the loops only while holding a coordination.k8s.io/v1 Lease (--no-leader-elect to turn off).',
    group: 'Leader election',
  },
  leaseName: {
    flag: 'leader-elect-lease-name',
    env: 'TAILOR_LEASE_NAME',
    type: stringType,
    defaultText: 'tailor-<components>',
    description: 'Name of the Lease; by default one per set of components, e.g. tailor-recommender.',
    group: 'Leader election',
    check: subdomain,
  },
  leaseNamespace: {
    flag: 'leader-elect-lease-namespace',
    env: 'TAILOR_LEASE_NAMESPACE',
    type: stringType,
    default: 'kube-system',
    description: 'Namespace of the Lease.',
    group: 'Leader election',
    check: label,
  },
  leaseDuration: {
    flag: 'leader-elect-lease-duration',
    env: 'TAILOR_LEASE_DURATION',
    type: durationType,
    default: 15_000,
    description: 'How long others wait after the last renewal they saw before taking the Lease (whole seconds).',
    group: 'Leader election',
    check: (v: number) => (v % 1000 === 0 ? undefined : 'must be whole seconds (a Lease stores seconds)'),
  },
  renewDeadline: {
    flag: 'leader-elect-renew-deadline',
    env: 'TAILOR_RENEW_DEADLINE',
    type: durationType,
    default: 10_000,
    description: 'The leader steps down when it has not renewed for this long.',
    group: 'Leader election',
  },
  retryPeriod: {
    flag: 'leader-elect-retry-period',
    env: 'TAILOR_RETRY_PERIOD',
    type: durationType,
    default: 2_000,
    description: 'Time between attempts to acquire or renew the Lease.',
    group: 'Leader election',
  },
  leaderIdentity: {
    flag: 'leader-elect-identity',
    env: 'TAILOR_LEADER_IDENTITY',
    type: stringType,
    defaultText: '<hostname>_<random>',
    description: "This replica's name in the Lease (default: the host name, i.e. the pod name, plus a random suffix).",
    group: 'Leader election',
  },
  metricsAddress: {
    flag: 'metrics-address',
    env: 'TAILOR_METRICS_ADDRESS',
    type: stringType,
    default: '0.0.0.0',
    description: 'Address of the /metrics, /healthz and /readyz server.',
    group: 'Observability',
  },
  metricsPort: {
    flag: 'metrics-port',
    env: 'TAILOR_METRICS_PORT',
    type: integerType(0, 65535),
    default: 8942,
    description: 'Port of the /metrics, /healthz and /readyz server (0 = any free port).',
    group: 'Observability',
  },
  logLevel: {
    flag: 'log-level',
    env: 'TAILOR_LOG_LEVEL',
    type: enumType(LOG_LEVELS),
    default: 'info' as (typeof LOG_LEVELS)[number],
    description: 'Level of the JSON logs on stderr.',
    group: 'Observability',
  },
} satisfies OptionTable;
