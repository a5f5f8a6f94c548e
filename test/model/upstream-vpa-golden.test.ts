/**
 * The `vpa` strategy against upstream VPA v1.8.1's own Go code: the events in
 * fixtures/upstream-vpa-golden/events.csv.gz were fed through upstream's model and logic packages
 * (dev/upstream-vpa-golden, run once) and its estimates were saved in estimates.csv.gz. Tailor's
 * `vpa` model, fed the same events, must give the same six numbers at every point, and accept and
 * refuse the same OOM events. How to regenerate: dev/upstream-vpa-golden/README.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vpaStrategy, type VpaUsageModel } from '../../src/model/vpa-strategy.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'upstream-vpa-golden');

function rows(file: string): string[][] {
  const text = gunzipSync(readFileSync(join(DIR, file))).toString('utf8');
  return text
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

/** Tailor's answers to the events, in upstream's output format. */
function tailorAnswers(): string[] {
  const strategy = vpaStrategy();
  const models = new Map<string, VpaUsageModel>();
  const out: string[] = [];
  for (const [seconds, name, kind, value] of rows('events.csv.gz')) {
    assert.ok(seconds !== undefined && name !== undefined && value !== undefined);
    let model = models.get(name);
    if (model === undefined) {
      model = strategy.newModel() as VpaUsageModel;
      models.set(name, model);
    }
    const at = Number(seconds) * 1000;
    if (kind === 'cpu') model.addCpuSample(Number(value), at);
    else if (kind === 'mem') model.addMemorySample(Number(value), at);
    else if (kind === 'oom') {
      if (!model.state.recordOom(Number(value), at)) out.push(`${seconds},${name},oom-discarded,,,,,`);
    } else if (kind === 'est') {
      const e = model.estimate(at);
      assert.ok(e !== undefined, `${name} at ${seconds}: no estimate`);
      out.push([seconds, name, e.target.cpu, e.lowerBound.cpu, e.upperBound.cpu, e.target.memory, e.lowerBound.memory, e.upperBound.memory].join(','));
    } else assert.fail(`unknown event kind ${kind}`);
  }
  return out;
}

test('the vpa strategy gives upstream VPA v1.8.1 estimates exactly, at every point of the golden events', () => {
  const expected = rows('estimates.csv.gz').map((r) => r.join(','));
  const actual = tailorAnswers();
  assert.ok(expected.length > 2000, `only ${expected.length} golden rows`);
  assert.ok(
    expected.some((line) => line.includes('oom-discarded')),
    'the golden events include OOM events that upstream refuses',
  );
  // Rows missing on either side (an OOM one side refuses shifts the rest), then the first difference.
  const have = new Set(actual);
  const missing = expected.filter((line) => !have.has(line)).length;
  const index = expected.findIndex((line, i) => line !== actual[i]);
  const first = index < 0 ? '' : `; first at line ${index + 2}: upstream ${expected[index]} vs tailor ${actual[index]}`;
  assert.equal(
    index < 0 && actual.length === expected.length,
    true,
    `tailor gave ${actual.length} rows, upstream ${expected.length}; ${missing} upstream rows missing${first}`,
  );
});
