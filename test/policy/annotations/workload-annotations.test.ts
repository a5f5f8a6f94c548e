import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeProblem } from '../../../src/policy/annotations/annotation-key.ts';
import { canaryCount, withPace } from '../../../src/policy/annotations/pace-annotations.ts';
import { readWorkloadAnnotations, WORKLOAD_ANNOTATION_KEYS } from '../../../src/policy/annotations/workload-annotations.ts';
import { DEFAULT_UPDATER_OPTIONS } from '../../../src/policy/update-thresholds.ts';

const problems = (annotations: Record<string, string>) => readWorkloadAnnotations(annotations).problems.map(describeProblem);

test('good values are read into settings', () => {
  const { settings, problems: found } = readWorkloadAnnotations({
    'tailor.dev/max-increase': '50%',
    'tailor.dev/max-decrease': '25%',
    'tailor.dev/cooldown': '5m',
    'tailor.dev/canary-share': '20%',
    'tailor.dev/disruption-windows': '* 2-4 * * 1-5; * * * * 0,6',
    'tailor.dev/disruption-window-timezone': 'Europe/Berlin',
    'tailor.dev/allow-container-restart': 'TRUE',
    'app.kubernetes.io/name': 'web',
  });
  assert.deepEqual(found, []);
  assert.deepEqual(settings, {
    pace: { maxStepUpFactor: 1.5, maxStepDownFactor: 0.75, podCooldownMs: 300_000, canaryShare: 0.2 },
    windows: { expressions: ['* 2-4 * * 1-5', '* * * * 0,6'], timezone: 'Europe/Berlin' },
    allowContainerRestart: true,
  });
});

test('no annotations: no overrides, no problems', () => {
  assert.deepEqual(readWorkloadAnnotations(undefined), { settings: { pace: {} }, problems: [] });
  assert.deepEqual(readWorkloadAnnotations({ 'tailor.dev/disruption-windows': '* 1 * * *' }).settings.windows, { expressions: ['* 1 * * *'], timezone: 'UTC' });
});

test('every bad value is reported, naming the annotation and what is wrong', () => {
  assert.deepEqual(
    problems({
      'tailor.dev/max-increase': 'fifty',
      'tailor.dev/max-decrease': '100%',
      'tailor.dev/cooldown': '5 minutes',
      'tailor.dev/canary-share': '120%',
      'tailor.dev/allow-container-restart': 'yes',
    }),
    [
      'tailor.dev/max-increase: "fifty": not a percentage (write e.g. 50%)',
      'tailor.dev/max-decrease: "100%": must be above 0% and below 100%',
      'tailor.dev/cooldown: "5 minutes": not a duration (write e.g. 90s, 5m, 1h30m)',
      'tailor.dev/canary-share: "120%": must be at least 0% and at most 100%',
      'tailor.dev/allow-container-restart: "yes": must be "true" or "false"',
    ],
  );
  assert.deepEqual(problems({ 'tailor.dev/max-increase': '0%' }), ['tailor.dev/max-increase: "0%": must be above 0% and at most 10000%']);
  // The chaos lane's hostile VPAs: a cooldown past what a Date holds was taken without a word.
  assert.deepEqual(problems({ 'tailor.dev/cooldown': '99999999999999h' }), ['tailor.dev/cooldown: "99999999999999h": too long: at most 3650d (ten years)']);
});

test('bad windows: a 6-field expression, a bad field, an empty list, an unknown zone, a zone alone', () => {
  assert.match(problems({ 'tailor.dev/disruption-windows': '0 * 2-4 * * 1-5' })[0]!, /has 6 field\(s\); write 5/);
  assert.match(problems({ 'tailor.dev/disruption-windows': '* 25 * * *' })[0]!, /^tailor\.dev\/disruption-windows: "\* 25 \* \* \*": "\* 25 \* \* \*": .*25/);
  assert.match(problems({ 'tailor.dev/disruption-windows': ' ; ' })[0]!, /no cron expression/);
  assert.deepEqual(problems({ 'tailor.dev/disruption-windows': '* 2 * * *', 'tailor.dev/disruption-window-timezone': 'Mars/Olympus' }), [
    'tailor.dev/disruption-window-timezone: "Mars/Olympus": not a known time zone (write e.g. Europe/Berlin, America/New_York or UTC)',
  ]);
  assert.deepEqual(problems({ 'tailor.dev/disruption-window-timezone': 'UTC' }), [
    'tailor.dev/disruption-window-timezone: "UTC": has no effect without tailor.dev/disruption-windows',
  ]);
  assert.equal(readWorkloadAnnotations({ 'tailor.dev/disruption-windows': '* 25 * * *' }).settings.windows, undefined);
});

test('start-up boost: a factor or a CPU quantity, until ready (+ seconds) or a fixed time', () => {
  assert.deepEqual(readWorkloadAnnotations({ 'tailor.dev/startup-cpu-boost': '2x' }).settings.startupBoost, {
    amount: { kind: 'factor', factor: 2 },
    until: { kind: 'ready', afterMs: 0 },
  });
  assert.deepEqual(readWorkloadAnnotations({ 'tailor.dev/startup-cpu-boost': '1500m', 'tailor.dev/startup-cpu-boost-duration': '90s' }).settings.startupBoost, {
    amount: { kind: 'fixed', millicores: 1500 },
    until: { kind: 'fixed', afterStartMs: 90_000 },
  });
  assert.deepEqual(
    readWorkloadAnnotations({ 'tailor.dev/startup-cpu-boost': '2', 'tailor.dev/startup-cpu-boost-duration': 'ready+30s' }).settings.startupBoost,
    { amount: { kind: 'fixed', millicores: 2000 }, until: { kind: 'ready', afterMs: 30_000 } },
  );
  assert.deepEqual(problems({ 'tailor.dev/startup-cpu-boost': '1x' }), [
    'tailor.dev/startup-cpu-boost: "1x": a factor must be above 1 and at most 100 (write e.g. 2x)',
  ]);
  assert.deepEqual(problems({ 'tailor.dev/startup-cpu-boost': 'lots' }), [
    'tailor.dev/startup-cpu-boost: "lots": neither a factor (2x) nor a CPU quantity (1500m, 2)',
  ]);
  assert.deepEqual(problems({ 'tailor.dev/startup-cpu-boost': '2x', 'tailor.dev/startup-cpu-boost-duration': 'until ready' }), [
    'tailor.dev/startup-cpu-boost-duration: "until ready": write ready, ready+30s or 90s',
  ]);
  assert.deepEqual(problems({ 'tailor.dev/startup-cpu-boost-duration': 'ready' }), [
    'tailor.dev/startup-cpu-boost-duration: "ready": has no effect without tailor.dev/startup-cpu-boost',
  ]);
});

test('an unknown tailor.dev/ key is reported (usually a typo); other prefixes are not ours', () => {
  const [p] = problems({ 'tailor.dev/cooldwon': '5m', 'example.com/cooldwon': 'x' });
  assert.match(p!, /^tailor\.dev\/cooldwon: "5m": unknown annotation \(known: tailor\.dev\/max-increase, /);
});

test('each example in the registry is a good value', () => {
  for (const k of WORKLOAD_ANNOTATION_KEYS) {
    const needs: Record<string, Record<string, string>> = {
      'tailor.dev/disruption-window-timezone': { 'tailor.dev/disruption-windows': '* * * * *' },
      'tailor.dev/startup-cpu-boost-duration': { 'tailor.dev/startup-cpu-boost': '2x' },
    };
    const extra = needs[k.key] ?? {};
    assert.deepEqual(problems({ ...extra, [k.key]: k.example }), [], k.key);
  }
});

test('withPace replaces only what the VPA sets; canaryCount rounds up, at least one', () => {
  const o = withPace(DEFAULT_UPDATER_OPTIONS, { podCooldownMs: 0 });
  assert.equal(o.podCooldownMs, 0);
  assert.equal(o.maxStepUpFactor, DEFAULT_UPDATER_OPTIONS.maxStepUpFactor);
  assert.equal(canaryCount(10, true, 0.2), 2);
  assert.equal(canaryCount(3, true, 0.2), 1);
  assert.equal(canaryCount(10, true, 0.25), 3);
  assert.equal(canaryCount(10, false, undefined), 0);
  assert.equal(canaryCount(10, true, undefined), 1);
  assert.equal(canaryCount(10, true, 0), 0);
});
