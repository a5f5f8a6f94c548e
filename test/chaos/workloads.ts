/**
 * The chaos lane's workloads (issue 31): 32 of them, 60 pods over the lane's two nodes, each with a
 * VPA, covering what the safety rules are about: multi-replica Deployments with PDBs, single
 * replicas, a StatefulSet, a CronJob, an HPA-managed Deployment; Guaranteed, Burstable and
 * BestEffort pods; every update mode; containers resized without and with a restart; tight
 * minAllowed/maxAllowed; per-workload pace (cooldown, step caps). Every container runs the usage
 * driver (usage-driver.ts) reading its level from the ConfigMap `chaos-levels`; `oomProne`
 * workloads are driven above their memory limit at times (the OOM rescue and the memory floor).
 * The manifests are plain objects: the runner applies them with its client.
 */
import type * as k8s from '@kubernetes/client-node';
import type { UpdateMode, VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import { USAGE_SCRIPT } from './usage-driver.ts';

/** The lane's test image (test/real-cluster/images.sh). */
export const CHAOS_IMAGE = 'localhost/tailor-busybox:lane';
/** The ConfigMap of usage levels, one key per workload. */
export const LEVELS_CONFIGMAP = 'chaos-levels';

export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'CronJob';
export type Qos = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** One workload as the lane describes it. */
export interface ChaosWorkload {
  readonly name: string;
  readonly kind: WorkloadKind;
  readonly replicas: number;
  readonly mode: UpdateMode;
  readonly qos: Qos;
  /** A PodDisruptionBudget's minAvailable. */
  readonly pdbMinAvailable?: number;
  /** Managed by an HPA on cpu (2-4 replicas). */
  readonly hpa?: boolean;
  /** Memory resized with a restart of the container (resizePolicy RestartContainer). */
  readonly memoryRestarts?: boolean;
  /** Annotations on the VPA (pace, restarts allowed); without them, the lane's pace (LANE_PACE). */
  readonly annotations?: Readonly<Record<string, string>>;
  /** Keeps the updater's default pace (a 15-minute cooldown per pod) in place of the lane's. */
  readonly defaultPace?: boolean;
  /** Driven above its memory limit at times. */
  readonly oomProne?: boolean;
  /**
   * At the edge of its QoS class: Burstable only by its cpu (request 25m, limit 30m; memory request ==
   * limit), cpu under RequestsOnly, so every recommendation (at least minAllowed, 30m) would lift the
   * request to the limit and make the pod Guaranteed; Tailor must leave it (the `qos` rule).
   */
  readonly qosEdge?: boolean;
}

const many = (prefix: string, count: number, w: Omit<ChaosWorkload, 'name'>): ChaosWorkload[] =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i + 1}`, ...w }));

/** The 32 workloads. */
export const CHAOS_WORKLOADS: readonly ChaosWorkload[] = [
  ...many('web', 8, { kind: 'Deployment', replicas: 3, mode: 'InPlaceOrRecreate', qos: 'Burstable', pdbMinAvailable: 2 }),
  ...many('api', 4, { kind: 'Deployment', replicas: 2, mode: 'Recreate', qos: 'Burstable', pdbMinAvailable: 1 }),
  { name: 'solo-1', kind: 'Deployment', replicas: 1, mode: 'InPlaceOrRecreate', qos: 'Burstable' },
  { name: 'solo-2', kind: 'Deployment', replicas: 1, mode: 'InPlaceOrRecreate', qos: 'Burstable' },
  { name: 'solo-3', kind: 'Deployment', replicas: 1, mode: 'InPlace', qos: 'Burstable' },
  { name: 'solo-4', kind: 'Deployment', replicas: 1, mode: 'Auto', qos: 'Burstable' },
  ...many('guaranteed', 2, { kind: 'Deployment', replicas: 2, mode: 'InPlaceOrRecreate', qos: 'Guaranteed', pdbMinAvailable: 1, defaultPace: true }),
  { name: 'besteffort', kind: 'Deployment', replicas: 1, mode: 'InPlaceOrRecreate', qos: 'BestEffort', defaultPace: true },
  { name: 'db', kind: 'StatefulSet', replicas: 2, mode: 'Recreate', qos: 'Burstable', pdbMinAvailable: 1 },
  { name: 'cron', kind: 'CronJob', replicas: 1, mode: 'InPlaceOrRecreate', qos: 'Burstable' },
  { name: 'scaled', kind: 'Deployment', replicas: 2, mode: 'InPlaceOrRecreate', qos: 'Burstable', hpa: true },
  { name: 'restart-1', kind: 'Deployment', replicas: 2, mode: 'InPlaceOrRecreate', qos: 'Burstable', memoryRestarts: true },
  {
    name: 'restart-2',
    kind: 'Deployment',
    replicas: 2,
    mode: 'InPlaceOrRecreate',
    qos: 'Burstable',
    memoryRestarts: true,
    annotations: { 'tailor.dev/allow-container-restart': 'true' },
  },
  { name: 'paced-1', kind: 'Deployment', replicas: 2, mode: 'InPlaceOrRecreate', qos: 'Burstable', annotations: { 'tailor.dev/cooldown': '2m' } },
  {
    name: 'paced-2',
    kind: 'Deployment',
    replicas: 2,
    mode: 'InPlaceOrRecreate',
    qos: 'Burstable',
    annotations: { 'tailor.dev/max-increase': '50%', 'tailor.dev/max-decrease': '25%' },
  },
  ...many('off', 2, { kind: 'Deployment', replicas: 1, mode: 'Off', qos: 'Burstable' }),
  ...many('initial', 2, { kind: 'Deployment', replicas: 1, mode: 'Initial', qos: 'Burstable' }),
  ...many('oom', 2, { kind: 'Deployment', replicas: 1, mode: 'InPlaceOrRecreate', qos: 'Burstable', oomProne: true }),
  { name: 'qos-edge', kind: 'Deployment', replicas: 1, mode: 'InPlaceOrRecreate', qos: 'Burstable', qosEdge: true },
];

/**
 * A Deployment no VPA governs, beside the others in the namespace: Tailor must leave its pod alone
 * (the `governed` rule; the governed variant hands it to a governed workload's group). Driven by the
 * usage schedule like the others; not in CHAOS_WORKLOADS, which all have a VPA.
 */
export const BYSTANDER: ChaosWorkload = { name: 'bystander', kind: 'Deployment', replicas: 1, mode: 'Off', qos: 'Burstable' };

/**
 * The pace of a workload without annotations of its own: a 3-minute cooldown per pod, so that a run
 * of 45 minutes sees each pod changed many times (the default, 15 minutes, allows three; the first
 * 45-minute run made about 270 resizes with it, short of the 300).
 */
export const LANE_PACE = { 'tailor.dev/cooldown': '3m' } as const;

/**
 * The bounds every VPA allows, tight enough that the recommendations hit them: cpu usage is 4m-48m
 * and Tailor never recommends under 25m, so 30m binds from below and 60m from above; memory walks
 * 16-150 MiB. (10m-400m and 24Mi-192Mi never bound: the bounds variant's run was not caught.)
 */
export const MIN_ALLOWED = { cpu: '30m', memory: '32Mi' } as const;
export const MAX_ALLOWED = { cpu: '60m', memory: '128Mi' } as const;
/** Every container's resources at creation. */
const REQUESTS = { cpu: '30m', memory: '48Mi' } as const;
const LIMITS = { cpu: '120m', memory: '96Mi' } as const;

/** The qos-edge workload's resources: Burstable by its cpu alone; memory above the usage walk's top (150 MiB). */
const QOS_EDGE = { requests: { cpu: '25m', memory: '160Mi' }, limits: { cpu: '30m', memory: '160Mi' } } as const;

function resources(w: ChaosWorkload): k8s.V1ResourceRequirements {
  if (w.qosEdge) return { requests: { ...QOS_EDGE.requests }, limits: { ...QOS_EDGE.limits } };
  if (w.qos === 'BestEffort') return {};
  if (w.qos === 'Guaranteed') return { requests: { ...LIMITS }, limits: { ...LIMITS } };
  return { requests: { ...REQUESTS }, limits: { ...LIMITS } };
}

function podTemplate(w: ChaosWorkload): k8s.V1PodTemplateSpec {
  return {
    metadata: { labels: { app: w.name, 'chaos.tailor.dev/workload': w.name } },
    spec: {
      terminationGracePeriodSeconds: 1,
      ...(w.kind === 'CronJob' ? { restartPolicy: 'Never' } : {}),
      containers: [
        {
          name: 'app',
          image: CHAOS_IMAGE,
          imagePullPolicy: 'Never',
          command: ['sh', '-c', USAGE_SCRIPT],
          env: [{ name: 'LEVELS', value: `/levels/${w.name}` }],
          resources: resources(w),
          resizePolicy: [
            { resourceName: 'cpu', restartPolicy: 'NotRequired' },
            { resourceName: 'memory', restartPolicy: w.memoryRestarts ? 'RestartContainer' : 'NotRequired' },
          ],
          volumeMounts: [{ name: 'levels', mountPath: '/levels', readOnly: true }],
        },
      ],
      volumes: [{ name: 'levels', configMap: { name: LEVELS_CONFIGMAP, optional: true } }],
    },
  };
}

/** The workload's controller object (Deployment, StatefulSet or CronJob). */
export function controller(w: ChaosWorkload, namespace: string): k8s.KubernetesObject & { spec: unknown } {
  const metadata = { name: w.name, namespace, labels: { app: w.name } };
  const selector = { matchLabels: { app: w.name } };
  if (w.kind === 'CronJob') {
    return {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata,
      spec: {
        schedule: '*/2 * * * *',
        concurrencyPolicy: 'Replace',
        jobTemplate: { spec: { activeDeadlineSeconds: 100, backoffLimit: 0, template: podTemplate(w) } },
      },
    };
  }
  if (w.kind === 'StatefulSet') {
    return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata, spec: { serviceName: w.name, replicas: w.replicas, selector, template: podTemplate(w) } };
  }
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec: { replicas: w.replicas, selector, template: podTemplate(w) } };
}

/** The workload's VPA: its mode, the tight bounds, its annotations. */
export function vpaFor(w: ChaosWorkload, namespace: string): VerticalPodAutoscaler {
  const apiVersion = w.kind === 'CronJob' ? 'batch/v1' : 'apps/v1';
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: w.name, namespace, ...(w.defaultPace ? {} : { annotations: { ...(w.annotations ?? LANE_PACE) } }) },
    spec: {
      targetRef: { apiVersion, kind: w.kind, name: w.name },
      updatePolicy: { updateMode: w.mode, minReplicas: 1 },
      resourcePolicy: {
        containerPolicies: [
          {
            containerName: '*',
            minAllowed: { ...MIN_ALLOWED },
            maxAllowed: { ...MAX_ALLOWED },
            ...(w.qosEdge ? { controlledResources: ['cpu' as const], controlledValues: 'RequestsOnly' as const } : {}),
          },
        ],
      },
    },
  };
}

/** Everything else a workload needs: its PDB, its HPA. */
export function extras(w: ChaosWorkload, namespace: string): k8s.KubernetesObject[] {
  const out: k8s.KubernetesObject[] = [];
  if (w.pdbMinAvailable !== undefined) {
    out.push({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: w.name, namespace },
      spec: { minAvailable: w.pdbMinAvailable, selector: { matchLabels: { app: w.name } } },
    } as k8s.V1PodDisruptionBudget);
  }
  if (w.hpa) {
    out.push({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: w.name, namespace },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: w.name },
        minReplicas: 2,
        maxReplicas: 4,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
      },
    } as k8s.V2HorizontalPodAutoscaler);
  }
  return out;
}

/** How many pods the workloads start with (the CronJob's counts one, while its Job runs). */
export function podCount(workloads: readonly ChaosWorkload[] = CHAOS_WORKLOADS): number {
  return workloads.reduce((n, w) => n + w.replicas, 0);
}
