/**
 * The chaos lane's workloads cover what issue 31 lists, and their VPAs pass Tailor's own validation
 * and govern what they name: every update mode, all three QoS classes, PDBs, a StatefulSet, a
 * CronJob, an HPA, restarts for memory, per-workload pace, OOM-prone ones; at least 30 workloads.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { validateVpa } from '../../src/api/validate-vpa.ts';
import { computePodQos } from '../../src/policy/qos.ts';
import { BYSTANDER, CHAOS_WORKLOADS, controller, extras, podCount, vpaFor } from './workloads.ts';
import { planPodResources } from '../../src/policy/pod-resources.ts';
import { podQosClass } from '../../src/policy/qos.ts';

const NS = 'chaos';

test('30+ workloads, 60 pods, every update mode and QoS class, and each kind of object issue 31 names', () => {
  assert.ok(CHAOS_WORKLOADS.length >= 30);
  assert.equal(new Set(CHAOS_WORKLOADS.map((w) => w.name)).size, CHAOS_WORKLOADS.length, 'unique names');
  assert.equal(podCount(), 61);
  assert.deepEqual(new Set(CHAOS_WORKLOADS.map((w) => w.mode)), new Set(['Off', 'Initial', 'Recreate', 'InPlaceOrRecreate', 'InPlace', 'Auto']));
  assert.deepEqual(new Set(CHAOS_WORKLOADS.map((w) => w.kind)), new Set(['Deployment', 'StatefulSet', 'CronJob']));
  const extra = CHAOS_WORKLOADS.flatMap((w) => extras(w, NS)).map((o) => o.kind);
  assert.ok(extra.filter((k) => k === 'PodDisruptionBudget').length >= 8);
  assert.equal(extra.filter((k) => k === 'HorizontalPodAutoscaler').length, 1);
  assert.ok(CHAOS_WORKLOADS.some((w) => w.replicas === 1 && w.kind === 'Deployment'));
  assert.ok(CHAOS_WORKLOADS.some((w) => w.memoryRestarts));
  assert.ok(CHAOS_WORKLOADS.some((w) => w.oomProne));
  assert.ok(CHAOS_WORKLOADS.some((w) => w.annotations?.['tailor.dev/cooldown']));
  // The lane's pace where a workload sets none; the default pace kept on some.
  assert.deepEqual(
    vpaFor(
      CHAOS_WORKLOADS.find((w) => w.name === 'web-1')!,
      'chaos',
    ).metadata?.annotations,
    { 'tailor.dev/cooldown': '3m' },
  );
  assert.deepEqual(
    vpaFor(
      CHAOS_WORKLOADS.find((w) => w.name === 'paced-2')!,
      'chaos',
    ).metadata?.annotations,
    {
      'tailor.dev/max-increase': '50%',
      'tailor.dev/max-decrease': '25%',
    },
  );
  assert.equal(
    vpaFor(
      CHAOS_WORKLOADS.find((w) => w.name === 'besteffort')!,
      'chaos',
    ).metadata?.annotations,
    undefined,
  );
});

test("each pod template has the QoS class the workload says, and every VPA passes Tailor's validation and names its controller", () => {
  const classes = new Set<string>();
  for (const w of CHAOS_WORKLOADS) {
    const object = controller(w, NS) as {
      kind: string;
      spec: { template?: k8s.V1PodTemplateSpec; jobTemplate?: { spec: { template: k8s.V1PodTemplateSpec } } };
    };
    const template = object.spec.template ?? object.spec.jobTemplate!.spec.template;
    const qos = computePodQos({ spec: template.spec } as k8s.V1Pod);
    assert.equal(qos, w.qos, w.name);
    classes.add(qos);
    const v = vpaFor(w, NS);
    assert.equal(validateVpa(v).ok, true, `${w.name}'s VPA`);
    assert.equal(v.spec.targetRef?.kind, object.kind);
    assert.equal(template.metadata?.labels?.['chaos.tailor.dev/workload'], w.name);
  }
  assert.equal(classes.size, 3);
});

test("qos-edge sits at its QoS class's edge: Tailor's planner leaves it Burstable, where lifting the cpu request to the recommendation would make it Guaranteed", () => {
  const w = CHAOS_WORKLOADS.find((x) => x.qosEdge)!;
  const template = (controller(w, NS).spec as k8s.V1DeploymentSpec).template;
  const pod: k8s.V1Pod = { metadata: { name: 'qos-edge-0', namespace: NS }, spec: template.spec! };
  assert.equal(podQosClass(pod), 'Burstable');
  const resourcePolicy = vpaFor(w, NS).spec.resourcePolicy;
  const plan = planPodResources({ pod, resourcePolicy, recommendations: [{ containerName: 'app', target: { cpu: 40, memory: 64 * 2 ** 20 } }] });
  assert.equal(plan.changed, false, JSON.stringify(plan.reasons));
  assert.equal(plan.qosClass, 'Burstable');
  // The guard is what holds it: the cpu request capped at the limit (RequestsOnly) would equal it.
  assert.deepEqual(
    plan.containers[0]!.reasons.map((r) => r.code),
    ['RequestCappedToLimit', 'BurstableKept'],
  );
  const container = template.spec!.containers[0]!;
  assert.equal(container.resources!.limits!.cpu, '30m');
  assert.equal(container.resources!.requests!.memory, container.resources!.limits!.memory);
});

test('the bystander has no VPA and is not among the workloads with one', () => {
  assert.ok(!CHAOS_WORKLOADS.some((w) => w.name === BYSTANDER.name));
  assert.equal(controller(BYSTANDER, NS).kind, 'Deployment');
});
