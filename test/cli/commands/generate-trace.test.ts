import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tailorInProcess } from '../cli-in-process.ts';

function tailor(...args: string[]) {
  return spawnSync(process.execPath, ['bin/tailor.mjs', ...args], { encoding: 'utf8' });
}

const BIN = join(process.cwd(), 'bin', 'tailor.mjs');

test('tailor generate-trace writes a seeded trace that tailor replay reads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-gen-cli-'));
  try {
    const a = join(dir, 'a.csv');
    const b = join(dir, 'b.csv');
    const common = ['--per-archetype', '1', '--days', '1', '--interval', '300', '--archetype', 'steady', '--archetype', 'batch'];
    assert.equal(tailor('generate-trace', '--out', a, '--seed', '7', ...common).status, 0);
    assert.equal(tailor('generate-trace', '--out', b, '--seed', '7', ...common).status, 0);
    const text = readFileSync(a, 'utf8');
    assert.equal(text, readFileSync(b, 'utf8'));
    const lines = text.trim().split('\n');
    // Header + 2 containers x 288 five-minute samples.
    assert.equal(lines.length, 1 + 2 * 288);
    assert.equal(lines[0], 'timestamp,container,cpu_cores,memory_bytes');
    const replay = tailor('replay', '--trace', a, '--strategy', 'tailor', '--format', 'json');
    assert.equal(replay.status, 0, replay.stderr);
    const report = JSON.parse(replay.stdout) as { strategies: Array<{ name: string; containers: number }> };
    assert.deepEqual(
      report.strategies.map((s) => [s.name, s.containers]),
      [['tailor', 2]],
    );
    const bad = tailor('generate-trace', '--out', join(dir, 'c.csv'), '--interval', '5');
    assert.equal(bad.status, 2, 'a bad option value is a usage error');
    assert.match(bad.stderr, /expected whole seconds from 10 to 300/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tailor generate-trace into a missing folder says so and exits 1', async () => {
  const r = await tailorInProcess([
    'generate-trace',
    '--out',
    '/nonexistent-dir-of-tailor/x.csv',
    '--per-archetype',
    '1',
    '--days',
    '1',
    '--interval',
    '300',
    '--archetype',
    'steady',
  ]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^tailor generate-trace: \/nonexistent-dir-of-tailor\/x\.csv: cannot write: the folder \/nonexistent-dir-of-tailor does not exist/);
});

test('tailor generate-trace --out - writes the trace to standard output (as --output - and validate -f - do), no file named -', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-gen-stdout-'));
  try {
    const common = ['--per-archetype', '1', '--days', '1', '--interval', '300', '--archetype', 'steady', '--seed', '7'];
    const piped = spawnSync(process.execPath, [BIN, 'generate-trace', '--out', '-', ...common], { encoding: 'utf8', cwd: dir });
    assert.equal(piped.status, 0, piped.stderr);
    assert.deepEqual(readdirSync(dir), [], 'nothing written in the current folder');
    const file = join(dir, 'a.csv');
    assert.equal(spawnSync(process.execPath, [BIN, 'generate-trace', '--out', file, ...common], { encoding: 'utf8', cwd: dir }).status, 0);
    assert.equal(piped.stdout, readFileSync(file, 'utf8'), 'the same trace as in a file');
    assert.match(piped.stderr, /^wrote 1 containers x 288 samples to standard output\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
