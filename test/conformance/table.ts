/**
 * The table of a results directory, written again from its JUnit reports: for a run stopped before
 * its last suite (the completed suites' `<suite>.junit.xml` are kept as each ends).
 *
 * Usage: node --import tsx test/conformance/table.ts <results-dir> [tailor|upstream]
 * Prints the Markdown table and a per-suite count; writes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUTOSCALER_NAMES, autoscalerMode } from './autoscaler.ts';
import { markdownTable, markNotApplicable, NOT_APPLICABLE, readJunit, SUITES, tally, type SpecRow } from './suites.ts';

const [dir, which] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node --import tsx test/conformance/table.ts <results-dir> [tailor|upstream]');
  process.exit(2);
}
const mode = autoscalerMode(which);
const rows: SpecRow[] = [];
for (const suite of Object.keys(SUITES)) {
  const junit = join(dir, `${suite}.junit.xml`);
  if (!existsSync(junit)) {
    console.log(`${suite}: no report (not run)`);
    continue;
  }
  const suiteRows = markNotApplicable(readJunit(suite, readFileSync(junit, 'utf8'), suite), mode === 'tailor' ? NOT_APPLICABLE : []);
  const t = tally(suiteRows);
  console.log(`${suite}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.notApplicable} not applicable`);
  rows.push(...suiteRows);
}
console.log(markdownTable(rows, AUTOSCALER_NAMES[mode]));
