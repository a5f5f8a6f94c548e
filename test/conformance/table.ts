/**
 * The table of one or more results directories, written again from their JUnit reports: for a run
 * stopped before its last suite (the completed suites' `<suite>.junit.xml` are kept as each ends),
 * or a whole run followed by focused re-runs of some specs (directories oldest first: a spec's
 * result is the one of the last directory that ran it, see mergeRuns).
 *
 * Usage: node --import tsx test/conformance/table.ts [tailor|upstream] <results-dir>...
 * Prints a per-suite count and the Markdown table; writes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUTOSCALER_NAMES, autoscalerMode } from './autoscaler.ts';
import { markdownTable, markNotApplicable, mergeRuns, NOT_APPLICABLE, readJunit, SUITES, tally, type SpecRow } from './suites.ts';

const args = process.argv.slice(2);
const which = args.find((a) => a === 'tailor' || a === 'upstream');
const dirs = args.filter((a) => a !== which);
const usage = 'usage: node --import tsx test/conformance/table.ts [tailor|upstream] <results-dir>...';
if (dirs.length === 0) {
  console.error(usage);
  process.exit(2);
}
for (const dir of dirs) {
  if (!existsSync(dir)) {
    console.error(`table.ts: ${dir}: no such results directory (${usage})`);
    process.exit(2);
  }
}
const mode = autoscalerMode(which);
const rows: SpecRow[] = [];
for (const suite of Object.keys(SUITES)) {
  const runs = dirs.map((dir) => join(dir, `${suite}.junit.xml`)).filter((junit) => existsSync(junit));
  if (runs.length === 0) {
    console.log(`${suite}: no report (not run)`);
    continue;
  }
  const read = runs.map((junit) => readJunit(suite, readFileSync(junit, 'utf8'), suite));
  const suiteRows = markNotApplicable(mergeRuns(read), mode === 'tailor' ? NOT_APPLICABLE : []);
  const t = tally(suiteRows);
  console.log(`${suite}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.notApplicable} not applicable (${runs.length} run(s))`);
  rows.push(...suiteRows);
}
console.log(markdownTable(rows, AUTOSCALER_NAMES[mode]));
