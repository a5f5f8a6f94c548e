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
 *   jvm    Guaranteed at 512Mi, a JVM by its env (JAVA_TOOL_OPTIONS=-Xmx128m: heap 128Mi + 256Mi
 *          overhead = a 384Mi floor), memory RestartContainer, restarts allowed; its VPA's
 *          maxAllowed memory 200Mi puts the upper bound below 512Mi, so memory is lowered with a
 *          restart: the step would allow 256Mi (half), the runtime floor holds it at 384Mi.
 *   pace   Guaranteed at 50m; its VPA's minAllowed cpu 200m lifts the lower bound above it, and its
 *          annotations pace the raise: at most +50% a change (50m -> 75m -> 113m ...), 20 s
 *          between two changes. It carries the closed disruption window too: in-place cpu changes
 *          that restart nothing go on while the window is closed.
 *   window Guaranteed at 20m and 64Mi like cache (cpu NotRequired, memory RestartContainer, restarts
 *          allowed), both controlled, its VPA's minAllowed cpu 40m, with a disruption window that
 *          is closed now (an hour 12 h away, UTC): the cpu raise restarts nothing and goes on in
 *          place at once (20m -> 40m, the limit with the request); the memory raise needs a restart
 *          and waits, the pod is not restarted, the VPA says why in its WaitingForDisruptionWindow
 *          condition. Its cooldown is 20 s: during the cooldown after the cpu change the pod waits
 *          for that, and the condition is lifted until the next loop after it.
 *   warn   writes 80Mi into a memory-backed emptyDir (tmpfs, charged to the container's cgroup)
 *          under a 100Mi limit and holds it (80%: above the 75% warning, below 85%); its VPA is
 *          Off: Tailor only warns (MemoryHigh Events on the pod and the VPA).
 *
 * The demo lowers web and cache instead; the lane cannot: with minutes of history the upper bounds
 * are still wide (x(1 + 1/confidence)), so only requests below the lower bound are acted on — on
 * kube-sim the demo backfills days of history to get there.
 */
import type * as k8s from '@kubernetes/client-node';
import { BUSYBOX_IMAGE } from './lane-cluster.ts';
import { ALLOW_RESTART_ANNOTATION } from '../../src/updater/annotations.ts';
import { COOLDOWN_ANNOTATION, MAX_INCREASE_ANNOTATION } from '../../src/policy/annotations/pace-annotations.ts';
import { DISRUPTION_WINDOW_TIMEZONE_ANNOTATION, DISRUPTION_WINDOWS_ANNOTATION } from '../../src/policy/annotations/window-annotations.ts';

/** Names of the lane's scenarios (each a Deployment and a VPA of that name). */
export const SCENARIOS = ['web', 'cache', 'batch', 'leaky', 'boot', 'jvm', 'pace', 'window', 'warn'] as const;
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
/** jvm's memory (request = limit) at the start, its heap flag, and the floor Tailor must hold: 128Mi + max(25%, 256Mi). */
export const JVM_MEMORY = '512Mi';
export const JVM_OPTIONS = '-Xmx128m';
export const JVM_FLOOR_BYTES = 384 * 2 ** 20;
/** pace's cpu (request = limit) at the start, its VPA's minAllowed, and its pace annotations. */
export const PACE_CPU = '50m';
export const PACE_MIN_CPU = '200m';
export const PACE_MAX_INCREASE = 0.5;
export const PACE_COOLDOWN_SECONDS = 20;
/** window's cpu (request = limit) at the start and its VPA's minAllowed cpu: one in-place step (x2). */
export const WINDOW_CPU = '20m';
export const WINDOW_MIN_CPU = '40m';
export const WINDOW_COOLDOWN_SECONDS = 20;
/** A disruption window closed for the next 12 hours: the hour 12 h from now, UTC. */
export const CLOSED_WINDOW = `* ${(new Date().getUTCHours() + 12) % 24} * * *`;
const WINDOW = { [DISRUPTION_WINDOWS_ANNOTATION.key]: CLOSED_WINDOW, [DISRUPTION_WINDOW_TIMEZONE_ANNOTATION.key]: 'UTC' };
/** warn's memory limit and what it holds in its memory-backed emptyDir, MiB. */
export const WARN_LIMIT_MIB = 100;
export const WARN_FILL_MIB = 80;

interface Spec {
  command: string[];
  requests: Record<string, string>;
  limits?: Record<string, string>;
  resizePolicy: k8s.V1ContainerResizePolicy[];
  gracePeriod: number;
  readinessProbe?: k8s.V1Probe;
  env?: k8s.V1EnvVar[];
  memoryVolume?: string;
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
    resizePolicy: [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
    ],
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
  jvm: {
    command: ['sleep', '3600'],
    env: [{ name: 'JAVA_TOOL_OPTIONS', value: JVM_OPTIONS }],
    requests: { cpu: '20m', memory: JVM_MEMORY },
    limits: { cpu: '20m', memory: JVM_MEMORY },
    resizePolicy: [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
    ],
    gracePeriod: 0,
  },
  pace: {
    command: ['sleep', '3600'],
    requests: { cpu: PACE_CPU, memory: '32Mi' },
    limits: { cpu: PACE_CPU, memory: '32Mi' },
    resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
    gracePeriod: 0,
  },
  window: {
    command: ['sleep', '3600'],
    requests: { cpu: WINDOW_CPU, memory: '64Mi' },
    limits: { cpu: WINDOW_CPU, memory: '64Mi' },
    resizePolicy: [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'memory', restartPolicy: 'RestartContainer' },
    ],
    gracePeriod: 0,
  },
  warn: {
    command: ['sh', '-c', `dd if=/dev/zero of=/fill/hold bs=1048576 count=${WARN_FILL_MIB} && exec sleep 3600`],
    requests: { cpu: '10m', memory: `${WARN_LIMIT_MIB}Mi` },
    limits: { memory: `${WARN_LIMIT_MIB}Mi` },
    resizePolicy: [{ resourceName: 'memory', restartPolicy: 'NotRequired' }],
    gracePeriod: 0,
    memoryVolume: '/fill',
  },
};

/**
 * A Deployment of one busybox pod whose only container is `app` (the lane's image, never pulled):
 * `container` adds to the container, `pod` to the pod spec.
 */
export function busyboxDeployment(
  name: string,
  container: Omit<k8s.V1Container, 'name' | 'image'>,
  pod: Omit<k8s.V1PodSpec, 'containers'> = {},
): k8s.V1Deployment {
  const labels = { app: name };
  return {
    metadata: { name, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { ...pod, containers: [{ name: 'app', image: BUSYBOX_IMAGE, imagePullPolicy: 'Never', ...container }] } },
    },
  };
}

/** The scenario's Deployment (one replica, container `app`). */
export function scenarioDeployment(name: ScenarioName): k8s.V1Deployment {
  const s = SPECS[name];
  return busyboxDeployment(
    name,
    {
      command: s.command,
      resources: { requests: s.requests, ...(s.limits ? { limits: s.limits } : {}) },
      resizePolicy: s.resizePolicy,
      ...(s.readinessProbe ? { readinessProbe: s.readinessProbe } : {}),
      ...(s.env ? { env: s.env } : {}),
      ...(s.memoryVolume ? { volumeMounts: [{ name: 'fill', mountPath: s.memoryVolume }] } : {}),
    },
    {
      terminationGracePeriodSeconds: s.gracePeriod,
      ...(s.memoryVolume ? { volumes: [{ name: 'fill', emptyDir: { medium: 'Memory' } }] } : {}),
    },
  );
}

/** The scenario's VPA (InPlaceOrRecreate but warn's Off, one controlled resource each, as in the demo). */
export function scenarioVpa(name: ScenarioName): Record<string, unknown> {
  const policy: Record<ScenarioName, Record<string, unknown>> = {
    web: { containerName: 'app', controlledResources: ['cpu'] },
    cache: { containerName: 'app', controlledResources: ['memory'] },
    batch: { containerName: 'app', controlledResources: ['cpu'], minAllowed: { cpu: BATCH_MIN_CPU } },
    leaky: { containerName: 'app', controlledResources: ['memory'], minAllowed: { memory: '256Mi' } },
    boot: { containerName: 'app', controlledResources: ['cpu'], minAllowed: { cpu: BOOT_CPU }, maxAllowed: { cpu: BOOT_CPU } },
    jvm: { containerName: 'app', controlledResources: ['memory'], maxAllowed: { memory: '200Mi' } },
    pace: { containerName: 'app', controlledResources: ['cpu'], minAllowed: { cpu: PACE_MIN_CPU } },
    window: { containerName: 'app', controlledResources: ['cpu', 'memory'], minAllowed: { cpu: WINDOW_MIN_CPU } },
    warn: { containerName: 'app', controlledResources: ['memory'] },
  };
  const annotations: Partial<Record<ScenarioName, Record<string, string>>> = {
    cache: { [ALLOW_RESTART_ANNOTATION]: 'true' },
    boot: BOOT_BOOST,
    jvm: { [ALLOW_RESTART_ANNOTATION]: 'true' },
    pace: { [MAX_INCREASE_ANNOTATION.key]: `${PACE_MAX_INCREASE * 100}%`, [COOLDOWN_ANNOTATION.key]: `${PACE_COOLDOWN_SECONDS}s`, ...WINDOW },
    window: { [ALLOW_RESTART_ANNOTATION]: 'true', [COOLDOWN_ANNOTATION.key]: `${WINDOW_COOLDOWN_SECONDS}s`, ...WINDOW },
  };
  return {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name, ...(annotations[name] ? { annotations: annotations[name] } : {}) },
    spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      updatePolicy: { updateMode: name === 'warn' ? 'Off' : 'InPlaceOrRecreate', minReplicas: 1 },
      resourcePolicy: { containerPolicies: [policy[name]] },
    },
  };
}
