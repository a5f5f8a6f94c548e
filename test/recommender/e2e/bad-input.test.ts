/**
 * Bad input on kube-sim: malformed VPAs, a target that does not exist, pods without requests.
 * The recommender keeps running its cycles, says on each VPA what is wrong (ConfigUnsupported with
 * the validation message naming the field, or the right reason), logs it, keeps the
 * recommendation a VPA already had, and keeps serving the well-formed VPAs.
 *
 * The CRD's schema rejects some of these at the API (a quantity that is not one, an unknown
 * update mode, a missing targetRef): those are put into the store directly, as objects written
 * before the schema was installed or under a CRD without one (older upstream CRDs preserved
 * unknown fields). Those the schema allows (min above max) go through the API. The API server
 * then accepts status writes on the stored ones by validation ratcheting (1.30+), except for the
 * bad quantity: it sits under the schema's `anyOf`, which the real server does not ratchet, so
 * no status can be written on that VPA at all; the recommender logs the validation errors,
 * counts the rejected write (`outcome="invalid"`), says why in one Warning Event, and carries on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../../../src/api/vpa.ts';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { createLogger } from '../../../src/observability/logger.ts';
import type { KubeObject } from 'kube-sim/apiserver';
import { startKubeSim } from 'kube-sim';
import { parseScenario } from 'kube-sim/scenario';
import { SyntheticSource } from '../../support/synthetic-source.ts';
import { VPA_CRD_MANIFESTS } from '../../../src/api/vpa-crd-manifests.ts';

const VPA = { group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers' };
const VPA_KEY = 'verticalpodautoscalers.autoscaling.k8s.io';

function vpa(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'autoscaling.k8s.io/v1', kind: 'VerticalPodAutoscaler', metadata: { name, namespace: 'default' }, spec } as unknown as KubeObject;
}
const deployment = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name });
const policy = (min: Record<string, unknown>, max: Record<string, unknown>) => ({
  containerPolicies: [{ containerName: 'app', minAllowed: min, maxAllowed: max }],
});

test(
  'malformed VPAs, a missing target and pods without requests: conditions that name the problem, logs, and the others still served',
  { timeout: 60_000 },
  async (t) => {
    const sim = await startKubeSim({
      crdManifests: VPA_CRD_MANIFESTS,
      scenario: parseScenario(`
nodes: [{name: n, cpu: "8", memory: 32Gi}]
workloads:
  - {kind: Deployment, name: web, replicas: 2, containers: [{name: app, requests: {cpu: 250m, memory: 128Mi}}]}
  - {kind: Deployment, name: bare, replicas: 1, containers: [{name: app}]}
`),
    });
    t.after(() => sim.close());
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.server.kubeconfig());
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const create = (o: KubeObject) => custom.createNamespacedCustomObject({ ...VPA, namespace: 'default', body: o });

    await create(vpa('web', { targetRef: deployment('web'), updatePolicy: { updateMode: 'Off' } }));
    await create(vpa('bare', { targetRef: deployment('bare'), updatePolicy: { updateMode: 'Off' } }));
    await create(vpa('ghost', { targetRef: deployment('nothing-here'), updatePolicy: { updateMode: 'Off' } }));
    await create(
      vpa('min-over-max', { targetRef: deployment('web'), updatePolicy: { updateMode: 'Off' }, resourcePolicy: policy({ cpu: '2' }, { cpu: '1' }) }),
    );
    // The schema stops these at the API ...
    await assert.rejects(
      create(vpa('bad-quantity', { targetRef: deployment('web'), updatePolicy: { updateMode: 'Off' }, resourcePolicy: policy({ memory: 'lots' }, {}) })),
      (err: { code?: number }) => err.code === 422,
    );
    // ... so they are stored as an older CRD without a schema would have kept them.
    sim.server.store.create(
      VPA_KEY,
      vpa('bad-quantity', { targetRef: deployment('web'), updatePolicy: { updateMode: 'Off' }, resourcePolicy: policy({ memory: 'lots' }, {}) }),
    );
    sim.server.store.create(VPA_KEY, vpa('bad-mode', { targetRef: deployment('web'), updatePolicy: { updateMode: 'Sometimes' } }));
    sim.server.store.create(VPA_KEY, vpa('no-target', { updatePolicy: { updateMode: 'Off' } }));

    const lines: Array<{ level: number; msg: string; vpa?: string }> = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as { level: number; msg: string; vpa?: string });
          done();
        },
      }),
    });
    const { config } = resolveRunConfig(
      { components: 'recommender', prometheusUrl: 'http://127.0.0.1:9', history: '10m', historyStep: '1s', logLevel: 'silent' },
      {},
    );
    const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
    const loop = createRecommenderComponent({ config, logger, kubeConfig: kc, metrics, clock: Date.now }, { source: new SyntheticSource(sim.server) });
    t.after(() => loop.deactivate());
    await loop.activate();
    const controller = new AbortController();
    let cycle = 0;
    const runCycle = () => loop.runCycle({ now: Date.now(), cycle: ++cycle, signal: controller.signal });
    await runCycle();
    await runCycle();

    const read = async (name: string) => (await custom.getNamespacedCustomObject({ ...VPA, namespace: 'default', name })) as VerticalPodAutoscaler;
    const cond = (v: VerticalPodAutoscaler, type: string) => v.status?.conditions?.find((c) => c.type === type);
    const expectations: Array<[string, string, RegExp]> = [
      ['min-over-max', 'InvalidSpec', /spec\.resourcePolicy\.containerPolicies\[0\]\.(minAllowed|maxAllowed)\.cpu/],
      ['bad-mode', 'InvalidSpec', /spec\.updatePolicy\.updateMode/],
      ['no-target', 'InvalidSpec', /spec\.targetRef/],
      ['ghost', 'TargetNotFound', /nothing-here/],
    ];
    for (const [name, reason, field] of expectations) {
      const v = await read(name);
      const c = cond(v, 'ConfigUnsupported');
      t.diagnostic(`${name}: ${c?.reason}: ${c?.message?.replace(/\n/g, ' | ')}`);
      assert.equal(c?.status, 'True', `${name} has ConfigUnsupported`);
      assert.equal(c?.reason, reason, name);
      assert.match(c!.message!, field, `${name}: the message names the field`);
      assert.equal(cond(v, 'RecommendationProvided')?.status, 'False', name);
      assert.equal(v.status?.recommendation, undefined, `${name} gets no recommendation`);
      assert.ok(
        lines.some((l) => l.vpa === `default/${name}` && l.level === 40),
        `${name} is logged as a warning`,
      );
    }
    // The VPA whose status the API refuses: logged with the field, the rejected write counted.
    const badQuantity = await read('bad-quantity');
    assert.equal(badQuantity.status, undefined, 'the API refuses every status write on it');
    const logged = lines.filter((l) => l.vpa === 'default/bad-quantity' && l.level === 40).map((l) => JSON.stringify(l));
    assert.ok(
      logged.some((l) => l.includes('spec.resourcePolicy.containerPolicies[0].minAllowed.memory')),
      logged.join('\n'),
    );
    assert.match(
      await metrics.registry.getSingleMetricAsString('tailor_recommender_writes_total'),
      /tailor_recommender_writes_total\{object="status",outcome="invalid"\} [1-9]/,
    );
    // ... and said in one Warning Event on the VPA (two cycles, one event).
    const events = (await kc.makeApiClient(k8s.CoreV1Api).listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=bad-quantity' }))
      .items;
    assert.equal(events.length, 1, JSON.stringify(events.map((e) => e.message)));
    assert.equal(events[0]!.reason, 'ConfigUnsupported');
    assert.equal(events[0]!.type, 'Warning');
    assert.match(events[0]!.message!, /spec\.resourcePolicy\.containerPolicies\[0\]\.minAllowed\.memory/);

    // The well-formed VPAs are served, also on pods without requests.
    for (const name of ['web', 'bare']) {
      const v = await read(name);
      assert.equal(cond(v, 'RecommendationProvided')?.status, 'True', `${name}: ${JSON.stringify(v.status?.conditions)}`);
      assert.equal(cond(v, 'ConfigUnsupported'), undefined, name);
      assert.ok(v.status?.recommendation?.containerRecommendations?.[0]?.target.cpu, name);
    }

    // A served VPA edited into an invalid one keeps the recommendation it had, and says why it is not renewed.
    let before = (await read('web')).status?.recommendation;
    await custom.patchNamespacedCustomObject(
      { ...VPA, namespace: 'default', name: 'web', body: { spec: { resourcePolicy: policy({ memory: '1Gi' }, { memory: '512Mi' }) } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    // The component sees the edit when its watch delivers it, which a loaded machine delays: run
    // cycles until one reports the spec, and compare with what the VPA had just before that cycle.
    let web = await read('web');
    const watchDeadline = Date.now() + 20_000;
    for (;;) {
      await runCycle();
      web = await read('web');
      if (cond(web, 'ConfigUnsupported') !== undefined) break;
      if (Date.now() > watchDeadline) assert.fail(`no cycle saw the edited spec: ${JSON.stringify(web.status?.conditions)}`);
      before = web.status?.recommendation;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(web.status?.recommendation, before, 'the recommendation already had is kept');
    assert.equal(cond(web, 'RecommendationProvided')?.reason, 'Kept');
    assert.equal(cond(web, 'ConfigUnsupported')?.reason, 'InvalidSpec');
    assert.match(cond(web, 'ConfigUnsupported')!.message!, /containerPolicies\[0\]\.(minAllowed|maxAllowed)\.memory/);
    assert.equal(
      (await metrics.registry.getSingleMetricAsString('tailor_tracked_vpas')).match(/\} (\d+)/)?.[1],
      '7',
      'every handled VPA is tracked, served or not',
    );
  },
);
