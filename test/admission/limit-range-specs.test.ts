/**
 * The LimitRange specs of upstream's admission-controller e2e suite, replayed against admitPod:
 * the same pods, VPAs and LimitRanges, the pod as the LimitRanger hands it to the webhook (its
 * defaults applied), and upstream's expected resources. The patched pod must also pass the
 * LimitRanger's checks (kube-sim's copy of them), as the ReplicaSet's create would.
 * Worked numbers: docs/decisions/0278-limit-ranges-as-upstream.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fastJsonPatch from 'fast-json-patch';
import type { V1Container, V1LimitRange, V1LimitRangeItem, V1Pod } from '@kubernetes/client-node';
import { applyLimitRangeDefaults, limitRangeDefaulter, limitRangeViolations } from 'kube-sim/apiserver/limit-ranger';
import type { KubeObject } from 'kube-sim/apiserver/types';
import type { ResourceType } from 'kube-sim/apiserver/resource-type';
import { admitPod } from '../../src/admission/pod-admission.ts';
import { cached, container, view, vpaObject, webPod } from './fixtures.ts';

type Resources = Record<string, string>;

/** The LimitRange as the API server stores it (default from max, defaultRequest from default or min). */
function stored(items: V1LimitRangeItem[]): V1LimitRange {
  const lr = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'hamster-lr', namespace: 'shop' }, spec: { limits: structuredClone(items) } };
  limitRangeDefaulter(lr as unknown as KubeObject, { group: '', kind: 'LimitRange' } as ResourceType, 'CREATE');
  return lr;
}

/** Creates the pod through LimitRanger -> Tailor's webhook -> LimitRanger's checks. */
function create(containers: V1Container[], items: V1LimitRangeItem[], recs: Record<string, Resources>) {
  const lr = stored(items);
  const limits = lr.spec!.limits as Parameters<typeof applyLimitRangeDefaults>[1];
  const pod = webPod(containers);
  applyLimitRangeDefaults(pod as unknown as KubeObject, limits);
  const decision = admitPod(pod, 'shop', view([cached(vpaObject('hamster-vpa', 'web', recs))], [lr]));
  const after: V1Pod = fastJsonPatch.applyPatch(structuredClone(pod), decision.patch as fastJsonPatch.Operation[], true, false).newDocument;
  const resources = Object.fromEntries((after.spec?.containers ?? []).map((c) => [c.name, c.resources]));
  return { decision, resources, violations: limitRangeViolations(after as unknown as KubeObject, limits) };
}

const both = (r: Resources) => ({ requests: r, limits: r });
const hamsters = (n: number, resources: { requests: Resources; limits?: Resources }) =>
  Array.from({ length: n }, (_, i) => container(i === 0 ? 'hamster' : `hamster${i + 1}`, resources.requests, resources.limits));

test('caps request according to container max limit set in LimitRange: 250m -> 200m, limit 300m (ratio 1.5 kept)', () => {
  // Max 300m and ratio 150m/100m: the request may rise to 100m x 300/150 = 200m; memory to 100Mi x 1Gi/200Mi = 512Mi.
  const { resources, violations } = create(
    [container('hamster', { cpu: '100m', memory: '100Mi' }, { cpu: '150m', memory: '200Mi' })],
    [{ type: 'Container', max: { cpu: '300m', memory: '1Gi' } }],
    { hamster: { cpu: '250m', memory: '200Mi' } },
  );
  assert.deepEqual(resources.hamster, { requests: { cpu: '200m', memory: '200Mi' }, limits: { cpu: '300m', memory: '400Mi' } });
  assert.deepEqual(violations, []);
});

test('caps cpu requests and limits according to pod max limit set in LimitRange: 4m, 21m, 90m scaled by 80/115, rounded down', () => {
  const { resources, violations } = create(hamsters(3, both({ cpu: '1m', memory: '100Mi' })), [{ type: 'Pod', max: { cpu: '80m' } }], {
    hamster: { cpu: '4m', memory: '100Mi' },
    hamster2: { cpu: '21m', memory: '100Mi' },
    hamster3: { cpu: '90m', memory: '100Mi' },
  });
  assert.deepEqual(resources, {
    hamster: both({ cpu: '2m', memory: '100Mi' }),
    hamster2: both({ cpu: '14m', memory: '100Mi' }),
    hamster3: both({ cpu: '62m', memory: '100Mi' }),
  });
  assert.deepEqual(violations, []);
});

test('raises cpu requests and limits according to pod min limit set in LimitRange: 4m, 21m, 90m scaled by 150/115, rounded up', () => {
  const { resources, violations } = create(hamsters(3, both({ cpu: '1m', memory: '100Mi' })), [{ type: 'Pod', min: { cpu: '150m' } }], {
    hamster: { cpu: '4m', memory: '100Mi' },
    hamster2: { cpu: '21m', memory: '100Mi' },
    hamster3: { cpu: '90m', memory: '100Mi' },
  });
  assert.deepEqual(resources, {
    hamster: both({ cpu: '6m', memory: '100Mi' }),
    hamster2: both({ cpu: '28m', memory: '100Mi' }),
    hamster3: both({ cpu: '118m', memory: '100Mi' }),
  });
  assert.deepEqual(violations, []);
});

test('raises request according to pod min limit set in LimitRange: memory 2 x 100Mi -> 2 x 250Mi, limits 500Mi (ratio 2 kept)', () => {
  const { resources, violations } = create(
    hamsters(2, { requests: { cpu: '100m', memory: '200Mi' }, limits: { cpu: '150m', memory: '400Mi' } }),
    [{ type: 'Pod', min: { cpu: '100m', memory: '500Mi' } }],
    { hamster: { cpu: '120m', memory: '100Mi' }, hamster2: { cpu: '120m', memory: '100Mi' } },
  );
  for (const name of ['hamster', 'hamster2']) {
    assert.deepEqual(resources[name], { requests: { cpu: '120m', memory: '250Mi' }, limits: { cpu: '180m', memory: '500Mi' } }, name);
  }
  assert.deepEqual(violations, []);
});

test('starts pod with default request when one container has a recommendation and one other one does not when a limit range applies: both 200m/512Mi', () => {
  // hamster 100m -> 400m recommended, hamster2 400m without a recommendation: 800m over a 400m max; both scaled by 1/2.
  const { resources, violations } = create(
    [
      container('hamster', { cpu: '100m', memory: '100Mi' }, { cpu: '100m', memory: '100Mi' }),
      container('hamster2', { cpu: '400m', memory: '600Mi' }, { cpu: '400m', memory: '600Mi' }),
    ],
    [{ type: 'Pod', max: { cpu: '400m', memory: '1Gi' } }],
    { hamster: { cpu: '400m', memory: '600Mi' } },
  );
  assert.deepEqual(resources, { hamster: both({ cpu: '200m', memory: '512Mi' }), hamster2: both({ cpu: '200m', memory: '512Mi' }) });
  assert.deepEqual(violations, []);
});

test('starts pods with old recommended request when recommendation has only a container that does not match when a limit range applies', () => {
  // The LimitRanger gave the container its default limits 300m / 1Gi (from max): ratio 3 on cpu, so 100m is
  // already the most the request may have (100m x 300/300); memory likewise 100Mi x 1Gi/1Gi.
  const { decision, resources, violations } = create(
    [container('hamster', { cpu: '100m', memory: '100Mi' })],
    [{ type: 'Container', max: { cpu: '300m', memory: '1Gi' } }],
    { hamster: { cpu: '250m', memory: '200Mi' } },
  );
  assert.equal(decision.outcome, 'unchanged');
  assert.deepEqual(resources.hamster, { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '300m', memory: '1Gi' } });
  assert.deepEqual(violations, []);
});

test('starts pods with default request when recommendation includes an extra container when a limit range applies', () => {
  const { decision, resources, violations } = create(
    [container('hamster', { cpu: '100m', memory: '100Mi' })],
    [{ type: 'Container', max: { cpu: '300m', memory: '1Gi' } }],
    { hamster: { cpu: '500m', memory: '500Mi' }, hamster2: { cpu: '250m', memory: '200Mi' } },
  );
  assert.equal(decision.outcome, 'unchanged');
  assert.deepEqual(resources.hamster, { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '300m', memory: '1Gi' } });
  assert.deepEqual(violations, []);
});

test('caps request according to pod max limit set in LimitRange: 2 x 250m scaled by 600/750 to 200m, limits 300m', () => {
  const { resources, violations } = create(
    hamsters(2, { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '150m', memory: '200Mi' } }),
    [{ type: 'Pod', max: { cpu: '600m', memory: '1Gi' } }],
    { hamster: { cpu: '250m', memory: '200Mi' }, hamster2: { cpu: '250m', memory: '200Mi' } },
  );
  for (const name of ['hamster', 'hamster2']) {
    assert.deepEqual(resources[name], { requests: { cpu: '200m', memory: '200Mi' }, limits: { cpu: '300m', memory: '400Mi' } }, name);
  }
  assert.deepEqual(violations, []);
});

test('raises request according to container min limit set in LimitRange: memory 100Mi -> 250Mi, limit 500Mi', () => {
  const { resources, violations } = create(
    [container('hamster', { cpu: '100m', memory: '200Mi' }, { cpu: '150m', memory: '400Mi' })],
    [{ type: 'Container', min: { cpu: '50m', memory: '250Mi' } }],
    { hamster: { cpu: '250m', memory: '100Mi' } },
  );
  assert.deepEqual(resources.hamster, { requests: { cpu: '250m', memory: '250Mi' }, limits: { cpu: '375m', memory: '500Mi' } });
  assert.deepEqual(violations, []);
});
