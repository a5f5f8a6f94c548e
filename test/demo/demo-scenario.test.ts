import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container } from '@kubernetes/client-node';
import { podTemplate } from 'kube-sim/scenario-objects';
import { loadDemoScenario, parseDemoScenario } from '../../src/demo/demo-scenario.ts';
import { runtimeFitWarnings } from '../../src/policy/runtime-fit.ts';

test('the bundled demo scenario: five workloads with a VPA and a story each, 3 days of history, a larger node to add, boot restarted', async () => {
  const s = await loadDemoScenario();
  const names = s.cluster.workloads.map((w) => w.name);
  assert.deepEqual(names, ['web', 'cache', 'batch', 'leaky', 'boot']);
  assert.deepEqual(s.rolloutRestart, ['boot']);
  assert.deepEqual(s.cluster.workloads[4]!.annotations, { 'tailor.dev/sim-startup-cpu-seconds': '15' });
  const vpas = s.cluster.objects.filter((o) => o['kind'] === 'VerticalPodAutoscaler').map((o) => (o['spec'] as { targetRef: { name: string } }).targetRef.name);
  assert.deepEqual(vpas, names);
  assert.deepEqual(Object.keys(s.stories), names);
  assert.deepEqual({ days: s.history.days, intervalMs: s.history.intervalMs }, { days: 3, intervalMs: 30_000 });
  assert.deepEqual(s.history.usage, { leaky: { app: { memory: 'steady(190Mi, noise=0.05)' } } });
  // The batch pod's ~2.2-core recommendation fits no small node (2 cpu) but the added one (8).
  assert.deepEqual(
    s.cluster.nodes.map((n) => `${n.name}:${n.cpu}`),
    ['small-1:2', 'small-2:2'],
  );
  assert.equal(s.scaleUp?.name, 'large-1');
  assert.equal(s.scaleUp?.cpu, '8');
});

test('demo scenario errors name the field', () => {
  const base = 'cluster: {workloads: [{kind: Deployment, name: web, containers: [{name: app}]}]}\n';
  const cases: [string, RegExp][] = [
    ['nodes: []', /^demo\.nodes: unknown field/],
    ['cluster: {workloads: [{kind: Nope, name: a, containers: [{name: app}]}]}', /^cluster\.workloads\[0\]\.kind/],
    [`${base}history: {days: 40}`, /^history\.days: at most 30/],
    [`${base}history: {interval: 1m}`, /^history\.interval: must be between 1s and 30s/],
    [`${base}history: {usage: {db: {app: {cpu: 1}}}}`, /^history\.usage\.db: no such workload/],
    [`${base}history: {usage: {web: {side: {cpu: 1}}}}`, /^history\.usage\.web\.side: workload web has no container side/],
    [`${base}history: {usage: {web: {app: {cpu: "diurnal(1)"}}}}`, /^history\.usage\.web\.app\.cpu: diurnal needs 2 values/],
    [`${base}scaleUp: {node: {name: big, cpu: lots}}`, /^scaleUp\.node\.cpu: "lots" is not a quantity/],
    [`cluster: {nodes: [{name: big}]}\nscaleUp: {node: {name: big}}`, /^scaleUp\.node\.name: big is already a cluster node/],
    [`${base}rolloutRestart: web`, /^rolloutRestart: must be a list of Deployment names/],
    [`${base}rolloutRestart: [db]`, /^rolloutRestart\[0\]: "db" is not a Deployment in cluster\.workloads/],
  ];
  for (const [text, message] of cases) assert.throws(() => parseDemoScenario(text), { message }, text);
});

test("the demo's own workloads follow Tailor's resizePolicy advice: no runtime-fit warning for any of them", async () => {
  // The closing audit and the updater warn about a container whose memory resizePolicy does not
  // fit its runtime (a JVM with memory NotRequired); the demo should not be the first to get one.
  const s = await loadDemoScenario();
  for (const w of s.cluster.workloads) assert.deepEqual(runtimeFitWarnings(podTemplate(w).spec.containers as V1Container[]), [], w.name);
});
