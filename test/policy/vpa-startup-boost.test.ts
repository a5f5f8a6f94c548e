import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startupBoostEnds, startupBoostFor, upstreamBoostDurationSeconds } from '../../src/policy/vpa-startup-boost.ts';
import { vpa } from '../builders/vpas.ts';

const ready = (s: number) => ({ kind: 'ready', afterMs: s * 1000 });

test("upstream's startupBoost: a container policy's own wins over spec.startupBoost; Factor multiplies, Quantity adds", () => {
  const v = vpa({
    startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 15 } },
    policies: [
      { containerName: 'db', startupBoost: { cpu: { type: 'Quantity', quantity: '500m' } }, controlledValues: 'RequestsOnly' },
      { containerName: 'log', mode: 'Off' },
    ],
  });
  assert.deepEqual(startupBoostFor(v, 'app'), { amount: { kind: 'factor', factor: 2 }, until: ready(15), requestsOnly: false });
  // db's own boost names no duration: spec.startupBoost's 15 s, as upstream's updater reads it
  assert.deepEqual(startupBoostFor(v, 'db'), { amount: { kind: 'add', millicores: 500 }, until: ready(15), requestsOnly: true });
  assert.equal(startupBoostFor(v, 'log'), undefined, 'mode Off: left alone, as upstream');
  assert.deepEqual(startupBoostEnds(v), [ready(15), ready(15)]);
});

test("without upstream's field the tailor.dev/ annotation applies; a bad annotation gives none", () => {
  assert.deepEqual(
    startupBoostFor(vpa({ annotations: { 'tailor.dev/startup-cpu-boost': '2x', 'tailor.dev/startup-cpu-boost-duration': 'ready+30s' } }), 'app'),
    { amount: { kind: 'factor', factor: 2 }, until: ready(30), requestsOnly: false },
  );
  assert.equal(startupBoostFor(vpa({ annotations: { 'tailor.dev/startup-cpu-boost': 'lots' } }), 'app'), undefined);
  assert.equal(startupBoostFor(vpa(), 'app'), undefined);
  assert.deepEqual(startupBoostEnds(vpa()), []);
  assert.deepEqual(
    startupBoostFor(vpa({ annotations: { 'tailor.dev/startup-cpu-boost': '2x' }, startupBoost: { cpu: { type: 'Factor', factor: 3 } } }), 'app')?.amount,
    { kind: 'factor', factor: 3 },
    'the API field wins',
  );
});

test("the duration as upstream's updater reads it: the container policy's durationSeconds, else spec.startupBoost's, else 0", () => {
  const v = vpa({
    startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 15 } },
    policies: [
      { containerName: 'db', startupBoost: { cpu: { type: 'Factor', factor: 3, durationSeconds: 40 } } },
      { containerName: 'log', startupBoost: { cpu: { type: 'Factor', factor: 3 } } },
    ],
  });
  assert.equal(upstreamBoostDurationSeconds(v, 'db'), 40);
  assert.equal(upstreamBoostDurationSeconds(v, 'log'), 15, "its own boost without a duration: the VPA's");
  assert.equal(upstreamBoostDurationSeconds(v, 'app'), 15);
  assert.equal(upstreamBoostDurationSeconds(vpa(), 'app'), 0, 'no startupBoost: 0 (ends at Ready)');
  assert.equal(
    upstreamBoostDurationSeconds(vpa({ policies: [{ containerName: '*', startupBoost: { cpu: { type: 'Factor', factor: 2, durationSeconds: 5 } } }] }), 'app'),
    5,
    'the "*" policy counts',
  );
});
