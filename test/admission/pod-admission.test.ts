import { test } from 'node:test';
import assert from 'node:assert/strict';
import fastJsonPatch from 'fast-json-patch';
import type { V1Pod } from '@kubernetes/client-node';
import { admitPod } from '../../src/admission/pod-admission.ts';
import { cached, container, view, vpaObject, webPod } from './fixtures.ts';

function patched(pod: V1Pod, ops: unknown[]): V1Pod {
  return fastJsonPatch.applyPatch(structuredClone(pod), ops as fastJsonPatch.Operation[], true, false).newDocument;
}

test('Burstable pod: requests set to the target, limits scaled with them, annotations say from what', () => {
  // cpu 100m/200m -> request 250m, limit 200m x 250/100 = 500m; memory 128Mi/256Mi -> 300Mi, 256 x 300/128 = 600Mi.
  const pod = webPod([container('app', { cpu: '100m', memory: '128Mi' }, { cpu: '200m', memory: '256Mi' })]);
  const decision = admitPod(pod, 'shop', view([cached(vpaObject('web-vpa', 'web', { app: { cpu: '250m', memory: '300Mi' } }))]));
  assert.equal(decision.outcome, 'patched');
  assert.equal(decision.vpaName, 'web-vpa');
  const after = patched(pod, decision.patch);
  assert.deepEqual(after.spec?.containers[0]?.resources, { requests: { cpu: '250m', memory: '300Mi' }, limits: { cpu: '500m', memory: '600Mi' } });
  assert.deepEqual(after.metadata?.annotations, {
    vpaUpdates: 'Pod resources updated by web-vpa: container 0: cpu request, memory request, cpu limit, memory limit',
    'tailor.dev/vpa': 'web-vpa',
    'tailor.dev/resources-changed': 'app: cpu request 100m -> 250m, memory request 128Mi -> 300Mi, cpu limit 200m -> 500m, memory limit 256Mi -> 600Mi',
    vpaObservedContainers: 'app',
  });
  assert.deepEqual(
    decision.patch.map((o) => [o.op, o.path]),
    [
      ['replace', '/spec/containers/0/resources'],
      ['add', '/metadata/annotations'],
    ],
  );
});

test("pod-level resources: a new pod gets the containers' summed recommendation at pod level, its containers keep their own values", () => {
  // app 250m/300Mi (no resources of its own) + log in mode Off with its own 50m/32Mi: pod-level cpu 300m, memory 332Mi;
  // limits keep their ratio (x2): 600m / 664Mi.
  const pod = webPod([container('app'), container('log', { cpu: '50m', memory: '32Mi' })]);
  pod.spec!.resources = { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '200m', memory: '256Mi' } };
  const decision = admitPod(
    pod,
    'shop',
    view([
      cached(
        vpaObject(
          'web-vpa',
          'web',
          { app: { cpu: '250m', memory: '300Mi' } },
          { resourcePolicy: { containerPolicies: [{ containerName: 'log', mode: 'Off' }] } },
        ),
      ),
    ]),
  );
  assert.equal(decision.outcome, 'patched', decision.message);
  const after = patched(pod, decision.patch);
  assert.deepEqual(after.spec?.resources, { requests: { cpu: '300m', memory: '332Mi' }, limits: { cpu: '600m', memory: '664Mi' } });
  assert.deepEqual(
    after.spec?.containers.map((c) => c.resources),
    [{}, { requests: { cpu: '50m', memory: '32Mi' } }],
  );
  assert.equal(after.metadata?.annotations?.vpaUpdates, 'Pod resources updated by web-vpa: pod: cpu request, memory request, cpu limit, memory limit');
});

test('maxAllowed caps the target first: 400m capped to 300m, limit 200m x 300/100 = 600m', () => {
  const pod = webPod([container('app', { cpu: '100m' }, { cpu: '200m' })]);
  const vpa = vpaObject(
    'web-vpa',
    'web',
    { app: { cpu: '400m' } },
    { resourcePolicy: { containerPolicies: [{ containerName: '*', maxAllowed: { cpu: '300m' } }] } },
  );
  const decision = admitPod(pod, 'shop', view([cached(vpa)]));
  assert.deepEqual(patched(pod, decision.patch).spec?.containers[0]?.resources, { requests: { cpu: '300m' }, limits: { cpu: '600m' } });
  assert.ok(decision.adjustments.some((a) => a.code === 'CappedToMaxAllowed'));
});

test('a LimitRange Container max bounds the scaled limit: 100m/200m, target 400m, max 300m -> 150m/300m', () => {
  // The request may rise only as far as its limit, scaled with it, stays within the max: 100m x 300/200 = 150m.
  const pod = webPod([container('app', { cpu: '100m', memory: '100Mi' }, { cpu: '200m', memory: '200Mi' })]);
  const lr = { metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', max: { cpu: '300m' } }] } };
  const decision = admitPod(pod, 'shop', view([cached(vpaObject('web-vpa', 'web', { app: { cpu: '400m' } }))], [lr]));
  assert.deepEqual(patched(pod, decision.patch).spec?.containers[0]?.resources, {
    requests: { cpu: '150m', memory: '100Mi' },
    limits: { cpu: '300m', memory: '200Mi' },
  });
});

test('Guaranteed stays Guaranteed: 100m/128Mi both ways -> 250m/300Mi both ways', () => {
  const pod = webPod([container('app', { cpu: '100m', memory: '128Mi' }, { cpu: '100m', memory: '128Mi' })]);
  const decision = admitPod(pod, 'shop', view([cached(vpaObject('web-vpa', 'web', { app: { cpu: '250m', memory: '300Mi' } }))]));
  assert.deepEqual(patched(pod, decision.patch).spec?.containers[0]?.resources, {
    requests: { cpu: '250m', memory: '300Mi' },
    limits: { cpu: '250m', memory: '300Mi' },
  });
});

test('BestEffort pods stay BestEffort: admitted unchanged with the reason', () => {
  const pod = webPod([container('app')]);
  const decision = admitPod(pod, 'shop', view([cached(vpaObject('web-vpa', 'web', { app: { cpu: '250m' } }))]));
  assert.equal(decision.outcome, 'unchanged');
  assert.deepEqual(decision.patch, [{ op: 'add', path: '/metadata/annotations', value: { vpaObservedContainers: 'app' } }], 'no resource is touched');
  assert.match(decision.message, /BestEffort/);
});

test('updateMode Off changes nothing; Initial applies at creation; container mode Off keeps that container', () => {
  const pod = webPod([container('app', { cpu: '100m' }), container('log', { cpu: '50m' })]);
  const recs = { app: { cpu: '250m' }, log: { cpu: '80m' } };
  const off = admitPod(pod, 'shop', view([cached(vpaObject('v', 'web', recs, { updatePolicy: { updateMode: 'Off' } }))]));
  assert.equal(off.outcome, 'mode-off');
  const initial = admitPod(
    pod,
    'shop',
    view([
      cached(
        vpaObject('v', 'web', recs, {
          updatePolicy: { updateMode: 'Initial' },
          resourcePolicy: { containerPolicies: [{ containerName: 'log', mode: 'Off' }] },
        }),
      ),
    ]),
  );
  assert.equal(initial.outcome, 'patched');
  const after = patched(pod, initial.patch);
  assert.deepEqual(
    after.spec?.containers.map((c) => c.resources?.requests?.cpu),
    ['250m', '50m'],
  );
  assert.equal(after.metadata?.annotations?.vpaUpdates, 'Pod resources updated by v: container 0: cpu request');
});

test('existing annotations are kept and new keys escaped; a sidecar is patched under initContainers', () => {
  const pod = webPod([container('app', { cpu: '100m' })], { annotations: { team: 'shop', 'tailor.dev/vpa': 'stale' } });
  pod.spec!.initContainers = [container('init', { cpu: '10m' }), { ...container('proxy', { cpu: '20m' }), restartPolicy: 'Always' }];
  const decision = admitPod(pod, 'shop', view([cached(vpaObject('v', 'web', { app: { cpu: '200m' }, proxy: { cpu: '40m' }, init: { cpu: '99m' } }))]));
  const paths = decision.patch.map((o) => `${o.op} ${o.path}`);
  assert.deepEqual(paths, [
    'replace /spec/containers/0/resources',
    'replace /spec/initContainers/1/resources',
    'add /metadata/annotations/vpaUpdates',
    'replace /metadata/annotations/tailor.dev~1vpa',
    'add /metadata/annotations/tailor.dev~1resources-changed',
    'add /metadata/annotations/vpaObservedContainers',
  ]);
  const after = patched(pod, decision.patch);
  assert.equal(after.spec?.initContainers?.[0]?.resources?.requests?.cpu, '10m');
  assert.equal(after.spec?.initContainers?.[1]?.resources?.requests?.cpu, '40m');
  assert.equal(after.metadata?.annotations?.team, 'shop');
  assert.equal(after.metadata?.annotations?.['tailor.dev/resources-changed'], 'app: cpu request 100m -> 200m; proxy: cpu request 20m -> 40m');
});

test('a container without resources gets them by add', () => {
  const pod = webPod([{ name: 'app', image: 'nginx' }, container('side', { memory: '64Mi' })]);
  const decision = admitPod(pod, 'shop', view([cached(vpaObject('v', 'web', { app: { memory: '100Mi' }, side: { memory: '100Mi' } }))]));
  // app has no request to start from: it is Burstable through `side`, so app gets a 100Mi request.
  assert.deepEqual(decision.patch[0], { op: 'add', path: '/spec/containers/0/resources', value: { requests: { memory: '100Mi' } } });
});

test('two VPAs on the owner: the controlling one (oldest, then name) among the valid ones, as the updater and the recommender', () => {
  const pod = webPod([container('app', { cpu: '100m' })]);
  const older = cached(vpaObject('web-vpa', 'web', { app: { cpu: '250m' } }, {}, '2026-01-01T09:00:00Z'));
  const younger = cached(vpaObject('a-copy', 'web', { app: { cpu: '900m' } }, {}, '2026-01-01T09:00:02Z'));
  assert.equal(admitPod(pod, 'shop', view([younger, older])).vpaName, 'web-vpa');
  assert.equal(
    admitPod(pod, 'shop', view([cached(vpaObject('b', 'web', { app: { cpu: '1' } })), cached(vpaObject('a', 'web', { app: { cpu: '1' } }))])).vpaName,
    'a',
    'same time: by name',
  );
  // An older VPA Tailor cannot read does not hide a valid one: the updater and the recommender skip it too.
  const invalidOlder = cached(
    vpaObject(
      'broken',
      'web',
      { app: { cpu: '1' } },
      { resourcePolicy: { containerPolicies: [{ containerName: 'app', minAllowed: { cpu: '2' }, maxAllowed: { cpu: '1' } }] } },
      '2026-01-01T08:00:00Z',
    ),
  );
  const d = admitPod(pod, 'shop', view([invalidOlder, younger]));
  assert.equal(d.outcome, 'patched');
  assert.equal(d.vpaName, 'a-copy');
  // An older VPA in mode Off keeps the pod, whatever its mode: the newer one is not used (upstream would skip the Off one).
  const offOlder = cached(vpaObject('off', 'web', { app: { cpu: '1' } }, { updatePolicy: { updateMode: 'Off' } }, '2026-01-01T08:00:00Z'));
  assert.equal(admitPod(pod, 'shop', view([younger, offOlder])).outcome, 'mode-off');
});

test('no VPA, an invalid VPA, no recommendation, no controller: unchanged with a reason', () => {
  const pod = webPod([container('app', { cpu: '100m' })]);
  assert.equal(admitPod(pod, 'shop', view([cached(vpaObject('v', 'api', { app: { cpu: '1' } }))])).outcome, 'no-vpa');
  const invalid = cached(
    vpaObject(
      'v',
      'web',
      { app: { cpu: '1' } },
      { resourcePolicy: { containerPolicies: [{ containerName: 'app', minAllowed: { cpu: '2' }, maxAllowed: { cpu: '1' } }] } },
    ),
  );
  const d = admitPod(pod, 'shop', view([invalid]));
  assert.equal(d.outcome, 'invalid-vpa');
  assert.match(d.message, /spec\.resourcePolicy\.containerPolicies\[0\]/);
  assert.equal(admitPod(pod, 'shop', view([cached(vpaObject('v', 'web', {}))])).outcome, 'no-recommendation');
  const bare: V1Pod = { metadata: { name: 'bare' }, spec: pod.spec! };
  assert.equal(admitPod(bare, 'shop', view([])).outcome, 'no-controller');
});

test('a pod already at the target is unchanged; status.qosClass sent with the pod is ignored', () => {
  const pod = webPod([container('app', { cpu: '250m' })]);
  pod.status = { qosClass: 'BestEffort' };
  const d = admitPod(pod, 'shop', view([cached(vpaObject('v', 'web', { app: { cpu: '250m' } }))]));
  assert.equal(d.outcome, 'unchanged');
  const grow = admitPod(webPod([container('app', { cpu: '100m' })], {}), 'shop', view([cached(vpaObject('v', 'web', { app: { cpu: '250m' } }))]));
  assert.equal(grow.outcome, 'patched');
});

test("a JVM's memory limit is not set below heap + overhead at creation (as the updater does), and the adjustment says why", () => {
  // -Xmx1g: 1 GiB heap + max(25%, 256 MiB) = 1.25 GiB; created at 2Gi, recommended 512Mi.
  const jvm = (env: Record<string, string>) => ({
    ...container('app', { cpu: '500m', memory: '2Gi' }, { cpu: '500m', memory: '2Gi' }),
    image: 'registry.example/shop/orders:1',
    env: Object.entries(env).map(([name, value]) => ({ name, value })),
  });
  const vpa = cached(vpaObject('web-vpa', 'web', { app: { cpu: '500m', memory: '512Mi' } }));
  const heap = webPod([jvm({ JAVA_TOOL_OPTIONS: '-Xmx1g -XX:+UseG1GC' })]);
  const decision = admitPod(heap, 'shop', view([vpa]));
  assert.equal(decision.outcome, 'patched');
  assert.deepEqual(patched(heap, decision.patch).spec?.containers[0]?.resources, {
    requests: { cpu: '500m', memory: '1280Mi' },
    limits: { cpu: '500m', memory: '1280Mi' },
  });
  const kept = decision.adjustments.find((a) => a.code === 'MemoryLimitKept');
  assert.match(kept?.message ?? '', /kept at 1280Mi, not the 512Mi recommended: .*jvm \(-Xmx 1024Mi, from env JAVA_TOOL_OPTIONS\) needs \(heap \+ overhead\)/);

  // Sized by MaxRAMPercentage (default 25%): the heap is a share of the limit it starts with, so
  // the floor is 256 MiB / 0.75 = 341.3, so 342 MiB (recommended 256Mi would leave a 64 MiB heap no room).
  const small = cached(vpaObject('web-vpa', 'web', { app: { cpu: '500m', memory: '256Mi' } }));
  const percent = webPod([{ ...jvm({}), image: 'eclipse-temurin:21' }]);
  const limit = patched(percent, admitPod(percent, 'shop', view([small])).patch).spec?.containers[0]?.resources?.limits?.memory;
  assert.equal(limit, '342Mi', `256 MiB / 0.75 = 341.3 MiB, rounded up (got ${limit})`);

  // Not a JVM: the recommendation as it is; the override annotation makes it one.
  const plain = webPod([{ ...jvm({}), image: 'registry.example/shop/orders:1' }]);
  assert.equal(patched(plain, admitPod(plain, 'shop', view([small])).patch).spec?.containers[0]?.resources?.limits?.memory, '256Mi');
  const annotated = cached({
    ...vpaObject('web-vpa', 'web', { app: { cpu: '500m', memory: '256Mi' } }),
    metadata: { name: 'web-vpa', namespace: 'shop', annotations: { 'tailor.dev/runtime': 'jvm' }, creationTimestamp: '2026-01-01T00:00:00Z' },
  });
  assert.equal(patched(plain, admitPod(plain, 'shop', view([annotated])).patch).spec?.containers[0]?.resources?.limits?.memory, '342Mi');
});

test('vpaObservedContainers lists the containers the webhook saw (upstream format) on every pod a VPA controls', () => {
  const pod = webPod([container('app', { cpu: '250m' }), container('log', { cpu: '50m' })], { annotations: { team: 'shop' } });
  pod.spec!.initContainers = [container('init', { cpu: '10m' })];
  const observed = (recs: Record<string, Record<string, string>>, spec: Record<string, unknown> = {}) => {
    const d = admitPod(pod, 'shop', view([cached(vpaObject('v', 'web', recs, spec))]));
    return { outcome: d.outcome, value: patched(pod, d.patch).metadata?.annotations?.vpaObservedContainers };
  };
  // Resources already right, no recommendation yet, or a change: the annotation names app and log (not init containers).
  assert.deepEqual(observed({ app: { cpu: '250m' } }), { outcome: 'unchanged', value: 'app, log' });
  assert.deepEqual(observed({}), { outcome: 'no-recommendation', value: 'app, log' });
  assert.deepEqual(observed({ app: { cpu: '500m' } }), { outcome: 'patched', value: 'app, log' });
  // Not controlled: nothing is written.
  assert.deepEqual(observed({ app: { cpu: '500m' } }, { updatePolicy: { updateMode: 'Off' } }), { outcome: 'mode-off', value: undefined });
  assert.deepEqual(admitPod(pod, 'shop', view([cached(vpaObject('v', 'api', { app: { cpu: '1' } }))])).patch, []);
  // Only annotations are added when nothing else changes, existing ones kept.
  const d = admitPod(pod, 'shop', view([cached(vpaObject('v', 'web', { app: { cpu: '250m' } }))]));
  assert.deepEqual(d.patch, [{ op: 'add', path: '/metadata/annotations/vpaObservedContainers', value: 'app, log' }]);
});

// Upstream 1.8's startupBoost, as its e2e "boosts CPU ..." specs set it (a hamster at 100m cpu, 100Mi).
const boostedVpa = (
  cpu: Record<string, unknown>,
  spec: Record<string, unknown> = {},
  recs: Record<string, Record<string, string>> = { app: { cpu: '100m', memory: '100Mi' } },
) => cached(vpaObject('hamster-vpa', 'web', recs, { startupBoost: { cpu: { durationSeconds: 15, ...cpu } }, ...spec }));
const hamster = () => webPod([container('app', { cpu: '100m', memory: '100Mi' })]);
const cpuAfter = (v: ReturnType<typeof boostedVpa>) => {
  const decision = admitPod(hamster(), 'shop', view([v]));
  return { decision, cpu: patched(hamster(), decision.patch).spec?.containers[0]?.resources?.requests?.cpu };
};

test('upstream startupBoost: Factor 2 doubles the request, Quantity 500m adds to it; the record ends 15 s after Ready', () => {
  const factor = cpuAfter(boostedVpa({ type: 'Factor', factor: 2 }));
  assert.equal(factor.decision.outcome, 'patched');
  assert.equal(factor.decision.startupBoost, true);
  assert.equal(factor.cpu, '200m');
  assert.equal(
    patched(hamster(), factor.decision.patch).metadata?.annotations?.['tailor.dev/startup-cpu-boost-record'],
    '{"until":"ready+15s","containers":{"app":{"request":100}}}',
  );
  assert.equal(cpuAfter(boostedVpa({ type: 'Quantity', quantity: '500m' })).cpu, '600m', 'upstream adds the quantity: 100m + 500m');
});

test("upstream startupBoost in updateMode Off, or before any recommendation: the pod's own request is boosted; a container in mode Off is not", () => {
  assert.equal(cpuAfter(boostedVpa({ type: 'Factor', factor: 2 }, { updatePolicy: { updateMode: 'Off' } })).cpu, '200m');
  assert.equal(cpuAfter(boostedVpa({ type: 'Factor', factor: 2 }, {}, {})).cpu, '200m');
  const off = cpuAfter(boostedVpa({ type: 'Factor', factor: 2 }, { resourcePolicy: { containerPolicies: [{ containerName: 'app', mode: 'Off' }] } }));
  assert.equal(off.decision.startupBoost, undefined);
  assert.equal(off.cpu, '100m');
});
