// Rewrites the measured table of docs/architecture.md (lines, files, the biggest folder and file,
// arrows between the folders of src/, arrows back up, import circles) from the code, between the
// page's markers (npm run docs:architecture). The prose around the markers is kept.
import { readFileSync, writeFileSync } from 'node:fs';
import { ARCHITECTURE_PATH, currentMeasuredTable, withMeasuredTable } from './docs/measured-table.ts';

writeFileSync(ARCHITECTURE_PATH, withMeasuredTable(readFileSync(ARCHITECTURE_PATH, 'utf8'), await currentMeasuredTable()));
console.log(`updated the measured figures in ${ARCHITECTURE_PATH}`);
