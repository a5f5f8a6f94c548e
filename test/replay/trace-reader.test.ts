import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrace, readTraceFile } from '../../src/replay/trace-reader.ts';
import { TraceFormatError, TraceReadError } from '../../src/replay/trace-errors.ts';
import { locateSharedTrace } from '../../src/replay/shared-traces.ts';
import { seriesDays } from '../../src/replay/trace.ts';

const HEADER = 'timestamp,container,cpu_cores,memory_bytes';

function read(text: string) {
  return readTrace(Readable.from([text]), 'test.csv');
}

async function formatError(text: string): Promise<TraceFormatError> {
  try {
    await read(text);
  } catch (err) {
    assert.ok(err instanceof TraceFormatError, `expected a TraceFormatError, got ${String(err)}`);
    return err;
  }
  assert.fail('the trace was accepted');
}

test('interleaved containers, empty memory and CRLF line ends are read into per-container series', async () => {
  const text = [HEADER, '100,a,0.5,1000', '100,b,0.25,', '160,a,1.5,2000', '160,b,0.75,', ''].join('\r\n');
  const trace = await read(text);
  assert.equal(trace.containers.length, 2);
  const [a, b] = trace.containers;
  assert.ok(a !== undefined && b !== undefined);
  assert.equal(a.name, 'a');
  assert.deepEqual([...a.times], [100, 160]);
  assert.deepEqual([...a.cpu], [0.5, 1.5]);
  assert.deepEqual([...a.memory], [1000, 2000]);
  assert.equal(a.hasMemory, true);
  assert.equal(a.intervalSeconds, 60);
  assert.equal(b.hasMemory, false);
  assert.ok(Number.isNaN(b.memory[0] ?? 0));
  // Two samples 60 s apart cover 120 s.
  assert.equal(seriesDays(a), 120 / 86_400);
});

test('malformed rows are reported with their line number', async () => {
  const cases: Array<[string, number, RegExp]> = [
    ['time,container,cpu,mem\n1,a,1,1\n', 1, /expected the header/],
    [`${HEADER}\n100,a,0.5,1\n160,a,0.5\n`, 3, /4 comma-separated fields/],
    [`${HEADER}\n100,a,0.5,1,9\n`, 2, /4 comma-separated fields/],
    [`${HEADER}\n100,a,0.5,1\n\n160,a,abc,1\n`, 4, /cpu_cores "abc"/],
    [`${HEADER}\n100,a,-1,1\n`, 2, /cpu_cores "-1"/],
    [`${HEADER}\nnoon,a,1,1\n`, 2, /timestamp "noon"/],
    [`${HEADER}\n100,,1,1\n`, 2, /container name is empty/],
    [`${HEADER}\n100,a,1,12x\n`, 2, /memory_bytes "12x"/],
    [`${HEADER}\n100,a,0x10,1\n`, 2, /cpu_cores "0x10"/],
    [`${HEADER}\n100,a,1,1\n100,b,1,1\n50,a,1,1\n`, 4, /not after its previous sample/],
    [`${HEADER}\n100,a,1,1\n105,a,1,1\n`, 3, /5 s apart/],
    ['', 1, /empty/],
  ];
  for (const [text, line, message] of cases) {
    const err = await formatError(text);
    assert.equal(err.line, line, `${JSON.stringify(text)}: ${err.message}`);
    assert.match(err.message, message);
    assert.match(err.message, new RegExp(`^test\\.csv:${line}: `));
  }
});

test('a missing file is a TraceReadError with the cause kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-trace-'));
  try {
    await assert.rejects(readTraceFile(join(dir, 'none.csv')), (err: unknown) => {
      assert.ok(err instanceof TraceReadError);
      assert.ok(err.cause instanceof Error);
      return true;
    });
    const path = join(dir, 't.csv');
    writeFileSync(path, `${HEADER}\n0,x,0.1,5\n10,x,0.2,6\n`);
    const trace = await readTraceFile(path);
    assert.equal(trace.containers[0]?.length, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the real Azure trace beside the repository reads as 34 CPU-only series at 5 minutes', async () => {
  const path = locateSharedTrace(process.cwd());
  const trace = await readTraceFile(path);
  assert.equal(trace.containers.length, 34);
  for (const s of trace.containers) {
    assert.equal(s.intervalSeconds, 300);
    assert.equal(s.hasMemory, false);
    const days = seriesDays(s);
    assert.ok(days >= 27.75 && days <= 29.25, `${s.name}: ${days} days`);
  }
});

test('rows split across chunks at any byte (CRLF included) read the same', async () => {
  const text = [HEADER, '100,web,0.5,1000', '100,db,0.25,', '160,web,1.5,2000', '160,db,0.75,7'].join('\r\n');
  const whole = await read(text);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 3) pieces.push(text.slice(i, i + 3));
  const split = await readTrace(Readable.from(pieces), 'split.csv');
  assert.deepEqual(
    split.containers.map((c) => [c.name, [...c.times], [...c.cpu], [...c.memory]]),
    whole.containers.map((c) => [c.name, [...c.times], [...c.cpu], [...c.memory]]),
  );
  assert.deepEqual(whole.containers.map((c) => c.name), ['web', 'db']);
});
