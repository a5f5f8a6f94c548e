/**
 * docs/decisions/README.md, the index of the decision records: one row a record with its number,
 * title, status, the records it replaces or changes and those that replaced or changed it. A
 * relation counts when either record's Status paragraph names it, so "Replaces decision 0013" in
 * 0278 shows on 0013's row too. Written by `npm run docs:decisions`; a test keeps it current.
 */
import type { DecisionRecord } from './decision-records.ts';

/** Where the index is written, from the repository's root. */
export const DECISION_INDEX_PATH = 'docs/decisions/README.md';

const PREAMBLE = `# Decision records

Why things are as they are, one short record each. A record is \`NNNN-short-title.md\`: its first
line is the heading \`# NNNN — Title\`, then a blank line and a \`Status:\` paragraph that starts with
\`accepted\` (or \`proposed\`, \`rejected\`), or with \`superseded by NNNN\`, \`replaced by NNNN\` or
\`taken by NNNN\` once a later record took its place. The paragraph may go on to name the records
this one replaces or changes ("Replaces decision 0013", "amends 0111", "refines 0225") or that
changed it ("amended by 0141"); the last two columns below come from those words, in either record.

This page is generated: after adding a record or changing a heading or a Status paragraph, run
\`npm run docs:decisions\` (\`test/docs/decision-index.test.ts\` fails while it is out of date, and
on a record without a status).
`;

/** `text` safe inside a table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The index page for `records` (in their order). */
export function decisionIndexPage(records: readonly DecisionRecord[]): string {
  const fileOf = new Map(records.map((r) => [r.number, r.file]));
  const link = (n: string) => (fileOf.has(n) ? `[${n}](${fileOf.get(n)})` : n);
  const edges = new Set<string>(); // "later>earlier"
  for (const r of records) {
    for (const n of r.replaces) edges.add(`${r.number}>${n}`);
    for (const n of r.replacedBy) edges.add(`${n}>${r.number}`);
  }
  const pairs = [...edges].map((e) => e.split('>') as [string, string]);
  const list = (numbers: string[]) => [...new Set(numbers)].sort().map(link).join(', ');
  const rows = records.map((r) => {
    const replaces = list(pairs.filter(([later]) => later === r.number).map(([, earlier]) => earlier));
    const replacedBy = list(pairs.filter(([, earlier]) => earlier === r.number).map(([later]) => later));
    const status = (r.status ?? 'no status').replace(/\b0\d{3}\b/, link);
    return `| ${link(r.number)} | ${cell(r.title ?? r.file)} | ${status} | ${replaces} | ${replacedBy} |`;
  });
  return [
    PREAMBLE,
    `${records.length} records:`,
    '',
    '| record | title | status | replaces or changes | replaced or changed by |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
