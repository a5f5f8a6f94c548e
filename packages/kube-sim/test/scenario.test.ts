import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario, ScenarioError, defaultScenario } from '../src/scenario.ts';
import { workloadObject, nodeObject } from '../src/scenario-objects.ts';

const good = `
serverVersion: "1.33"
speed: 60
seed: 7
actuationDelay: 5s
nodes:
  - name: big
    cpu: "8"
    memory: 32Gi
  - name: worker
    count: 2
    resizeSupport: false
workloads:
  - kind: Deployment
    name: web
    namespace: shop
    replicas: 3
    containers:
      - name: app
        image: nginx
        requests: {cpu: 250m, memory: 256Mi}
        limits: {cpu: 500m, memory: 512Mi}
        resizePolicy: {memory: RestartContainer}
        usage: {cpu: "diurnal(100m, 400m)", memory: "leak(200Mi, 5Mi/h)"}
faults:
  - verbs: [patch]
    resources: [pods]
    subresources: [resize]
    error: 429
    rate: 0.5
    latency: 200ms
`;

test('a scenario parses into nodes, workloads and faults', () => {
  const s = parseScenario(good);
  assert.equal(s.serverVersion, '1.33');
  assert.equal(s.speed, 60);
  assert.equal(s.actuationDelayMs, 5000);
  assert.deepEqual(
    s.nodes.map((n) => [n.name, n.resizeSupport]),
    [
      ['big', true],
      ['worker-1', false],
      ['worker-2', false],
    ],
  );
  assert.deepEqual(s.faults, [{ verbs: ['patch'], resources: ['pods'], subresources: ['resize'], rate: 0.5, latencyMs: 200, error: 429 }]);
  const d = workloadObject(s.workloads[0]!) as {
    kind: string;
    metadata: { namespace: string };
    spec: { replicas: number; template: { metadata: { annotations: Record<string, string> }; spec: { containers: Array<{ resizePolicy: unknown }> } } };
  };
  assert.equal(d.kind, 'Deployment');
  assert.equal(d.spec.replicas, 3);
  assert.equal(d.metadata.namespace, 'shop');
  assert.deepEqual(JSON.parse(d.spec.template.metadata.annotations['tailor.dev/sim-usage']!), {
    app: { cpu: 'diurnal(100m, 400m)', memory: 'leak(200Mi, 5Mi/h)' },
  });
  assert.deepEqual(d.spec.template.spec.containers[0]!.resizePolicy, [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }]);
});

// prettier-ignore: one row per line, read as a table
const bad: Array<[string, RegExp]> = [
  ['nodes: [{name: Big}]', /^nodes\[0\]\.name: "Big" is not a valid node name/],
  ['nodes: [{name: a, cpu: lots}]', /^nodes\[0\]\.cpu: "lots" is not a quantity/],
  ['workloads: [{name: w, containers: [{name: c, usage: {cpu: "diurnal(1)"}}]}]', /^workloads\[0\]\.containers\[0\]\.usage\.cpu: diurnal needs 2 values/],
  [
    'workloads: [{kind: CronJob, name: w, containers: [{name: c}]}]',
    /^workloads\[0\]\.kind: must be one of Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, Pod/,
  ],
  ['workloads: [{name: w, containers: []}]', /^workloads\[0\]\.containers: needs at least one container/],
  ['workloads: [{name: w, replicas: -1, containers: [{name: c}]}]', /^workloads\[0\]\.replicas: must be a number >= 0/],
  ['faults: [{error: 404}]', /^faults\[0\]\.error: must be one of 500, 429, 409, 410/],
  ['faults: [{latency: soon}]', /^faults\[0\]\.latency: "soon" is not a duration/],
  ['serverVersion: "1.30"', /^serverVersion: unsupported server version "1.30"/],
  ['nodez: []', /^scenario\.nodez: unknown field/],
  ['nodes: [{name: a}, {name: a}]', /duplicate node name "a"/],
  ['{', /scenario is not valid YAML/],
];
for (const [text, message] of bad) {
  test(`a bad scenario is rejected with its path: ${text}`, () => {
    assert.throws(
      () => parseScenario(text),
      (err: unknown) => err instanceof ScenarioError && message.test(err.message),
    );
  });
}

test("a workload's annotations go on its pods (the pod template), beside the usage annotation", () => {
  const s = parseScenario(
    'workloads: [{name: boot, annotations: {tailor.dev/sim-startup-cpu-seconds: "15"}, containers: [{name: app, usage: {cpu: "steady(100m)"}}]}]',
  );
  const d = workloadObject(s.workloads[0]!) as { spec: { template: { metadata: { annotations: Record<string, string> } } } };
  assert.deepEqual(Object.keys(d.spec.template.metadata.annotations).sort(), ['tailor.dev/sim-startup-cpu-seconds', 'tailor.dev/sim-usage']);
  assert.equal(d.spec.template.metadata.annotations['tailor.dev/sim-startup-cpu-seconds'], '15');
  assert.throws(() => parseScenario('workloads: [{name: w, annotations: [a], containers: [{name: c}]}]'), /^ScenarioError: workloads\[0\]\.annotations/);
});

test('the default scenario has three ready nodes and no workloads', () => {
  const s = defaultScenario();
  assert.equal(s.nodes.length, 3);
  assert.equal(s.workloads.length, 0);
  const n = nodeObject(s.nodes[0]!, 0);
  assert.deepEqual(n.status?.allocatable, { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' });
  assert.equal(n.status?.conditions?.[0]?.type, 'Ready');
});
