/**
 * docs/decisions/README.md is the index of the decision records, written by `npm run
 * docs:decisions`: it must be what the script would write today, and every record must have a
 * status (issue 32 item 4).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decisionRecordProblems, parseDecisionRecord, readDecisionRecords } from '../../scripts/docs/decision-records.ts';
import { DECISION_INDEX_PATH, decisionIndexPage } from '../../scripts/docs/decision-index-page.ts';

test('docs/decisions/README.md is the index the records make today (npm run docs:decisions)', () => {
  const records = readDecisionRecords();
  assert.ok(records.length >= 155, `${records.length} records`);
  assert.equal(readFileSync(DECISION_INDEX_PATH, 'utf8'), decisionIndexPage(records), 'stale: run npm run docs:decisions');
});

test('every decision record has a heading with its number and a known status, and names only records that exist', () => {
  assert.deepEqual(decisionRecordProblems(readDecisionRecords()), []);
});

test('the status is the first words of the Status paragraph; the relations are the records named after a verb', () => {
  const superseded = parseDecisionRecord(
    '0013-pod-limitrange.md',
    "# 0013 — LimitRange of type Pod\n\nStatus: superseded by [0278](0278-limit-ranges-as-upstream.md) (upstream's\nscaling).\n\n## Context\nReplaces 0001.\n",
  );
  assert.equal(superseded.title, 'LimitRange of type Pod');
  assert.equal(superseded.status, 'superseded by 0278');
  assert.deepEqual([superseded.replaces, superseded.replacedBy], [[], ['0278']], 'only the Status paragraph counts');

  const amends = parseDecisionRecord(
    '0277-one-owner.md',
    '# 0277 — One owner\n\nStatus: accepted (issue 27 item 5). Amends 0081: the webhook no longer\ncompares groups. Amends 0090: ownership first.\n',
  );
  assert.equal(amends.status, 'accepted');
  assert.deepEqual([amends.replaces, amends.replacedBy], [['0081', '0090'], []]);

  const mixed = parseDecisionRecord(
    '0264-prepared.md',
    "# 0264: prepared\n\nStatus: taken by [0276](0276-x.md), with a preset (within 2x vpa's changes). After decisions 0250 and\n0251 the suite makes 5.8x vpa's changes a day. Decision 0151 stands (`changes 0001`), since 2 December 2026.\n",
  );
  assert.equal(mixed.status, 'taken by 0276');
  assert.deepEqual([mixed.replaces, mixed.replacedBy], [[], ['0276']], 'numbers before a verb, in another sentence or in code are not relations');

  const both = parseDecisionRecord(
    '0054-x.md',
    '# 0054 x\n\nStatus: accepted; memory rules amended by 0141 (checked), CPU by 0142; (issue 19; refines 0041, changed by 0283)\n',
  );
  assert.deepEqual([both.replaces, both.replacedBy], [['0041'], ['0141', '0142', '0283']], 'the records of a verb run up to the next verb');
});

test('a record without a status, with an unknown status, or naming a missing or later record is a problem', () => {
  const records = [
    parseDecisionRecord('0001-a.md', '# 0001 — A\n\n**Context.** no status line\n'),
    parseDecisionRecord('0002-b.md', '# 0002 — B\n\nStatus: maybe later\n'),
    parseDecisionRecord('0003-c.md', '# 0004 — C\n\nStatus: accepted (replaces 0009 and changes 0005)\n'),
    parseDecisionRecord('0005-d.md', '# 0005 — D\n\nStatus: superseded by 0001\n'),
  ];
  assert.deepEqual(decisionRecordProblems(records), [
    '0001-a.md: no "Status:" paragraph under the heading (accepted, or superseded by the record that replaced it)',
    '0002-b.md: the status "maybe later" does not start with accepted, proposed, rejected, or superseded/replaced/taken by NNNN',
    '0003-c.md: the heading says 0004, the file name 0003',
    '0003-c.md: its status names 0009, which is no record',
    '0003-c.md: says it replaces or changes 0009, a later record',
    '0003-c.md: says it replaces or changes 0005, a later record',
    '0005-d.md: says it was replaced or changed by 0001, an earlier record',
  ]);
});

test('the index shows a relation on both rows, whichever record names it', () => {
  const page = decisionIndexPage([
    parseDecisionRecord('0013-old.md', '# 0013 — Old | with a bar\n\nStatus: accepted\n'),
    parseDecisionRecord('0278-new.md', '# 0278 — New\n\nStatus: accepted. Replaces decision 0013 (part-way).\n'),
  ]);
  const rows = page.split('\n');
  assert.ok(rows.includes('| [0013](0013-old.md) | Old \\| with a bar | accepted |  | [0278](0278-new.md) |'), page);
  assert.ok(rows.includes('| [0278](0278-new.md) | New | accepted | [0013](0013-old.md) |  |'), page);
});
