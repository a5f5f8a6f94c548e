/**
 * Bad input at volume for the chaos lane (issue 31 item 5): 200 malformed or hostile VPAs, applied
 * in the middle of a run beside the lane's own. Each must be refused (by the API server's schema or
 * Tailor's validating webhook) or, where the API server accepts it, reported on its own object (a
 * condition that names the problem) while the rest of the cluster keeps being served. Seven kinds:
 * - `wrong-type`: a field of the wrong type or outside the CRD's enums and minimums (40);
 * - `semantic`: well-typed but wrong, what only Tailor's validation knows (min above max, a
 *   duplicate container policy, an unknown resource, ...) (30);
 * - `huge`: 240 KiB of annotations, 300 container policies, a 253-character name, quantities at
 *   and past int64 (25);
 * - `nested`: unknown fields nested 100 deep, annotations holding JSON nested 1,000 deep (15);
 * - `missing-target`: targets that do not exist or cannot be scaled (a Node, a Namespace, the VPA
 *   itself, a kind no API serves) (40);
 * - `annotations`: Tailor's own annotations with bad values or unknown keys, each on a VPA of a
 *   Deployment of its own (at 0 replicas) (40);
 * - `cycle`: ReplicaSets that own each other (the API server does not forbid it), one pod each, a
 *   VPA (mode Off) on each: valid, so it must be served (a recommendation), not refused (10).
 * Pure: the objects, in the order they are applied.
 */
import type * as k8s from '@kubernetes/client-node';
import { CHAOS_IMAGE } from './workloads.ts';

export type HostileKind = 'wrong-type' | 'semantic' | 'huge' | 'nested' | 'missing-target' | 'annotations' | 'cycle';

/** One hostile VPA, with what must be made before it (its target). */
export interface HostileCase {
  readonly name: string;
  readonly kind: HostileKind;
  /** What is wrong with it, for the report. */
  readonly what: string;
  /** The VPA as sent (plain JSON: wrong types included). */
  readonly vpa: Record<string, unknown>;
  /** Objects created before it (a Deployment for `annotations`; the ReplicaSets of a `cycle`). */
  readonly before?: readonly k8s.KubernetesObject[];
  /** `served`: valid, so it must get a recommendation; `refused-or-reported`: the others. */
  readonly expect: 'refused-or-reported' | 'served';
}

const GROUP = 'autoscaling.k8s.io/v1';

/** A VPA of `name` on `target`, with a container policy, as a plain object to mutate. */
function vpa(namespace: string, name: string, target: Record<string, unknown>, extra: { annotations?: Record<string, string> } = {}): Record<string, unknown> {
  return {
    apiVersion: GROUP,
    kind: 'VerticalPodAutoscaler',
    metadata: { name, namespace, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: {
      targetRef: target,
      updatePolicy: { updateMode: 'InPlaceOrRecreate' },
      resourcePolicy: { containerPolicies: [{ containerName: '*', minAllowed: { cpu: '10m' }, maxAllowed: { cpu: '1' } }] },
    },
  };
}

const missing = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: `no-such-${name}` });

/** Sets `path` (dotted, `0` for an array index) of `object` to `value`. */
function set(object: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.');
  let at = object;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[keys.at(-1)!] = value;
  return object;
}

/** `depth` levels of `{ a: { a: ... } }` ending in `leaf`. */
function nest(depth: number, leaf: unknown): unknown {
  let out = leaf;
  for (let i = 0; i < depth; i++) out = { a: out };
  return out;
}

const WRONG_TYPES: ReadonlyArray<[string, readonly unknown[]]> = [
  ['spec.updatePolicy.updateMode', [7, true, {}, 'Sometimes']],
  ['spec.targetRef', ['web', 5, [], true]],
  ['spec.resourcePolicy.containerPolicies', ['all', 5, { containerName: 'x' }, true]],
  ['spec.resourcePolicy.containerPolicies.0.minAllowed', ['30m', [1], 5, true]],
  ['spec.resourcePolicy.containerPolicies.0.minAllowed.cpu', ['lots', '1.2.3', {}, '--1']],
  ['spec.updatePolicy.minReplicas', ['two', 1.5, 0, -3]],
  ['spec.resourcePolicy.containerPolicies.0.controlledValues', [3, 'Everything', {}, 'requestsonly']],
  ['spec.resourcePolicy.containerPolicies.0.mode', [1, 'On', [], 'auto']],
  ['spec.recommenders', ['x', 5, [{}], [{ name: 5 }]]],
  ['spec', ['x', 5, [], true]],
];

const SEMANTIC: ReadonlyArray<[string, (v: Record<string, unknown>) => void]> = [
  [
    'cpu minAllowed above maxAllowed',
    (v) => set(v, 'spec.resourcePolicy.containerPolicies.0', { containerName: '*', minAllowed: { cpu: '2' }, maxAllowed: { cpu: '1' } }),
  ],
  [
    'memory minAllowed above maxAllowed',
    (v) => set(v, 'spec.resourcePolicy.containerPolicies.0', { containerName: '*', minAllowed: { memory: '2Gi' }, maxAllowed: { memory: '1Gi' } }),
  ],
  ['two policies for one container', (v) => set(v, 'spec.resourcePolicy.containerPolicies', [{ containerName: 'app' }, { containerName: 'app', mode: 'Off' }])],
  ['a resource Tailor does not size', (v) => set(v, 'spec.resourcePolicy.containerPolicies.0.minAllowed', { 'nvidia.com/gpu': '1' })],
  [
    'controlledResources naming an unknown resource',
    (v) => set(v, 'spec.resourcePolicy.containerPolicies.0.controlledResources', ['cpu', 'ephemeral-storage']),
  ],
  ['a negative minAllowed', (v) => set(v, 'spec.resourcePolicy.containerPolicies.0.minAllowed', { cpu: '-1' })],
  ['cpu in fractions of a millicore', (v) => set(v, 'spec.resourcePolicy.containerPolicies.0.minAllowed', { cpu: '0.0001' })],
  ['memory in fractions of a byte', (v) => set(v, 'spec.resourcePolicy.containerPolicies.0.maxAllowed', { memory: '0.5' })],
  [
    'RequestsAndLimits with mode Off',
    (v) => set(v, 'spec.resourcePolicy.containerPolicies.0', { containerName: '*', mode: 'Off', controlledValues: 'RequestsAndLimits' }),
  ],
  ['two recommenders', (v) => set(v, 'spec.recommenders', [{ name: 'default' }, { name: 'other' }])],
];

const ANNOTATIONS: ReadonlyArray<Record<string, string>> = [
  { 'tailor.dev/cooldown': 'banana' },
  { 'tailor.dev/cooldown': '-5m' },
  { 'tailor.dev/cooldown': '99999999999999h' },
  { 'tailor.dev/cooldown': '' },
  { 'tailor.dev/cooldown': '5 minutes' },
  { 'tailor.dev/max-increase': '1000000000%' },
  { 'tailor.dev/max-increase': '-50%' },
  { 'tailor.dev/max-increase': 'NaN%' },
  { 'tailor.dev/max-decrease': '150%' },
  { 'tailor.dev/max-decrease': 'half' },
  { 'tailor.dev/allow-container-restart': 'maybe' },
  { 'tailor.dev/allow-container-restart': 'TRUE!' },
  { 'tailor.dev/disruption-window': 'whenever' },
  { 'tailor.dev/disruption-window': '* * * * * * * *' },
  { 'tailor.dev/disruption-window': '99 99 * * *' },
  { 'tailor.dev/no-such-setting': 'on' },
  { 'tailor.dev/cooldwon': '5m' },
  { 'tailor.dev/startup-cpu-boost': 'lots' },
  { 'tailor.dev/startup-cpu-boost': '{"factor": "x"}' },
  { 'tailor.dev/cooldown': '\u0000\u0001\u0002' },
];

/** The 200 cases for `namespace`, each name unique and prefixed `hostile-`. */
export function hostileCases(namespace: string): HostileCase[] {
  const out: HostileCase[] = [];
  const add = (
    kind: HostileKind,
    what: string,
    v: Record<string, unknown>,
    before?: k8s.KubernetesObject[],
    expect: HostileCase['expect'] = 'refused-or-reported',
  ) => out.push({ name: (v['metadata'] as { name: string }).name, kind, what, vpa: v, ...(before ? { before } : {}), expect });

  let i = 0;
  for (const [path, values] of WRONG_TYPES) {
    for (const value of values) {
      const name = `hostile-type-${++i}`;
      add('wrong-type', `${path} = ${JSON.stringify(value)}`, set(vpa(namespace, name, missing(name)), path, value));
    }
  }
  i = 0;
  for (const [what, mutate] of SEMANTIC) {
    for (let r = 0; r < 3; r++) {
      const name = `hostile-semantic-${++i}`;
      // Each once on a missing target, twice on the lane's own workloads' names (a second VPA there must not take over).
      const target = r === 0 ? missing(name) : { apiVersion: 'apps/v1', kind: 'Deployment', name: r === 1 ? 'web-1' : 'solo-1' };
      const v = vpa(namespace, name, target);
      mutate(v);
      add('semantic', what + (r === 0 ? '' : ` (on ${target.name}, which has a VPA already)`), v);
    }
  }
  i = 0;
  const big = (n: number, size: number) => Object.fromEntries(Array.from({ length: n }, (_, k) => [`example.com/big-${k}`, 'x'.repeat(size)]));
  const hugeCases: Array<[string, (name: string) => Record<string, unknown>]> = [
    ['120 annotations of 2 KiB (240 KiB)', (n) => vpa(namespace, n, missing(n), { annotations: big(120, 2048) })],
    ['annotations of 300 KiB (past the 256 KiB limit)', (n) => vpa(namespace, n, missing(n), { annotations: big(150, 2048) })],
    [
      '300 container policies',
      (n) =>
        set(
          vpa(namespace, n, missing(n)),
          'spec.resourcePolicy.containerPolicies',
          Array.from({ length: 300 }, (_, k) => ({ containerName: `c${k}`, minAllowed: { cpu: `${k + 1}m` } })),
        ),
    ],
    ['a maxAllowed of 9Ei memory', (n) => set(vpa(namespace, n, missing(n)), 'spec.resourcePolicy.containerPolicies.0.maxAllowed', { memory: '9Ei' })],
    [
      'a maxAllowed past int64',
      (n) => set(vpa(namespace, n, missing(n)), 'spec.resourcePolicy.containerPolicies.0.maxAllowed', { cpu: '99999999999999999999999' }),
    ],
  ];
  for (const [what, make] of hugeCases) {
    for (let r = 0; r < 4; r++) add('huge', what, make(`hostile-huge-${++i}`));
  }
  for (let r = 0; r < 5; r++) {
    const name = `hostile-long-${r}-${'n'.repeat(253 - `hostile-long-${r}-`.length)}`;
    add('huge', 'a 253-character name', vpa(namespace, name, missing(`long-${r}`)));
  }
  i = 0;
  for (let r = 0; r < 5; r++) {
    const name = `hostile-nested-${++i}`;
    add(
      'nested',
      'unknown fields nested 100 deep under spec and targetRef',
      set(set(vpa(namespace, name, missing(name)), 'spec.extra', nest(100, 1)), 'spec.targetRef.deep', nest(100, 'x')),
    );
  }
  for (let r = 0; r < 5; r++) {
    const name = `hostile-nested-${++i}`;
    add(
      'nested',
      'a Tailor annotation holding JSON nested 1,000 deep',
      vpa(namespace, name, missing(name), { annotations: { 'tailor.dev/cooldown': JSON.stringify(nest(1000, 1)) } }),
    );
  }
  for (let r = 0; r < 5; r++) {
    const name = `hostile-nested-${++i}`;
    add(
      'nested',
      'container policies nested in container policies',
      set(vpa(namespace, name, missing(name)), 'spec.resourcePolicy.containerPolicies.0.containerPolicies', nest(50, [])),
    );
  }
  i = 0;
  const targets: ReadonlyArray<[string, (name: string) => Record<string, unknown>]> = [
    ['a Deployment that does not exist', (n) => missing(n)],
    ['a StatefulSet that does not exist', (n) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: `no-such-${n}` })],
    ['a CronJob that does not exist', (n) => ({ apiVersion: 'batch/v1', kind: 'CronJob', name: `no-such-${n}` })],
    ['a kind no API serves', (n) => ({ apiVersion: 'example.com/v1', kind: 'Widget', name: n })],
    ['a version apps does not serve', () => ({ apiVersion: 'apps/v9', kind: 'Deployment', name: 'web-1' })],
    ['a Node (cluster-scoped, not scalable)', () => ({ apiVersion: 'v1', kind: 'Node', name: 'tailor-node-1' })],
    ['a Namespace', () => ({ apiVersion: 'v1', kind: 'Namespace', name: namespace })],
    ['the VPA itself', (n) => ({ apiVersion: GROUP, kind: 'VerticalPodAutoscaler', name: n })],
    ['a ConfigMap (exists, not scalable)', () => ({ apiVersion: 'v1', kind: 'ConfigMap', name: 'chaos-levels' })],
    ['a name with path characters', () => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: '../../kube-system/coredns' })],
  ];
  for (const [what, target] of targets) {
    for (let r = 0; r < 4; r++) {
      const name = `hostile-target-${++i}`;
      add('missing-target', what, vpa(namespace, name, target(name)));
    }
  }
  i = 0;
  for (const annotations of ANNOTATIONS) {
    for (let r = 0; r < 2; r++) {
      const name = `hostile-annotation-${++i}`;
      const decoy = sleeper('Deployment', namespace, name, 0, { containers: [{ name: 'app', image: CHAOS_IMAGE, command: ['sleep', '3600'] }] });
      add(
        'annotations',
        Object.entries(annotations)
          .map(([k, v]) => `${k}: ${JSON.stringify(v).slice(0, 40)}`)
          .join(', '),
        vpa(namespace, name, { apiVersion: 'apps/v1', kind: 'Deployment', name }, { annotations }),
        [decoy],
      );
    }
  }
  for (let r = 1; r <= 5; r++) {
    for (const [self, other] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const name = `hostile-cycle-${r}${self}`;
      const vpaObject = set(vpa(namespace, name, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name }), 'spec.updatePolicy.updateMode', 'Off');
      add('cycle', `ReplicaSet ${name} owned by hostile-cycle-${r}${other}, which it owns`, vpaObject, [cycleReplicaSet(namespace, name)], 'served');
    }
  }
  return out;
}

/** A Deployment or ReplicaSet of `replicas` pods of `spec`, selected by `app: <name>`. */
function sleeper(kind: 'Deployment' | 'ReplicaSet', namespace: string, name: string, replicas: number, spec: k8s.V1PodSpec): k8s.KubernetesObject {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } },
  } as k8s.KubernetesObject;
}

/** A ReplicaSet of one sleeping pod; the runner makes each pair own each other once both exist. */
export function cycleReplicaSet(namespace: string, name: string): k8s.KubernetesObject {
  return sleeper('ReplicaSet', namespace, name, 1, {
    terminationGracePeriodSeconds: 1,
    containers: [
      { name: 'app', image: CHAOS_IMAGE, command: ['sleep', '3600'], resources: { requests: { cpu: '5m', memory: '16Mi' }, limits: { memory: '32Mi' } } },
    ],
  });
}

/** The other ReplicaSet of a cycle pair (`hostile-cycle-3a` → `hostile-cycle-3b`). */
export function cyclePartner(name: string): string {
  return name.endsWith('a') ? `${name.slice(0, -1)}b` : `${name.slice(0, -1)}a`;
}
