import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runReplay } from '../../../src/cli/commands/replay.ts';
import { tailorInProcess } from '../cli-in-process.ts';

const HEADER = 'timestamp,container,cpu_cores,memory_bytes';

function withTrace(text: string, body: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-replay-cli-'));
  try {
    const path = join(dir, 'trace.csv');
    writeFileSync(path, text);
    body(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function tailor(...args: string[]) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', ...args], { encoding: 'utf8' });
}

interface Entry {
  name: string;
  containers: number;
  days: number;
  cpu: Record<string, number>;
  memory: Record<string, number>;
  changesPerDay: number;
  restartsPerDay: number;
  perContainer: Array<{ name: string }>;
}

function near(actual: unknown, expected: number): void {
  assert.equal(typeof actual, 'number');
  assert.ok(Math.abs((actual as number) - expected) < 1e-4, `${String(actual)} != ${expected}`);
}

test('tailor replay --format json follows the contract, with worked numbers', () => {
  const text = `${HEADER}\n0,web,0.1,100000000\n60,web,0.2,200000000\n120,web,0.1,100000000\n`;
  withTrace(text, (path) => {
    const r = tailor('replay', '--trace', path, '--strategy', 'oracle', '--strategy', 'krr', '--format', 'json', '--per-container');
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { strategies: Entry[] };
    assert.deepEqual(
      report.strategies.map((s) => s.name),
      ['oracle', 'krr'],
    );
    const [oracle, krr] = report.strategies;
    for (const s of report.strategies) {
      for (const key of ['name', 'containers', 'days', 'cpu', 'memory', 'changesPerDay', 'restartsPerDay']) assert.ok(key in s, key);
      assert.deepEqual(Object.keys(s.cpu).sort(), ['shortfallPct', 'slackPct']);
      for (const key of ['slackPct', 'ooms', 'oomFreeDaysPct']) assert.ok(key in s.memory, key);
      assert.equal(s.containers, 1);
      near(s.days, 180 / 86_400);
      assert.equal(s.perContainer.length, 1);
      assert.equal(s.perContainer[0]?.name, 'web');
    }
    // Oracle: 200m and 200 MB for the whole hour; CPU slack (100 + 0 + 100) / 600 = 33.3%.
    near(oracle?.cpu.slackPct, 100 / 3);
    near(oracle?.cpu.shortfallPct, 0);
    near(oracle?.memory.slackPct, 100 / 3);
    assert.equal(oracle?.memory.ooms, 0);
    // One change in 3 minutes = 480 per day.
    near(oracle?.changesPerDay, 480);
    // krr has fewer than 100 samples: the initial 500m / 1 GiB stay; CPU slack 1100 / 1500.
    near(krr?.cpu.slackPct, (1100 / 1500) * 100);
    near(krr?.memory.slackPct, ((3 * 1024 ** 3 - 4e8) / (3 * 1024 ** 3)) * 100);
    near(krr?.memory.oomFreeDaysPct, 100);
    // A smaller initial request: 100m and 150 MB -> CPU slack (0 + 0 + 0) and shortfall
    // (0 + 100 + 0) / 400; memory 200 MB > 150 MB is an OOM kill.
    const small = tailor('replay', '--trace', path, '--strategy', 'krr', '--initial-cpu', '100m', '--initial-memory', '150M', '--format', 'json');
    assert.equal(small.status, 0, small.stderr);
    const [k] = (JSON.parse(small.stdout) as { strategies: Entry[] }).strategies;
    near(k?.cpu.shortfallPct, 25);
    assert.equal(k?.memory.ooms, 1);
  });
});

test('tailor replay prints a table by default and fails with the line of a malformed row', () => {
  withTrace(`${HEADER}\n0,web,0.1,1\n60,web,oops,1\n`, (path) => {
    const r = tailor('replay', '--trace', path);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /trace\.csv:3: cpu_cores "oops"/);
  });
  withTrace(`${HEADER}\n0,web,0.1,1\n60,web,0.1,1\n`, (path) => {
    const r = tailor('replay', '--trace', path, '--strategy', 'oracle');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^strategy\s+containers/);
    assert.match(r.stdout, /\noracle\s+1\s/);
    const unknown = tailor('replay', '--trace', path, '--strategy', 'nope');
    assert.equal(unknown.status, 2, 'an unknown strategy is a usage error');
    assert.match(unknown.stderr, /unknown strategy "nope"/);
  });
});

test('tailor replay refuses a header-only trace with a clear error and a non-zero exit', () => {
  withTrace(`${HEADER}\n`, (path) => {
    const r = tailor('replay', '--trace', path);
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stderr, /^tailor replay: .*trace\.csv:1: nothing to replay: it has a header but no samples\n$/);
    assert.equal(r.stdout, '');
  });
});

test('tailor replay refuses a binary file without echoing its bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-replay-cli-'));
  try {
    const path = join(dir, 'image.png');
    writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const r = tailor('replay', '--trace', path);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /image\.png:1: not a CSV trace: the first line is binary data/);
    assert.doesNotMatch(r.stderr, /PNG|\u0089/);
    assert.match(r.stderr, /^[\x20-\x7e\n]+$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A stream that says it is (or is not) a terminal and keeps what is written. */
function terminal(isTTY: boolean): NodeJS.WritableStream & { text: string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  Object.defineProperty(stream, 'text', { get: () => text });
  return Object.assign(stream, { isTTY, columns: 100 }) as unknown as NodeJS.WritableStream & { text: string };
}

const OPTIONS = { strategy: ['oracle', 'krr'], format: 'table' as const, initialCpu: 500, initialMemory: 1024 ** 3, progress: true };

test('replay draws a progress bar (strategies x containers) on a terminal, and nothing when stderr is not one', async () => {
  const rows = [HEADER, ...[0, 60, 120].flatMap((t) => [`${t},web,0.1,100000000`, `${t},db,0.2,200000000`])].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'tailor-replay-cli-'));
  try {
    const path = join(dir, 'trace.csv');
    writeFileSync(path, `${rows}\n`);
    const out = terminal(false);
    const tty = terminal(true);
    await runReplay({ ...OPTIONS, trace: path }, out, tty);
    assert.match(tty.text, /replaying \[.*\] \d\/4 containers/);
    assert.match(tty.text, /4\/4 containers/);
    assert.match(out.text, /^strategy\s+containers/);
    const piped = terminal(false);
    await runReplay({ ...OPTIONS, trace: path }, terminal(false), piped);
    assert.equal(piped.text, '');
    const off = terminal(true);
    await runReplay({ ...OPTIONS, trace: path, progress: false }, terminal(false), off);
    assert.equal(off.text, '', '--no-progress');
    // --format yaml --output FILE: the JSON contract as YAML, in a file.
    const file = join(dir, 'report.yaml');
    const r = await tailorInProcess(['replay', '--trace', path, '--strategy', 'oracle', '--format', 'yaml', '--output', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(readFileSync(file, 'utf8'), /^strategies:\n {2}- name: oracle\n {4}containers: 2\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tailor replay runs the raw Bitbrains trace (.csv.gz) and warns once about what it merged', () => {
  const r = tailor('replay', '--trace', 'traces/bitbrains_rnd_2013-7.csv.gz', '--strategy', 'vpa', '--format', 'json');
  assert.equal(r.status, 0, r.stderr);
  const [vpa] = (JSON.parse(r.stdout) as { strategies: Entry[] }).strategies;
  assert.equal(vpa?.containers, 39);
  const warnings = r.stderr.split('\n').filter((line) => line.includes('warning'));
  assert.equal(warnings.length, 1, r.stderr);
  assert.match(warnings[0] ?? '', /^tailor: warning: traces\/bitbrains_rnd_2013-7\.csv\.gz: [\d,]+ of 318,908 rows merged .*; \d+ gaps /);
});
