import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTable } from '../../src/replay/quality-report.ts';
import type { QualityFigures } from '../../src/replay/quality-tally.ts';

function figures(name: string, cpuSlack: number, memorySlack: number): QualityFigures {
  return {
    name,
    containers: 1,
    days: 1,
    containerDays: 1,
    cpu: { slackPct: cpuSlack, shortfallPct: 0 },
    memory: { slackPct: memorySlack, ooms: 0, oomFreeDaysPct: 100 },
    changesPerDay: 1,
    restartsPerDay: 0,
  };
}

test('with oracle-rules in the rows, every strategy gets its slack as a multiple of it', () => {
  const table = formatTable([figures('vpa', 60, 45), figures('oracle-rules', 20, 30)], 'vpa');
  const [header, vpa] = table.split('\n');
  assert.match(header ?? '', /cpu slack x oracle-rules\s+mem slack x oracle-rules$/);
  assert.match(vpa ?? '', /\s3\.00\s+1\.50$/);
});

test('without it, the table has no such columns', () => {
  assert.doesNotMatch(formatTable([figures('vpa', 60, 45)]), /oracle-rules/);
});
