// Writes docs/decisions/README.md, the index of the decision records, from their headings and
// Status paragraphs (npm run docs:decisions). Refuses while a record has no status or names a
// record that does not exist.
import { writeFileSync } from 'node:fs';
import { decisionRecordProblems, readDecisionRecords } from './docs/decision-records.ts';
import { DECISION_INDEX_PATH, decisionIndexPage } from './docs/decision-index-page.ts';

const records = readDecisionRecords();
const problems = decisionRecordProblems(records);
if (problems.length > 0) {
  console.error(`docs:decisions: fix these records first:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
writeFileSync(DECISION_INDEX_PATH, decisionIndexPage(records));
console.log(`wrote ${DECISION_INDEX_PATH} (${records.length} records)`);
