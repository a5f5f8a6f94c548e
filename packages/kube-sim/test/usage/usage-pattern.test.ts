import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUsagePattern, UsagePatternError } from '../../src/usage/usage-pattern.ts';
import { usageAt, type UsageMoment } from '../../src/usage/usage-at.ts';
import { parseUsageTrace, traceRowAt } from '../../src/usage/usage-trace.ts';
import { containerUsages, parseUsageAnnotation } from '../../src/usage/usage-annotation.ts';

const DAY0 = Date.UTC(2026, 0, 1);
const H = 3_600_000;
const moment = (now: number, extra: Partial<UsageMoment> = {}): UsageMoment => ({
  now,
  simStart: DAY0,
  containerStart: DAY0,
  seed: 7,
  key: 'default/web-0/app/cpu',
  container: 'app',
  resource: 'cpu',
  ...extra,
});

const values: Array<[string, 'cpu' | 'memory', number, Partial<UsageMoment>, number]> = [
  ['300m', 'cpu', DAY0 + H, {}, 300],
  ['steady(1.5)', 'cpu', DAY0, {}, 1500],
  ['diurnal(100m, 500m)', 'cpu', DAY0 + 14 * H, {}, 500],
  ['diurnal(100m, 500m)', 'cpu', DAY0 + 2 * H, {}, 100],
  ['diurnal(100m, 500m)', 'cpu', DAY0 + 8 * H, {}, 300],
  ['diurnal(1Gi, 2Gi, period=12h, peak=0s)', 'memory', DAY0 + 3 * H, {}, 1.5 * 2 ** 30],
  ['leak(100Mi, 10Mi/h)', 'memory', DAY0 + 3 * H, {}, 130 * 2 ** 20],
  ['leak(100Mi, 10Mi/h)', 'memory', DAY0 + 3 * H, { containerStart: DAY0 + 2 * H }, 110 * 2 ** 20],
  ['leak(100Mi, 10Mi/h, max=120Mi)', 'memory', DAY0 + 5 * H, {}, 120 * 2 ** 20],
  ['sawtooth(100m, 200m, 10m)', 'cpu', DAY0 + 5 * 60_000, {}, 150],
  ['sawtooth(100m, 200m, 10m)', 'cpu', DAY0 + 10 * 60_000, {}, 100],
  ['startup(2, 200m, duration=1m)', 'cpu', DAY0 + 30_000, {}, 2000],
  ['startup(2, 200m, duration=1m)', 'cpu', DAY0 + 90_000, {}, 200],
  ['step(100m, 400m, 30m)', 'cpu', DAY0 + 29 * 60_000, {}, 100],
  ['step(100m, 400m, 30m)', 'cpu', DAY0 + 30 * 60_000, {}, 400],
  ['spiky(100m, 2, p=0)', 'cpu', DAY0 + H, {}, 100],
  ['spiky(100m, 2, p=1)', 'cpu', DAY0 + H, {}, 2000],
];

for (const [text, resource, now, extra, expected] of values) {
  test(`usage pattern ${text} (${resource}) at +${(now - DAY0) / 60_000} min is ${expected}`, () => {
    const got = usageAt(parseUsagePattern(text, resource), moment(now, { resource, ...extra }));
    assert.ok(Math.abs(got - expected) < 1e-6, `${got} != ${expected}`);
  });
}

const errors: Array<[string, 'cpu' | 'memory', RegExp]> = [
  ['wobble(1)', 'cpu', /unknown usage pattern "wobble": expected one of steady, diurnal/],
  ['diurnal(100m)', 'cpu', /diurnal needs 2 values \(low, high\), got 1 .*usage: diurnal\(low, high, period=24h, peak=14h\)/],
  ['diurnal(500m, 100m)', 'cpu', /high \(100m\) is below low \(500m\)/],
  ['leak(100Mi, 10Mi)', 'memory', /"10Mi" is not a rate \(expected a quantity per s, m, h or d, e.g. 10Mi\/h\)/],
  ['steady(lots)', 'memory', /"lots" is not a memory quantity/],
  ['sawtooth(1, 2, soon)', 'cpu', /"soon" is not a duration/],
  ['spiky(1, 2, p=3)', 'cpu', /"3" is not a probability between 0 and 1/],
  ['spiky(1, 2, q=3)', 'cpu', /spiky has no option "q"/],
  ['spiky(p=0.1, 1, 2)', 'cpu', /positional values must come before key=value options/],
  ['hello', 'cpu', /is not a usage pattern: expected a quantity or one of/],
];
for (const [text, resource, message] of errors) {
  test(`usage pattern ${text} is rejected with a clear message`, () => {
    assert.throws(
      () => parseUsagePattern(text, resource),
      (err: unknown) => err instanceof UsagePatternError && message.test(err.message),
    );
  });
}

test('noise is deterministic by seed and bounded', () => {
  const p = parseUsagePattern('steady(1, noise=0.2)', 'cpu');
  const a = usageAt(p, moment(DAY0 + 5 * 60_000));
  assert.equal(a, usageAt(p, moment(DAY0 + 5 * 60_000)));
  assert.notEqual(a, usageAt(p, moment(DAY0 + 5 * 60_000, { seed: 8 })));
  for (let i = 0; i < 100; i++) {
    const v = usageAt(p, moment(DAY0 + i * 60_000));
    assert.ok(v >= 800 && v <= 1200, String(v));
  }
});

test('spiky spikes in about p of the slots', () => {
  const p = parseUsagePattern('spiky(100m, 1, p=0.2, len=1m)', 'cpu');
  let spikes = 0;
  for (let i = 0; i < 2000; i++) if (usageAt(p, moment(DAY0 + i * 60_000)) === 1000) spikes++;
  assert.ok(spikes > 320 && spikes < 480, `${spikes} spikes of 2000`);
});

test('a trace replays rows relative to its start and loops', () => {
  const trace = parseUsageTrace(
    'timestamp,container,cpu_cores,memory_bytes\n2026-01-01T00:00:00Z,app,0.5,1000\n2026-01-01T00:01:00Z,app,0.25,2000\n2026-01-01T00:02:00Z,app,1,3000\n',
  );
  assert.equal(trace.spanMs, 180_000);
  assert.equal(traceRowAt(trace, 'app', 90_000)?.cpuMillicores, 250);
  assert.equal(traceRowAt(trace, 'app', 200_000)?.memoryBytes, 1000);
  const p = parseUsagePattern('trace(t.csv)', 'memory');
  assert.equal(usageAt(p, moment(DAY0 + 130_000, { resource: 'memory', traces: new Map([['t.csv', trace]]) })), 3000);
  assert.throws(() => parseUsageTrace('time,cpu\n1,2'), /must start with the header timestamp,container,cpu_cores,memory_bytes/);
  assert.throws(() => parseUsageTrace('timestamp,container,cpu_cores,memory_bytes\n1,app,x,3'), /trace line 2: cpu_cores "x"/);
});

test('the usage annotation: patterns over defaults, clear errors', () => {
  const containers = [{ name: 'app', resources: { requests: { cpu: '400m', memory: '100Mi' } } }, { name: 'side' }];
  const usage = containerUsages(containers, '{"app": {"memory": "leak(50Mi, 1Mi/m)"}}');
  assert.deepEqual(usage.app!.cpu, { kind: 'steady', value: 200, noise: 0.1 });
  assert.equal(usage.app!.memory.kind, 'leak');
  assert.deepEqual(usage.side!.memory, { kind: 'steady', value: 32 * 2 ** 20, noise: 0 });
  assert.throws(() => parseUsageAnnotation('{"app": {"disk": "1"}}'), /unknown resource "disk"/);
  assert.throws(() => parseUsageAnnotation('nope'), /is not JSON/);
  assert.throws(() => parseUsageAnnotation('{"app": {"cpu": "diurnal(1)"}}'), /app\.cpu: diurnal needs 2 values/);
  assert.throws(() => containerUsages(containers, '{"db": {"cpu": "1"}}'), /names container "db", which the pod does not have \(containers: app, side\)/);
});
