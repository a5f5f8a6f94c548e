import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { QUALITY_PAGE, RISK_FIGURES, riskOutputs, type RiskRun } from '../../bench/risk-report.ts';

// The "At equal risk" section of docs/quality.md and its curves are written from the figures a run of
// `npm run bench:quality -- --write-docs` saved: no number on the page is typed by hand.
test('docs/quality.md\'s "At equal risk" section and its SVG curves are what the saved figures give', () => {
  const run = JSON.parse(readFileSync(RISK_FIGURES, 'utf8')) as RiskRun;
  assert.ok(run.traces.length >= 3, 'the figures cover the suite and the real traces');
  for (const [path, text] of riskOutputs(run, readFileSync(QUALITY_PAGE, 'utf8'))) {
    assert.equal(readFileSync(path, 'utf8'), text, `${path} is stale: run npm run docs:quality-curves (or bench:quality -- --write-docs)`);
  }
});
