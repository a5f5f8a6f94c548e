import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateWorkload, EVALUATION_SUITE } from '../../src/replay/workload/generator.ts';
import { ARCHETYPE_NAMES } from '../../src/replay/workload/archetypes.ts';
import { writeTraceFile } from '../../src/replay/trace-writer.ts';
import { readTraceFile } from '../../src/replay/trace-reader.ts';

const small = { seed: 42, perArchetype: 2, days: 1, intervalSeconds: 60 };

test('the same seed gives the same trace file, byte for byte; another seed does not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-gen-'));
  try {
    const paths = [join(dir, 'a.csv'), join(dir, 'b.csv'), join(dir, 'c.csv')];
    await writeTraceFile(generateWorkload(small), paths[0] ?? '');
    await writeTraceFile(generateWorkload(small), paths[1] ?? '');
    await writeTraceFile(generateWorkload({ ...small, seed: 43 }), paths[2] ?? '');
    const [a, b, c] = paths.map((p) => readFileSync(p, 'utf8'));
    assert.equal(a, b);
    assert.notEqual(a, c);
    // The file reads back: 9 archetypes x 2 containers, 1,440 samples each.
    const trace = await readTraceFile(paths[0] ?? '');
    assert.equal(trace.containers.length, 18);
    for (const s of trace.containers) assert.equal(s.length, 1440);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the suite has every archetype, at least 200 containers over at least 10 days', () => {
  assert.ok(EVALUATION_SUITE.perArchetype * ARCHETYPE_NAMES.length >= 200);
  assert.ok(EVALUATION_SUITE.days >= 10);
  const trace = generateWorkload({ ...EVALUATION_SUITE, perArchetype: 1, days: 2 });
  assert.deepEqual(
    trace.containers.map((c) => c.name.replace(/-\d+$/, '')),
    ARCHETYPE_NAMES,
  );
  for (const s of trace.containers) {
    for (let i = 0; i < s.length; i++) {
      assert.ok((s.cpu[i] ?? -1) >= 0 && (s.memory[i] ?? -1) > 0, `${s.name}[${i}]`);
    }
  }
});

test('archetypes have their shapes: the leak grows then drops at a restart, the step changes its level', () => {
  const trace = generateWorkload({ seed: 1, perArchetype: 1, days: 10, intervalSeconds: 300, archetypes: ['memory-leak', 'step-change'] });
  const [leak, step] = trace.containers;
  assert.ok(leak !== undefined && step !== undefined);
  let drops = 0;
  for (let i = 1; i < leak.length; i++) if ((leak.memory[i] ?? 0) < (leak.memory[i - 1] ?? 0) * 0.8) drops++;
  assert.ok(drops >= 2, `the leak restarted ${drops} times in 10 days`);
  const mean = (from: number, to: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) sum += step.cpu[i] ?? 0;
    return sum / (to - from);
  };
  const ratio = mean(step.length - 200, step.length) / mean(0, 200);
  assert.ok(ratio > 1.5 || ratio < 0.7, `step ratio ${ratio}`);
});
