/**
 * Ordinary init containers (no `restartPolicy: Always`) are never resized, and their usage never
 * reaches a container's recommendation (issue 30 item 5): their series are dropped by the VPA's
 * aggregates, so they get no recommendation and do not count in the per-pod floors' split. A
 * native sidecar is recommended like a container.
 *
 * Worked numbers: `app` uses 10m and 50 MiB, below the per-pod floors (25m, 250 MiB). Alone in its
 * pod's recommendation its memory target is the whole 250 MiB floor; had `migrate` (2 cores, 2 GiB
 * while it ran) been counted, it would get a recommendation of its own and halve app's floor to
 * 125 MiB.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerKey } from '../../src/metrics/metrics-source.ts';
import { AggregateContainerState } from '../../src/model/aggregate-container-state.ts';
import { defaultModelConfig } from '../../src/model/model-config.ts';
import { InitContainerNames } from '../../src/recommender/init-containers.ts';
import { ordinaryInitContainers } from '../../src/policy/init-containers.ts';
import { VpaAggregates, type PodRoute } from '../../src/recommender/vpa-aggregates.ts';
import { vpaRecommendation } from '../../src/recommender/vpa-recommendation.ts';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;
const MiB = 1024 * 1024;
const VPA = 'shop/web';

/** web-1's spec: `migrate` runs first, `proxy` is a native sidecar, `app` the container. */
const WEB_POD = {
  spec: {
    initContainers: [{ name: 'migrate' }, { name: 'proxy', restartPolicy: 'Always' }],
    containers: [{ name: 'app' }],
  },
};

const route = (pod: string, spec?: typeof WEB_POD): PodRoute => ({
  namespace: 'shop',
  pod,
  vpaId: VPA,
  memoryRequests: new Map([['app', 64 * MiB]]),
  ...(spec ? { initContainers: ordinaryInitContainers(spec) } : {}),
});

/** An hour of minute samples of one container: `cores` and `bytes` throughout, an OOM kill at its end. */
function feed(a: VpaAggregates, pod: string, container: string, cores: number, bytes: number): void {
  const key: ContainerKey = { namespace: 'shop', pod, container };
  const times = Array.from({ length: 60 }, (_, i) => T0 + i * MIN);
  a.cpu({ key, times, values: times.map(() => cores) });
  a.memory({ key, times, values: times.map(() => bytes) });
  a.oom({ key, at: T0 + 60 * MIN, count: 1 });
}

function recommendation(a: VpaAggregates) {
  const states = new Map([...(a.byVpa.get(VPA) ?? new Map())].map(([name, t]) => [name, t.state as AggregateContainerState]));
  return vpaRecommendation(states, undefined).recommendation.containerRecommendations ?? [];
}

test("an ordinary init container's usage is dropped: it gets no recommendation and app's is what app's own usage gives", () => {
  assert.deepEqual(ordinaryInitContainers(WEB_POD), ['migrate']);
  const withInit = new VpaAggregates(defaultModelConfig());
  withInit.routePods([route('web-1', WEB_POD)]);
  feed(withInit, 'web-1', 'migrate', 2, 2048 * MiB);
  feed(withInit, 'web-1', 'app', 0.01, 50 * MiB);
  // The same pod had it no init container: app's usage alone.
  const appAlone = new VpaAggregates(defaultModelConfig());
  appAlone.routePods([route('web-1')]);
  feed(appAlone, 'web-1', 'app', 0.01, 50 * MiB);

  const got = recommendation(withInit);
  assert.deepEqual(
    got.map((c) => c.containerName),
    ['app'],
  );
  assert.equal(got[0]!.target.memory, '250Mi', 'the whole per-pod memory floor (125Mi were migrate counted)');
  assert.deepEqual(got, recommendation(appAlone));
  assert.equal(withInit.initContainerSamples, 120, "migrate's 60 CPU and 60 memory samples");
  assert.equal(withInit.byVpa.get(VPA)!.has('migrate'), false, 'no history is kept for it');
});

test('a native sidecar is recommended like a container; the ordinary init container is not', () => {
  const a = new VpaAggregates(defaultModelConfig());
  a.routePods([route('web-1', WEB_POD)]);
  feed(a, 'web-1', 'migrate', 2, 2048 * MiB);
  feed(a, 'web-1', 'proxy', 0.05, 30 * MiB);
  feed(a, 'web-1', 'app', 0.3, 200 * MiB);
  assert.deepEqual(
    recommendation(a).map((c) => c.containerName),
    ['app', 'proxy'],
  );
});

test("a gone pod's init container is dropped by its workload's current pods, and a history of it restored from a checkpoint is forgotten", () => {
  const a = new VpaAggregates(defaultModelConfig());
  // A checkpoint written before the rule: migrate's history, restored at start-up.
  const restored = new AggregateContainerState(defaultModelConfig());
  for (let i = 0; i < 30; i++) restored.addCpuSample(2, T0 - (30 - i) * MIN, 'web-0');
  a.restore(VPA, 'migrate', restored);
  // The current pod web-1 (its spec read) and web-0, gone: routed through the owner series, no spec.
  a.routePods([route('web-1', WEB_POD)]);
  a.routePods([route('web-0')]);
  feed(a, 'web-0', 'migrate', 2, 2048 * MiB);
  feed(a, 'web-0', 'app', 0.01, 50 * MiB);
  assert.deepEqual(
    recommendation(a).map((c) => c.containerName),
    ['app'],
  );
  assert.equal(a.initContainerSamples, 120);
});

test('init container names per VPA: a VPA without a current pod keeps them; a name that is a container in another pod counts as a container', () => {
  const names = new InitContainerNames();
  const pod = (initContainers: string[], containers: string[]) => ({ vpaId: VPA, initContainers, containers });
  assert.deepEqual([...names.learn([pod(['migrate'], ['app'])])], [[VPA, new Set(['migrate'])]]);
  assert.deepEqual([...names.learn([])], [], 'no current pod: nothing changes');
  assert.ok(names.has(VPA, 'migrate'));
  // A rollout that made `migrate` a container: both kinds of pod exist for a while.
  names.learn([pod(['migrate'], ['app']), pod([], ['app', 'migrate'])]);
  assert.equal(names.has(VPA, 'migrate'), false);
  names.learn([pod(['migrate'], ['app'])]);
  names.retain(() => false);
  assert.equal(names.has(VPA, 'migrate'), false);
});
