import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeXml, ginkgoSelection, markdownTable, markNotApplicable, mergeRuns, NOT_APPLICABLE, readJunit, selectSuites, specName, tally } from './suites.ts';

// A report in ginkgo v2's JUnit layout (--ginkgo.junit-report): set-up nodes, a pass, a failure
// whose gomega message spans lines, a skipped spec.
const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
  <testsuites tests="4" disabled="0" errors="0" failures="1" time="40.2">
      <testsuite name="Kubernetes e2e suite" package="/x" tests="4" skipped="1" failures="1" time="40.2">
          <properties><property name="SuiteSucceeded" value="false"></property></properties>
          <testcase name="[SynchronizedBeforeSuite]" classname="Kubernetes e2e suite" status="passed" time="0.5"></testcase>
          <testcase name="[It] [sig-autoscaling] [VPA] [updater] [v1] Updater evicts pods when Admission Controller status available [Serial]" classname="Kubernetes e2e suite" status="passed" time="61.25"></testcase>
          <testcase name="[It] [sig-autoscaling] [VPA] [admission-controller] [v1] Admission-controller caps request according to container max limit set in LimitRange" classname="Kubernetes e2e suite" status="failed" time="9.1">
              <failure message="Expected&#xA;    &lt;string&gt;: 250m&#xA;to equal&#xA;    &lt;string&gt;: 200m" type="failed">[FAILED] Expected ... In [It] at: admission_controller.go:512</failure>
              <system-err>STEP: Setting up a hamster deployment</system-err>
          </testcase>
          <testcase name="[It] [sig-autoscaling] [VPA] [full-vpa] [v1] Pods under VPA with CPUStartupBoost boosts [Feature:OffByDefault]" classname="Kubernetes e2e suite" status="skipped" time="0"><skipped message="skipped"></skipped></testcase>
          <testcase name="[SynchronizedAfterSuite]" classname="Kubernetes e2e suite" status="failed" time="1"><failure message="namespace left behind" type="failed"></failure></testcase>
      </testsuite>
  </testsuites>`;

test('readJunit: one row per spec with its result, seconds and the failure on one line; failed set-up nodes kept', () => {
  const rows = readJunit('mixed', REPORT);
  assert.deepEqual(
    rows.map((r) => [r.spec, r.result, r.seconds, r.reason]),
    [
      ['Updater evicts pods when Admission Controller status available [Serial]', 'passed', 61.25, ''],
      [
        'Admission-controller caps request according to container max limit set in LimitRange',
        'failed',
        9.1,
        'Expected <string>: 250m to equal <string>: 200m',
      ],
      ['Pods under VPA with CPUStartupBoost boosts [Feature:OffByDefault]', 'skipped', 0, 'skipped'],
      ['[SynchronizedAfterSuite]', 'failed', 1, 'namespace left behind'],
    ],
  );
  assert.deepEqual(tally(rows), { passed: 1, failed: 2, skipped: 1, notApplicable: 0 });
});

test('readJunit with only: the specs of the other suites (skipped by the focus) are left out', () => {
  const rows = readJunit('updater', REPORT, 'updater');
  assert.deepEqual(
    rows.map((r) => r.spec),
    ['Updater evicts pods when Admission Controller status available [Serial]', '[SynchronizedAfterSuite]'],
  );
});

test('markdownTable: a row per spec, pipes escaped', () => {
  const table = markdownTable([{ suite: 's', spec: 'a | b', result: 'failed', seconds: 9.6, reason: 'x\ny' }]);
  assert.equal(table.split('\n')[2], '| s | a \\| b | failed | 10 | x y |');
});

test('markdownTable with an autoscaler: the result column says which one ran', () => {
  const row = { suite: 's', spec: 'x', result: 'passed', seconds: 1, reason: '' } as const;
  assert.equal(markdownTable([row], 'upstream VPA v1.8.1').split('\n')[0], '| suite | spec | result (upstream VPA v1.8.1) | s | reason |');
  assert.equal(markdownTable([row]).split('\n')[0], '| suite | spec | result | s | reason |');
});

test("ginkgoSelection: upstream's focus per suite, OffByDefault and Slow skipped on request", () => {
  assert.deepEqual(ginkgoSelection('updater', { offByDefault: false, slow: true }), [
    '--ginkgo.focus=\\[VPA\\] \\[updater\\]',
    '--ginkgo.skip=\\[Feature:OffByDefault\\]',
  ]);
  assert.deepEqual(ginkgoSelection('full-vpa', { offByDefault: true, slow: false, focus: 'OOM' }), [
    '--ginkgo.focus=\\[VPA\\] \\[full-vpa\\].*(?:OOM)',
    '--ginkgo.skip=\\[Slow\\]',
  ]);
  // A focus with alternatives stays inside the suite: 'a|b' is grouped, not 'suite.*a' or any 'b'.
  assert.deepEqual(
    ginkgoSelection('updater', { offByDefault: true, slow: true, focus: 'restart|sidecars' })[0],
    '--ginkgo.focus=\\[VPA\\] \\[updater\\].*(?:restart|sidecars)',
  );
  assert.deepEqual(ginkgoSelection('actuation', { offByDefault: true, slow: true }), ['--ginkgo.focus=\\[VPA\\] \\[actuation\\]']);
});

test('selectSuites: all five by default, unknown names refused with the known ones', () => {
  assert.deepEqual(selectSuites([]), ['recommender', 'updater', 'admission-controller', 'actuation', 'full-vpa']);
  assert.deepEqual(selectSuites(['updater']), ['updater']);
  assert.throws(() => selectSuites(['updaters']), /unknown suite\(s\) updaters \(known: recommender, updater, admission-controller, actuation, full-vpa\)/);
});

test('specName and decodeXml', () => {
  assert.equal(specName('[It] [sig-autoscaling] [VPA] [recommender] [v1] Checkpoints with missing VPA objects'), 'Checkpoints with missing VPA objects');
  assert.equal(decodeXml('a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39; &#xA;e'), 'a <b> & "c" \'d\' \ne');
});

test('ginkgoSelection: specs skipped by their words, matched literally', () => {
  assert.deepEqual(ginkgoSelection('admission-controller', { offByDefault: true, slow: true, skipSpecs: ['reloads the (webhook) leaf.'] }), [
    '--ginkgo.focus=\\[VPA\\] \\[admission-controller\\]',
    '--ginkgo.skip=reloads the \\(webhook\\) leaf\\.',
  ]);
  const skip = ginkgoSelection('admission-controller', { offByDefault: false, slow: false, skipSpecs: ['a'] })[1]!;
  assert.equal(skip, '--ginkgo.skip=\\[Feature:OffByDefault\\]|\\[Slow\\]|a');
});

test('markNotApplicable: a not-applicable spec skipped by its words says so and why; other rows and suites untouched', () => {
  const na = [{ suite: 'admission-controller', spec: 'reloads the webhook leaf', reason: 'not applicable: upstream secrets' }];
  const rows = markNotApplicable(
    [
      { suite: 'admission-controller', spec: 'Admission-controller reloads the webhook leaf and CA certificate', result: 'skipped', seconds: 0, reason: '' },
      { suite: 'updater', spec: 'Updater reloads the webhook leaf', result: 'skipped', seconds: 0, reason: '' },
      { suite: 'admission-controller', spec: 'Admission-controller reloads the webhook leaf and CA certificate', result: 'failed', seconds: 3, reason: 'x' },
    ],
    na,
  );
  assert.deepEqual(
    rows.map((r) => [r.result, r.reason]),
    [
      ['not applicable', 'not applicable: upstream secrets'],
      ['skipped', ''],
      ['failed', 'x'],
    ],
  );
  assert.deepEqual(tally(rows), { passed: 0, failed: 1, skipped: 1, notApplicable: 1 });
});

test('NOT_APPLICABLE: each names a known suite and gives a reason', () => {
  for (const n of NOT_APPLICABLE) {
    assert.ok(selectSuites([n.suite]).length === 1);
    assert.match(n.reason, /^not applicable: .{40,}/);
  }
});

test('mergeRuns: a focused re-run replaces the specs it ran, keeps the rest and their order', () => {
  const row = (spec: string, result: 'passed' | 'failed' | 'skipped', seconds = 1) => ({
    suite: 'recommender',
    spec,
    result,
    seconds,
    reason: result === 'failed' ? 'timed out' : '',
  });
  const whole = [row('A', 'failed', 900), row('B', 'passed'), row('C', 'failed')];
  const focused = [row('C', 'skipped', 0), row('A', 'passed', 300), row('B', 'skipped', 0), row('D', 'passed')];
  assert.deepEqual(mergeRuns([whole, focused]), [row('A', 'passed', 300), row('B', 'passed'), row('C', 'failed'), row('D', 'passed')]);
  // A spec only ever skipped stays skipped; the order of runs matters (the last that ran wins).
  assert.deepEqual(mergeRuns([[row('E', 'skipped', 0)]]), [row('E', 'skipped', 0)]);
  assert.deepEqual(
    mergeRuns([focused, whole]).find((r) => r.spec === 'A'),
    row('A', 'failed', 900),
  );
});
