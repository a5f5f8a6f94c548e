/**
 * The chaos workloads' usage script run with this machine's /bin/sh (POSIX, as busybox's sh in the
 * lane's image): a child holds the memory the level line asks for and is replaced when it changes,
 * the cpu burner appears with a cpu level and goes with a zero one, a bad line counts as zero, and
 * the loop exits 137 when its memory holder is killed (as the OOM killer does above the limit).
 * Waited for by polling /proc, never by the clock; how closely the cpu follows is for the real
 * cluster to measure.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { USAGE_SCRIPT, levelLine } from './usage-driver.ts';

const dir = mkdtempSync(join(tmpdir(), 'chaos-usage-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const MIB = 2 ** 20;

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const v = probe();
    if (v !== undefined) return v;
    await sleep(50);
  }
  throw new Error(`never: ${what}`);
}

/** The children of `pid` with their resident memory (read from /proc: no ps on a bare machine). */
function children(pid: number): { pid: number; rss: number }[] {
  const out: { pid: number; rss: number }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      out.push({ pid: Number(name), rss: Number(rss?.[1] ?? 0) * 1024 });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
const holding = (pid: number, bytes: number) => children(pid).find((c) => c.rss >= bytes);
/** A process's peak resident memory (VmHWM). */
const peak = (pid: number) => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

function start(name: string, line: string) {
  const levels = join(dir, name);
  writeFileSync(levels, line);
  const sh = spawn('/bin/sh', ['-c', USAGE_SCRIPT], { env: { ...process.env, LEVELS: levels }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  sh.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = () => {
    // Its descendants first, deepest first (a stopped burner, the holder's sleeps would outlive it),
    // then the loop; one that ended meanwhile (the loop's own sleep comes and goes) is skipped.
    const kill = (pid: number): void => {
      for (const c of children(pid)) kill(c.pid);
      try {
        process.kill(pid, 'SIGKILL');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    };
    for (const c of children(sh.pid!)) kill(c.pid);
    sh.kill('SIGKILL');
  };
  return { sh, levels, stop, stderr: () => stderr };
}

test('the level line drives the memory held and the cpu burner; a bad line is 0 0', async () => {
  const run = start('levels', levelLine(0, 20));
  try {
    const first = await until('a child holding 20 MiB', () => holding(run.sh.pid!, 20 * MIB));
    assert.equal(levelLine(250.4, 5), '250 5\n');
    writeFileSync(run.levels, levelLine(300, 40));
    await until('a child holding 40 MiB, in place of the first', () => {
      const h = holding(run.sh.pid!, 40 * MIB);
      return h && !children(run.sh.pid!).some((c) => c.pid === first.pid) ? h : undefined;
    });
    await until('the burner beside the holder', () => (children(run.sh.pid!).length >= 2 ? true : undefined));
    writeFileSync(run.levels, 'lots of cpu\n');
    await until("nothing held, no burner (the loop's own sleep comes and goes)", () => {
      const seen = [0, 1, 2].map(() => children(run.sh.pid!).length);
      return Math.min(...seen) === 0 ? true : undefined;
    });
  } finally {
    run.stop();
  }
});

test('the memory holder killed (the OOM killer above the limit): the loop exits 137 and says so', async () => {
  const run = start('killed', levelLine(0, 20));
  try {
    const holder = await until('a child holding 20 MiB', () => holding(run.sh.pid!, 20 * MIB));
    // The holder alone, as the OOM killer takes the largest process (its `sleep 5` ends on its own).
    process.kill(holder.pid, 'SIGKILL');
    const [code] = (await once(run.sh, 'exit')) as [number];
    assert.equal(code, 137);
    assert.match(run.stderr(), /memory holder killed at 20 MiB/);
  } finally {
    run.stop();
  }
});

test('the holder never holds much more than its level on the way (a limit a little above the level is not crossed)', async () => {
  const run = start('peak', levelLine(0, 60));
  try {
    const holder = await until('a child holding 60 MiB', () => holding(run.sh.pid!, 60 * MIB));
    // Held a while: every string made, the shell asleep.
    await until('the holder steady', () => (children(holder.pid).length > 0 && holding(run.sh.pid!, 60 * MIB) ? true : undefined));
    const hwm = peak(holder.pid);
    assert.ok(hwm < 66 * MIB, `peak ${(hwm / MIB).toFixed(1)} MiB for a level of 60 MiB`);
  } finally {
    run.stop();
  }
});
