import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodStatus } from '../../src/objects.ts';
import { advanceStartup, notReadyYet, readyNow, startupRate, startupWork } from '../../src/kubelet/startup-work.ts';

const pod = (annotations: Record<string, string>, resources: { requests?: Record<string, string>; limits?: Record<string, string> }): Pod =>
  ({ metadata: { name: 'p', annotations }, spec: { containers: [{ name: 'app', image: 'x', resources }] } }) as unknown as Pod;

test('the work comes from the annotation; a bad one is none', () => {
  assert.equal(startupWork(pod({ 'tailor.dev/sim-startup-cpu-seconds': '30' }, {})), 30);
  assert.equal(startupWork(pod({ 'tailor.dev/sim-startup-cpu-seconds': 'lots' }, {})), undefined);
  assert.equal(startupWork(pod({}, {})), undefined);
});

test('the work runs at the applied cpu limit, else the request; a resize while starting counts', () => {
  const p = pod({}, { requests: { cpu: '500m' }, limits: { cpu: '1' } });
  assert.equal(startupRate(p, {}), 1000);
  assert.equal(startupRate(pod({}, { requests: { cpu: '500m' } }), {}), 500);
  const resized: PodStatus = {
    containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: 'x', imageID: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '2' } } }],
  } as unknown as PodStatus;
  assert.equal(startupRate(p, resized), 2000);
});

test('30 CPU-seconds at 500m take 60 s; the finish time is exact within a pass', () => {
  let left = 30;
  let done: number | undefined;
  for (let now = 1000; done === undefined; now += 7000) {
    const step = advanceStartup(left, 500, now, 7000);
    left = step.remaining;
    done = step.doneAt;
  }
  assert.equal(done, 60_000 - 6000); // started at -6000 (first pass covers -6000..1000)
});

test('not ready while working, Ready at the finish time', () => {
  const start: PodStatus = {
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'ContainersReady', status: 'True' },
    ],
    containerStatuses: [{ name: 'app', ready: true }],
  } as unknown as PodStatus;
  const working = notReadyYet(start, 0);
  assert.deepEqual(
    working.conditions!.map((c) => `${c.type}=${c.status}`),
    ['Ready=False', 'ContainersReady=False'],
  );
  assert.equal(working.containerStatuses![0]!.ready, false);
  const ready = readyNow(working, 20_500);
  assert.deepEqual(
    ready.conditions!.map((c) => `${c.type}=${c.status}@${c.lastTransitionTime}`),
    ['Ready=True@1970-01-01T00:00:20Z', 'ContainersReady=True@1970-01-01T00:00:20Z'],
  );
  assert.equal(ready.containerStatuses![0]!.ready, true);
});
