/**
 * Reads the decision records of docs/decisions/ (`NNNN-title.md`): each opens with its heading
 * (`# NNNN — Title`), a blank line and a `Status:` paragraph. The status is its first words
 * (`accepted`, or `superseded by NNNN`, `replaced by NNNN`, `taken by NNNN`); the rest of the
 * paragraph may say which records this one replaces or changes ("Replaces decision 0013",
 * "amends 0111") and which changed it ("amended by 0141").
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of the records, from the repository's root. */
export const DECISIONS_DIR = 'docs/decisions';

/** One record as its heading and Status paragraph say. */
export interface DecisionRecord {
  /** The four digits of its file name, e.g. `0013`. */
  number: string;
  /** Its file name inside docs/decisions/. */
  file: string;
  /** The first heading without the number, e.g. `Pod LimitRange`; undefined when it has none. */
  title: string | undefined;
  /** The number the heading carries (it should be the file's). */
  headingNumber: string | undefined;
  /** The first words of the Status paragraph (`accepted`, `superseded by 0278`); undefined without a known status. */
  status: string | undefined;
  /** The whole Status paragraph as plain text (links as their text); undefined when there is none. */
  statusText: string | undefined;
  /** Records this one's status says it replaces or changes. */
  replaces: string[];
  /** Records this one's status says replaced or changed it. */
  replacedBy: string[];
}

const RECORD_FILE = /^(\d{4})-[a-z0-9.-]+\.md$/;
const HEADING = /^#\s+(\d{4})(?:\s*[—–:]\s*|\s+)(.+?)\s*$/;
/** The statuses a record may have: its Status paragraph starts with one of them. */
export const STATUS = /^(accepted|proposed|rejected|(?:superseded|replaced|taken) by (0\d{3}))\b/i;
/** A record's number inside prose: four digits starting with 0 (years such as 2026 are not records). */
const RECORD_NUMBER = /\b0\d{3}\b/g;
/** Verbs that point from a later record to an earlier one it replaces or changes, and the reverse. */
const REPLACES = /\b(?:replaces|supersedes|changes|amends|extends|refines)\b/gi;
const REPLACED_BY = /\b(?:superseded|replaced|taken|amended|changed) by\b/gi;

/** `text` with Markdown links as their text and code spans left out. */
function plain(text: string): string {
  return text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/(`+)[\s\S]*?\1/g, '');
}

/**
 * The records that the clauses of `status` name after a verb of `verbs` (up to the clause's next
 * verb of either kind). Clauses end at `;` or at a sentence's full stop.
 */
function named(status: string, verbs: RegExp, others: RegExp): string[] {
  const found: string[] = [];
  for (const clause of plain(status).split(/;|\.(?=\s|$)/)) {
    const marks = [
      ...[...clause.matchAll(verbs)].map((m) => ({ at: m.index, end: m.index + m[0].length, ours: true })),
      ...[...clause.matchAll(others)].map((m) => ({ at: m.index, end: m.index + m[0].length, ours: false })),
    ].sort((a, b) => a.at - b.at);
    marks.forEach((mark, i) => {
      if (!mark.ours) return;
      const upTo = marks[i + 1]?.at ?? clause.length;
      found.push(...(clause.slice(mark.end, upTo).match(RECORD_NUMBER) ?? []));
    });
  }
  return [...new Set(found)];
}

/** One record read from its file name and text. */
export function parseDecisionRecord(file: string, text: string): DecisionRecord {
  const lines = text.split('\n');
  const heading = HEADING.exec(lines[0] ?? '');
  // The Status paragraph is the first paragraph under the heading.
  let i = 1;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  let statusText: string | undefined;
  if (lines[i]?.startsWith('Status:')) {
    const paragraph: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== ''; i++) paragraph.push(lines[i]!.trim());
    statusText = paragraph.join(' ').replace(/^Status:\s*/, '');
  }
  const status = statusText === undefined ? undefined : STATUS.exec(plain(statusText))?.[0].toLowerCase();
  return {
    number: RECORD_FILE.exec(file)?.[1] ?? file,
    file,
    title: heading?.[2],
    headingNumber: heading?.[1],
    status,
    statusText: statusText === undefined ? undefined : plain(statusText),
    replaces: statusText === undefined ? [] : named(statusText, REPLACES, REPLACED_BY),
    replacedBy: statusText === undefined ? [] : named(statusText, REPLACED_BY, REPLACES),
  };
}

/** Every record of `dir` (`NNNN-title.md`; other files such as README.md are not records), in order. */
export function readDecisionRecords(dir = DECISIONS_DIR): DecisionRecord[] {
  return readdirSync(dir)
    .filter((name) => RECORD_FILE.test(name))
    .sort()
    .map((name) => parseDecisionRecord(name, readFileSync(join(dir, name), 'utf8')));
}

/**
 * What is wrong with `records`, one line each: a record without a heading or a known status, a
 * heading whose number is not the file's, a relation to a record that does not exist, or one that
 * runs backwards (a record replaced by an earlier one).
 */
export function decisionRecordProblems(records: readonly DecisionRecord[]): string[] {
  const numbers = new Set(records.map((r) => r.number));
  const problems: string[] = [];
  for (const r of records) {
    if (r.title === undefined) problems.push(`${r.file}: the first line is not a heading "# ${r.number} — Title"`);
    else if (r.headingNumber !== r.number) problems.push(`${r.file}: the heading says ${r.headingNumber}, the file name ${r.number}`);
    if (r.statusText === undefined)
      problems.push(`${r.file}: no "Status:" paragraph under the heading (accepted, or superseded by the record that replaced it)`);
    else if (r.status === undefined)
      problems.push(
        `${r.file}: the status "${r.statusText.slice(0, 60)}" does not start with accepted, proposed, rejected, or superseded/replaced/taken by NNNN`,
      );
    for (const n of [...r.replaces, ...r.replacedBy]) if (!numbers.has(n)) problems.push(`${r.file}: its status names ${n}, which is no record`);
    for (const n of r.replaces) if (n >= r.number) problems.push(`${r.file}: says it replaces or changes ${n}, a later record`);
    for (const n of r.replacedBy) if (n <= r.number) problems.push(`${r.file}: says it was replaced or changed by ${n}, an earlier record`);
  }
  return problems;
}
