/**
 * `npm run docs:quality-curves`: redraws the "At equal risk" section of docs/quality.md and its SVG
 * curves from the figures `npm run bench:quality -- --write-docs` saved (docs/images/quality-risk.json),
 * without replaying anything. `--check` only compares and fails when a file differs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { QUALITY_PAGE, RISK_FIGURES, riskOutputs, type RiskRun } from '../bench/risk-report.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const run = JSON.parse(await readFile(resolve(root, RISK_FIGURES), 'utf8')) as RiskRun;
const page = await readFile(resolve(root, QUALITY_PAGE), 'utf8');
let stale = 0;
for (const [path, text] of riskOutputs(run, page)) {
  const now = await readFile(resolve(root, path), 'utf8').catch(() => '');
  if (now === text) continue;
  stale++;
  if (check) console.error(`${path} differs from what ${RISK_FIGURES} gives`);
  else await writeFile(resolve(root, path), text);
}
if (check && stale > 0) process.exit(1);
console.log(check ? 'the page and curves match the figures' : `${stale} file(s) written from ${RISK_FIGURES}`);
