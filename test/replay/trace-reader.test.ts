import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrace, readTraceFile } from '../../src/replay/trace-reader.ts';
import { TraceFormatError, TraceReadError } from '../../src/replay/trace-errors.ts';
import { describeResampling } from '../../src/replay/resample.ts';
import { AZURE_TRACE, BITBRAINS_TRACE, GOOGLE_2011_TRACE, realTracePath } from '../../src/replay/real-traces.ts';
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
    ['', 1, /empty/],
    [`${HEADER}\n`, 1, /nothing to replay: it has a header but no samples/],
    [`${HEADER}\n\n`, 2, /nothing to replay: it has a header but no samples/],
    [`${HEADER}\n100,a,NaN,1\n`, 2, /nothing to replay: all 1 rows have no CPU value/],
    [`${HEADER}\n100,a,1,-5\n`, 2, /memory_bytes "-5"/],
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

test('the real Azure trace in the repository reads as 34 CPU-only series at 5 minutes, untouched', async () => {
  const trace = await readTraceFile(realTracePath(process.cwd(), AZURE_TRACE));
  assert.equal(trace.containers.length, 34);
  for (const s of trace.containers) {
    assert.equal(s.intervalSeconds, 300);
    assert.equal(s.hasMemory, false);
    const days = seriesDays(s);
    assert.ok(days >= 27.75 && days <= 29.25, `${s.name}: ${days} days`);
  }
  // A regular trace without gaps needs no resampling: nothing merged, reordered, skipped.
  assert.deepEqual({ ...trace.resampling, rows: 0 }, { rows: 0, merged: 0, reordered: 0, skipped: 0, gaps: 0, longestGapSeconds: 0 });
});

test('the raw Bitbrains trace in the repository reads: 39 VMs with memory on a 5-minute step, irregular rows merged', async () => {
  const trace = await readTraceFile(realTracePath(process.cwd(), BITBRAINS_TRACE));
  assert.equal(trace.containers.length, 39);
  const counts = trace.resampling;
  assert.ok(counts !== undefined);
  assert.equal(counts.rows, 318_908);
  // 3,694 rows come less than a minute after the previous one of their VM; more come between 1 and 2.5 minutes.
  assert.ok(counts.merged >= 3_694, `merged ${counts.merged}`);
  assert.equal(counts.skipped, 0);
  assert.equal(counts.reordered, 0);
  assert.ok(counts.gaps >= 73, `gaps ${counts.gaps}`);
  let samples = 0;
  for (const s of trace.containers) {
    assert.equal(s.intervalSeconds, 300, s.name);
    assert.equal(s.hasMemory, true, s.name);
    samples += s.length;
    for (let i = 1; i < s.length; i++) {
      const gap = (s.times[i] ?? 0) - (s.times[i - 1] ?? 0);
      assert.ok(gap >= 150, `${s.name}: samples ${gap} s apart at ${s.times[i]}`);
    }
  }
  assert.equal(samples + counts.merged, counts.rows);
});

test('the Google 2011 per-job trace in the repository reads: 169 jobs with memory at 5 minutes, whole missing days kept as gaps', async () => {
  const trace = await readTraceFile(realTracePath(process.cwd(), GOOGLE_2011_TRACE));
  assert.equal(trace.containers.length, 169);
  // Regular 5-minute rows: nothing merged, reordered or skipped; the days the source dropped are
  // gaps (64, the longest 6 days and one step), never filled.
  assert.deepEqual(trace.resampling, { rows: 416_736, merged: 0, reordered: 0, skipped: 0, gaps: 64, longestGapSeconds: 6 * 86_400 + 300 });
  let samples = 0;
  for (const s of trace.containers) {
    assert.match(s.name, /^google-2011-job\d+$/);
    assert.equal(s.intervalSeconds, 300, s.name);
    assert.equal(s.hasMemory, true, s.name);
    samples += s.length;
    // At least 3 consecutive days of 288 samples each.
    assert.ok(s.length >= 3 * 288 && s.length % 288 === 0, `${s.name}: ${s.length} samples`);
    for (let i = 0; i < s.length; i++) {
      const cpu = s.cpu[i] ?? NaN;
      assert.ok(cpu >= 0.2 && cpu <= 3.6, `${s.name}: ${cpu} cores`);
    }
  }
  assert.equal(samples, 416_736);
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
  assert.deepEqual(
    whole.containers.map((c) => c.name),
    ['web', 'db'],
  );
});

test('rows as monitoring data brings them are resampled to the step: duplicates, jitter, disorder, gaps, NaN', async () => {
  const rows = [
    '0,a,0.1,100',
    '1,a,0.3,300', // 1 s later: merged (CPU mean 0.2, memory max 300)
    '60,a,0.5,50',
    '122,a,0.5,', // jitter: its own sample
    '240,a,0.7,70', // written before the rows it follows
    '180,a,0.6,60',
    '180,a,0.6,80', // exact duplicate time: merged
    '300,a,0.75,75',
    '660,a,0.8,90', // a gap of 6 steps
    '720,a,NaN,95', // no CPU value: skipped
    '780,a,0.9,nan', // no memory value; 2 steps after the last sample: a gap too
  ];
  const trace = await read([HEADER, ...rows, ''].join('\n'));
  const [a] = trace.containers;
  assert.ok(a !== undefined);
  assert.equal(a.intervalSeconds, 60);
  assert.deepEqual([...a.times], [0, 60, 122, 180, 240, 300, 660, 780]);
  assert.deepEqual([...a.cpu], [0.2, 0.5, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9]);
  assert.deepEqual(
    [...a.memory].map((m) => (Number.isNaN(m) ? null : m)),
    [300, 50, null, 80, 70, 75, 90, null],
  );
  assert.deepEqual(trace.resampling, { rows: 11, merged: 2, reordered: 1, skipped: 1, gaps: 2, longestGapSeconds: 360 });
  assert.match(
    describeResampling('t.csv', trace.resampling!) ?? '',
    /^t\.csv: 2 of 11 rows merged .*; 1 rows out of time order .*; 1 rows without a CPU value skipped; 2 gaps .*longest 6 min/,
  );
});

test('samples faster than 10 s are merged down to a 10 s step', async () => {
  const rows: string[] = [];
  for (let t = 0; t < 40; t++) rows.push(`${t},fast,${t % 2 === 0 ? 0.1 : 0.3},${1000 + t}`);
  const trace = await read([HEADER, ...rows].join('\n'));
  const [fast] = trace.containers;
  assert.equal(fast?.intervalSeconds, 10);
  // Each sample gathers the rows less than 5 s after its first: 0-4, 5-9, ...
  assert.deepEqual([...(fast?.times ?? [])], [0, 5, 10, 15, 20, 25, 30, 35]);
  // CPU is the mean of each sample's rows: 0.1, 0.3, 0.1, 0.3, 0.1 -> 0.18; then 0.22, 0.18, ...
  assert.deepEqual(
    [...(fast?.cpu ?? [])].map((c) => Math.round(c * 1e6) / 1e6),
    [0.18, 0.22, 0.18, 0.22, 0.18, 0.22, 0.18, 0.22],
  );
  assert.deepEqual([...(fast?.memory ?? [])], [1004, 1009, 1014, 1019, 1024, 1029, 1034, 1039]);
  assert.equal(trace.resampling?.merged, 32);
});

test('CPU values are kept exactly as written (no float32 rounding)', async () => {
  const trace = await read(`${HEADER}\n0,a,0.1234567,\n60,a,0.0010001,\n`);
  assert.deepEqual([...(trace.containers[0]?.cpu ?? [])], [0.1234567, 0.0010001]);
});

test('a gzip-compressed trace reads the same as the plain one, whatever its name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-trace-'));
  try {
    const text = `${HEADER}\n0,x,0.1,5\n10,x,0.2,6\n20,y,0.3,\n`;
    writeFileSync(join(dir, 't.csv'), text);
    writeFileSync(join(dir, 't.csv.gz'), gzipSync(text));
    writeFileSync(join(dir, 'named-plainly.csv'), gzipSync(text));
    const shape = (t: Awaited<ReturnType<typeof readTraceFile>>) => t.containers.map((c) => [c.name, [...c.times], [...c.cpu], [...c.memory]]);
    const plain = shape(await readTraceFile(join(dir, 't.csv')));
    assert.deepEqual(shape(await readTraceFile(join(dir, 't.csv.gz'))), plain);
    assert.deepEqual(shape(await readTraceFile(join(dir, 'named-plainly.csv'))), plain);
    // A truncated gzip stream is a read error with its cause, not a crash.
    writeFileSync(join(dir, 'cut.csv.gz'), gzipSync(text).subarray(0, 20));
    await assert.rejects(readTraceFile(join(dir, 'cut.csv.gz')), (err: unknown) => {
      assert.ok(err instanceof TraceReadError, String(err));
      assert.match(err.message, /cannot decompress trace .*cut\.csv\.gz/);
      assert.ok(err.cause instanceof Error);
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a binary file is refused without echoing its bytes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-trace-'));
  try {
    const junk = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe, 0x0a, 0x00, 0x01]);
    const noNewline = Buffer.alloc(200_000, 0xc3);
    for (const [name, bytes, problem] of [
      ['elf', junk, /1: not a CSV trace: the first line is binary data/],
      ['long', noNewline, /1: line longer than 65536 bytes: not a CSV trace/],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const err = await readTraceFile(path).then(
        () => assert.fail('accepted'),
        (e: unknown) => e as Error,
      );
      assert.ok(err instanceof TraceFormatError, String(err));
      assert.match(err.message, problem);
      // Only printable ASCII in the message: none of the file's bytes came through.
      assert.match(err.message, /^[\x20-\x7e]+$/);
      assert.ok(err.message.length < 200 + path.length, err.message);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a row with junk in a field names the line and shows the field cleaned and cut short', async () => {
  const err = await formatError(`${HEADER}\n0,a,\u0001\u0002${'9'.repeat(100)},1\n`);
  assert.equal(err.line, 2);
  assert.match(err.message, /cpu_cores "\?\?9{38}…" is not a non-negative number/);
});
