/**
 * The hostile VPAs (hostile-vpas.ts) are what item 5 of issue 31 names, 200 of them, and the judge
 * (hostile-outcome.ts) calls a case good only when it was refused or reported on its own object.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateVpa } from '../../src/api/validate-vpa.ts';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import { hostileSummary, judgeHostile, type CreateResult } from './hostile-outcome.ts';
import { cyclePartner, hostileCases, type HostileKind } from './hostile-vpas.ts';

const cases = hostileCases('chaos');

test('200 hostile VPAs of seven kinds, each name unique and a valid object name', () => {
  assert.equal(cases.length, 200);
  assert.equal(new Set(cases.map((c) => c.name)).size, 200);
  const count = (kind: HostileKind) => cases.filter((c) => c.kind === kind).length;
  assert.deepEqual(
    ['wrong-type', 'semantic', 'huge', 'nested', 'missing-target', 'annotations', 'cycle'].map((k) => count(k as HostileKind)),
    [40, 30, 25, 15, 40, 40, 10],
  );
  for (const c of cases) {
    assert.ok(c.name.length <= 253 && /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(c.name), c.name);
    assert.equal((c.vpa['metadata'] as { name: string }).name, c.name);
    assert.ok(JSON.stringify(c.vpa).length < 1_000_000, `${c.name} fits in a request`);
  }
  assert.ok(cases.some((c) => c.name.length === 253));
});

test("Tailor's own validation refuses every wrong-type and semantic case (so its webhook refuses them, or the recommender reports them)", () => {
  for (const c of cases.filter((x) => x.kind === 'wrong-type' || x.kind === 'semantic')) {
    assert.equal(validateVpa(c.vpa).ok, false, `${c.name}: ${c.what}`);
  }
});

test('the cycle cases are valid VPAs on ReplicaSets that name each other in pairs', () => {
  const cycles = cases.filter((c) => c.kind === 'cycle');
  for (const c of cycles) {
    assert.equal(validateVpa(c.vpa).ok, true, c.name);
    assert.equal(c.expect, 'served');
    assert.ok(cycles.some((x) => x.name === cyclePartner(c.name)));
    assert.equal(c.before?.[0]?.metadata?.name, c.name);
  }
  assert.equal(cyclePartner('hostile-cycle-3a'), 'hostile-cycle-3b');
  assert.equal(cyclePartner('hostile-cycle-3b'), 'hostile-cycle-3a');
});

test('the judge: refused (by the schema or by the webhook), reported by a condition, served, or silent', () => {
  const [typed, semantic, annotated, cycle, target] = ['wrong-type', 'semantic', 'annotations', 'cycle', 'missing-target'].map((k) =>
    cases.find((c) => c.kind === k)!,
  ) as [(typeof cases)[0], (typeof cases)[0], (typeof cases)[0], (typeof cases)[0], (typeof cases)[0]];
  const vpaWith = (conditions: object[], recommendation = false) =>
    ({
      status: { conditions, ...(recommendation ? { recommendation: { containerRecommendations: [{ containerName: 'app', target: { cpu: '10m' } }] } } : {}) },
    }) as unknown as VerticalPodAutoscaler;
  const created = new Map<string, CreateResult>([
    [typed.name, { status: 422, message: 'VerticalPodAutoscaler.autoscaling.k8s.io "x" is invalid: spec.updatePolicy.updateMode: Invalid value' }],
    [semantic.name, { status: 400, message: 'admission webhook "vpa.tailor.dev" denied the request: minAllowed above maxAllowed' }],
    [annotated.name, { status: 201, message: 'created' }],
    [cycle.name, { status: 201, message: 'created' }],
    [target.name, { status: 201, message: 'created' }],
  ]);
  const vpas = new Map<string, VerticalPodAutoscaler>([
    // NoPodsMatched alone is not about the annotation: its Deployment is at 0 replicas.
    [annotated.name, vpaWith([{ type: 'NoPodsMatched', status: 'True', reason: 'NoPodsMatched' }])],
    [cycle.name, vpaWith([{ type: 'RecommendationProvided', status: 'True' }], true)],
    [target.name, vpaWith([{ type: 'RecommendationProvided', status: 'False', reason: 'TargetNotFound', message: 'no such Deployment' }])],
  ]);
  const judged = judgeHostile([typed, semantic, annotated, cycle, target, cases.at(-2)!], created, vpas);
  assert.deepEqual(
    judged.map((j) => [j.outcome, j.ok]),
    [
      ['refused-by-api', true],
      ['refused-by-webhook', true],
      ['silent', false],
      ['served', true],
      ['reported', true],
      ['silent', false],
    ],
  );
  assert.equal(judged[4]!.detail, 'RecommendationProvided/TargetNotFound: no such Deployment');
  assert.equal(judged[5]!.detail, 'never sent');
  vpas.set(annotated.name, vpaWith([{ type: 'AnnotationsInvalid', status: 'True', reason: 'BadAnnotation', message: 'tailor.dev/cooldown: "banana"' }]));
  assert.equal(judgeHostile([annotated], created, vpas)[0]!.outcome, 'reported');
  created.set(cycle.name, { status: 422, message: 'refused' });
  assert.equal(judgeHostile([cycle], created, vpas)[0]!.ok, false, 'a valid VPA refused is a failure');
  assert.deepEqual(hostileSummary(judged), [
    'wrong-type (1): 1 refused-by-api',
    'semantic (1): 1 refused-by-webhook',
    'annotations (1): 1 silent',
    'cycle (2): 1 served, 1 silent',
    'missing-target (1): 1 reported',
  ]);
});
