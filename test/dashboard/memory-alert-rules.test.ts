// The early memory warnings as shipped: the files equal the code, and `promtool test rules` (Debian's
// promtool, installed if missing) passes on synthetic series and fails for other thresholds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { memoryWarningRules, PROMETHEUS_RULE_FILE, prometheusRuleText, RULES_FILE, rulesFileText } from '../../src/dashboard/memory-alert-rules.ts';
import { ensureDebianPackage } from '../../src/local-prometheus/debian-package.ts';
import { MEMORY_WARNING_THRESHOLDS } from '../../src/policy/memory-warning-thresholds.ts';

const TESTS_FILE = join(dirname(RULES_FILE), 'tailor-memory-warnings.tests.yaml');

/** promtool on PATH, or a failure that says it is missing and how to get it. */
function promtool(): void {
  try {
    ensureDebianPackage('prometheus', ['promtool']);
  } catch (err) {
    assert.fail(`promtool is missing, so the alerting rules cannot be tested: ${(err as Error).message}`);
  }
}

function testRules(dir: string): { code: number | null; output: string } {
  const run = spawnSync('promtool', ['test', 'rules', basename(TESTS_FILE)], { cwd: dir, encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

test('the rule file and the PrometheusRule are what npm run rules:build writes, with the same group', () => {
  assert.equal(readFileSync(RULES_FILE, 'utf8'), rulesFileText(), 'run npm run rules:build');
  assert.equal(readFileSync(PROMETHEUS_RULE_FILE, 'utf8'), prometheusRuleText(), 'run npm run rules:build');
  const plain = parse(readFileSync(RULES_FILE, 'utf8')) as { groups: unknown[] };
  const object = parse(readFileSync(PROMETHEUS_RULE_FILE, 'utf8')) as { kind: string; spec: { groups: unknown[] } };
  assert.equal(object.kind, 'PrometheusRule');
  assert.deepEqual(object.spec.groups, plain.groups);
});

test('promtool test rules passes on the synthetic series: 75% warns, 85% escalates, two pods of one workload are flagged', () => {
  promtool();
  const run = testRules(dirname(RULES_FILE));
  assert.equal(run.code, 0, run.output);
  assert.match(run.output, /SUCCESS/);
});

test('the promtool cases fail for rules at other thresholds (the test can fail)', () => {
  promtool();
  const dir = mkdtempSync(join(tmpdir(), 'tailor-rules-'));
  try {
    copyFileSync(TESTS_FILE, join(dir, basename(TESTS_FILE)));
    const variants = [
      { ...MEMORY_WARNING_THRESHOLDS, warningRatio: 0.85 },
      { ...MEMORY_WARNING_THRESHOLDS, criticalRatio: 0.95 },
      { ...MEMORY_WARNING_THRESHOLDS, workloadPods: 3 },
      { ...MEMORY_WARNING_THRESHOLDS, warningFor: '1m' },
    ];
    for (const t of variants) {
      writeFileSync(join(dir, basename(RULES_FILE)), rulesFileText(memoryWarningRules(t)));
      const run = testRules(dir);
      assert.equal(run.code, 1, `${JSON.stringify(t)} should fail the cases:\n${run.output}`);
      assert.match(run.output, /FAILED/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
