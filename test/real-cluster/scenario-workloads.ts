/**
 * The demo's four workloads (src/demo/demo-scenario.yaml) made real for the lane: busybox
 * containers whose usage is real (a CPU loop, a memory hog the kernel OOM-kills) and VPAs chosen so
 * that each tells one story within a couple of minutes of real usage, without any backfilled
 * history:
 *
 *   web    a CPU loop capped by its limit (400m) against a 25m request: after a minute or two of
 *          samples the lower bound passes 25m; raised in place (resizePolicy cpu NotRequired), the limit
 *          with it, so the cgroup's cpu.cfs_quota_us changes and nothing restarts.
 *   cache  Guaranteed at 64Mi, memory resizePolicy RestartContainer, restarts allowed by the VPA's
 *          annotation: the recommendation's memory floor (upstream's 250Mi per pod) is above 64Mi,
 *          so memory is raised (at most x2 per change: 128Mi) and the container restarts once.
 *   batch  1200m requested; its VPA's minAllowed cpu 2500m stands for a workload that needs more
 *          than a node (no real usage can exceed the 2 cores of this machine): the in-place resize
 *          (x2: 2400m) is Infeasible on a 2-cpu node, the updater evicts, and the new pod gets the
 *          recommendation from the admission webhook (it then waits for a larger node, as on
 *          kube-sim before the demo's scale-up).
 *   leaky  300Mi limit; after 20 s `dd` allocates a 400 MB buffer and the kernel OOM-kills it; the
 *          kubelet restarts it at once (the first time), and while it runs the updater raises memory
 *          in place (x1.5, or the recommendation bumped by the kill) and the next start survives.
 *          (Caught waiting in CrashLoopBackOff, the pod is recreated instead: decision 0201.)
 *   boot   Guaranteed at 200m (the VPA's min and max cpu, so the recommendation is 200m) with a
 *          CPU-bound start-up (8 s of a busy loop before its readiness file exists); its VPA asks for
 *          the start-up boost `2x` until Ready + 10 s. The pod made before Tailor is unchanged; its
 *          replacement is admitted at 400m (request and limit) and given 200m back in place.
 *
 * The demo lowers web and cache instead; the lane cannot: with minutes of history the upper bounds
 * are still wide (x(1 + 1/confidence)), so only requests below the lower bound are acted on — on
 * kube-sim the demo backfills days of history to get there.
 */
import type * as k8s from '@kubernetes/client-node';
import { BUSYBOX_IMAGE } from './lane-cluster.ts';
import { ALLOW_RESTART_ANNOTATION } from '../../src/updater/annotations.ts';

/** Names of the lane's scenarios (each a Deployment and a VPA of that name). */
export const SCENARIOS = ['web', 'cache', 'batch', 'leaky', 'boot'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** The memory leaky's hog allocates, in bytes (dd's buffer): more than 300Mi, less than 450Mi. */
export const LEAKY_HOG_BYTES = 400_000_000;
/** What leaky prints when its hog ran to the end (the raised limit held). */
export const LEAKY_SURVIVED = 'hog-survived';
/**
 * web's cpu request: the per-pod floor of the recommendation (25m), so only a lower bound raised by
 * real usage above it triggers the resize (strictly below the lower bound).
 */
export const WEB_CPU_REQUEST = '25m';
/** batch's minAllowed cpu: more than a node of this machine has. */
export const BATCH_MIN_CPU = '2500m';
/** boot's steady cpu (request = limit, and its VPA's min = max) and its boost. */
export const BOOT_CPU = '200m';
export const BOOT_BOOST = { 'tailor.dev/startup-cpu-boost': '2x', 'tailor.dev/startup-cpu-boost-duration': 'ready+10s' };

interface Spec {
  command: string[];
  requests: Record<string, string>;
  limits?: Record<string, string>;
  resizePolicy: k8s.V1ContainerResizePolicy[];
  gracePeriod: number;
  readinessProbe?: k8s.V1Probe;
}

const SPECS: Record<ScenarioName, Spec> = {
  web: {
    command: ['sh', '-c', 'while :; do :; done'],
    requests: { cpu: WEB_CPU_REQUEST, memory: '32Mi' },
    limits: { cpu: '400m', memory: '32Mi' },
    resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
    gracePeriod: 0,
  },
  cache: {
    command: ['sleep', '3600'],
    requests: { cpu: '100m', memory: '64Mi' },
    limits: { cpu: '100m', memory: '64Mi' },
    resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }],
    gracePeriod: 0,
  },
  batch: {
    command: ['sleep', '3600'],
    requests: { cpu: '1200m', memory: '32Mi' },
    resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
    // sleep ignores SIGTERM: the evicted pod stays Terminating for 5 s, long enough to read its
    // DisruptionTarget condition.
    gracePeriod: 5,
  },
  leaky: {
    command: ['sh', '-c', `sleep 20; dd if=/dev/zero of=/dev/null bs=${LEAKY_HOG_BYTES} count=1 || exit 137; echo ${LEAKY_SURVIVED}; exec sleep 3600`],
    requests: { cpu: '50m', memory: '300Mi' },
    limits: { memory: '300Mi' },
    resizePolicy: [{ resourceName: 'memory', restartPolicy: 'NotRequired' }],
    gracePeriod: 0,
  },
  boot: {
    command: ['sh', '-c', 'end=$(($(date +%s) + 8)); while [ "$(date +%s)" -lt "$end" ]; do :; done; touch /tmp/ready; exec sleep 3600'],
    requests: { cpu: BOOT_CPU, memory: '32Mi' },
    limits: { cpu: BOOT_CPU, memory: '32Mi' },
    resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
    gracePeriod: 0,
    readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 1 },
  },
};

/** The scenario's Deployment (one replica, container `app`). */
export function scenarioDeployment(name: ScenarioName): k8s.V1Deployment {
  const s = SPECS[name];
  const labels = { app: name };
  return {
    metadata: { name, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: s.gracePeriod,
          containers: [{
            name: 'app',
            image: BUSYBOX_IMAGE,
            imagePullPolicy: 'Never',
            command: s.command,
            resources: { requests: s.requests, ...(s.limits ? { limits: s.limits } : {}) },
            resizePolicy: s.resizePolicy,
            ...(s.readinessProbe ? { readinessProbe: s.readinessProbe } : {}),
          }],
        },
      },
    },
  };
}

/** The scenario's VPA (InPlaceOrRecreate, one controlled resource each, as in the demo). */
export function scenarioVpa(name: ScenarioName): Record<string, unknown> {
  const policy: Record<ScenarioName, Record<string, unknown>> = {
    web: { containerName: 'app', controlledResources: ['cpu'] },
    cache: { containerName: 'app', controlledResources: ['memory'] },
    batch: { containerName: 'app', controlledResources: ['cpu'], minAllowed: { cpu: BATCH_MIN_CPU } },
    leaky: { containerName: 'app', controlledResources: ['memory'], minAllowed: { memory: '256Mi' } },
    boot: { containerName: 'app', controlledResources: ['cpu'], minAllowed: { cpu: BOOT_CPU }, maxAllowed: { cpu: BOOT_CPU } },
  };
  const annotations: Partial<Record<ScenarioName, Record<string, string>>> = { cache: { [ALLOW_RESTART_ANNOTATION]: 'true' }, boot: BOOT_BOOST };
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name, ...(annotations[name] ? { annotations: annotations[name] } : {}) },
    spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      updatePolicy: { updateMode: 'InPlaceOrRecreate', minReplicas: 1 },
      resourcePolicy: { containerPolicies: [policy[name]] },
    },
  };
}
