/**
 * Ctrl-C as a terminal sends it: the real CLI (`node bin/tailor.mjs demo`) runs in a process group
 * of its own (as a shell's foreground job), and SIGINT goes to the whole group
 * (`process.kill(-pid, 'SIGINT')`), so it reaches every child left in that group too. Once the demo
 * runs, Ctrl-C must still end with the audit (Prometheus must not have had the signal) and exit 0;
 * during start-up (promtool backfilling) with one line and exit 0, no banner; and whichever way the
 * demo ends (a reader closing its output pipe included), no process and no temp folder of it are
 * left. Every wait is for an output line or a process, with a generous deadline, never a fixed sleep.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

interface Demo {
  child: ChildProcess;
  pid: number;
  out: () => string;
  exited: Promise<number | null>;
  /** Resolves with the first line matching `pattern` (now or when it is printed); rejects if the demo exits first. */
  line: (pattern: RegExp, timeoutMs: number) => Promise<string>;
}

/** Starts the demo as a terminal's foreground job: a process group of its own (`setsid`). */
function startDemoGroup(args: string[]): Demo {
  const child = spawn(process.execPath, ['bin/tailor.mjs', 'demo', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: '/nonexistent' },
  });
  let out = '';
  const listeners = new Set<() => void>();
  const add = (d: string) => {
    out += d;
    for (const l of [...listeners]) l();
  };
  child.stdout!.setEncoding('utf8').on('data', add);
  child.stderr!.setEncoding('utf8').on('data', add);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
      for (const l of [...listeners]) l();
    }),
  );
  const line = (pattern: RegExp, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = out.split('\n').find((l) => pattern.test(l));
        if (found !== undefined) done(() => resolve(found));
        else if (child.exitCode !== null || child.signalCode !== null)
          done(() => reject(new Error(`the demo exited (${child.exitCode ?? child.signalCode}) before a line matching ${pattern}; output:\n${out}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${out}`))), timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });
  return { child, pid: child.pid!, out: () => out, exited, line };
}

/** What a terminal's Ctrl-C does: SIGINT to every process of the foreground group. */
function ctrlC(demo: Demo): void {
  process.kill(-demo.pid, 'SIGINT');
}

/** The processes whose command line mentions `text` (e.g. the demo's temp folder), with their parent. */
function processesMentioning(text: string): Array<{ pid: number; ppid: number; cmd: string }> {
  const found: Array<{ pid: number; ppid: number; cmd: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      if (!cmd.includes(text)) continue;
      const ppid = Number(
        readFileSync(`/proc/${name}/stat`, 'utf8')
          .replace(/^.*\) /s, '')
          .split(' ')[1],
      );
      found.push({ pid: Number(name), ppid, cmd });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Resolves once `check` holds; polls the process table (there is no event for a process starting). */
async function until<T>(check: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A process that runs (a zombie waiting for its reaper does not). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The running processes of a process group (zombies left out). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // After the `(comm) `: state ppid pgrp ...
      const [state, , pgrp] = readFileSync(`/proc/${name}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

/** On the way out of a failed test: the whole group and whatever still names the temp folder. */
async function ensureGone(demo: Demo, tempDir: () => string | undefined): Promise<void> {
  if (demo.child.exitCode === null && demo.child.signalCode === null) {
    process.kill(-demo.pid, 'SIGKILL');
    await demo.exited;
  }
  const dir = tempDir();
  if (dir === undefined) return;
  for (const p of processesMentioning(dir)) process.kill(p.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

/** Nothing of the demo is left: no process in its group, none using its temp folder, no temp folder. */
function assertNothingLeft(demo: Demo, tempDir: string): void {
  assert.deepEqual(groupMembers(demo.pid), [], "no process left in the demo's group");
  assert.deepEqual(processesMentioning(tempDir), [], `no process left using ${tempDir} (Prometheus, promtool)`);
  assert.equal(existsSync(tempDir), false, `${tempDir} is removed`);
}

test('Ctrl-C to the whole group while the demo runs: the audit is still written, exit 0, nothing left', { timeout: 240_000 }, async (t) => {
  const reports = join(mkdtempSync(join(tmpdir(), 'tailor-demo-ctrl-c-')), 'audit');
  const demo = startDemoGroup(['--duration', '300s', '--audit-dir', reports]);
  const seen: { tempDir?: string } = {};
  t.after(() => ensureGone(demo, () => seen.tempDir));
  t.after(() => rmSync(dirname(reports), { recursive: true, force: true }));

  const kubeconfig = (await demo.line(/^kubeconfig {2}/, 150_000)).split(/\s+/)[1]!;
  const tempDir = (seen.tempDir = dirname(kubeconfig));
  const prometheus = /^prometheus {2}http:\/\/127\.0\.0\.1:\d+ \(pid (\d+)\)/.exec(await demo.line(/^prometheus {2}/, 1_000));
  assert.ok(prometheus, `Prometheus runs:\n${demo.out()}`);
  await demo.line(/^tailor demo: running/, 10_000);

  ctrlC(demo);
  assert.equal(await demo.exited, 0, demo.out());
  const out = demo.out();
  assert.match(out, /^tailor demo: stopping \(SIGINT\)$/m);
  assert.doesNotMatch(out, /audit failed/);
  assert.match(out, new RegExp(`^tailor demo: audit report ${join(reports, 'latest.html')} \\(and latest.json; kept\\)$`, 'm'));
  assert.deepEqual(
    readdirSync(reports)
      .filter((f) => f.startsWith('latest.'))
      .sort(),
    ['latest.html', 'latest.json'],
  );
  assert.equal(JSON.parse(readFileSync(join(reports, 'latest.json'), 'utf8')).kind, 'TailorAuditReport');
  assert.match(out, /^tailor demo: stopped; Tailor, Prometheus and kube-sim are down/m);
  assertNothingLeft(demo, tempDir);
});

test('Ctrl-C to the whole group while promtool backfills: one line, no banner, exit 0, nothing left', { timeout: 240_000 }, async (t) => {
  const demo = startDemoGroup(['--duration', '300s', '--no-audit']);
  const seen: { tempDir?: string } = {};
  t.after(() => ensureGone(demo, () => seen.tempDir));

  await demo.line(/^tailor demo: backfilling/, 120_000);
  // promtool runs for a few seconds; its command line names the history file in the temp folder.
  const promtool = await until(
    () => processesMentioning('tailor-demo-').find((p) => p.ppid === demo.pid && /promtool tsdb create-blocks-from openmetrics/.test(p.cmd)),
    120_000,
    () => `promtool started by the demo; output:\n${demo.out()}`,
  );
  const tempDir = (seen.tempDir = /(\S*tailor-demo-[^/\s]+)\/history\.om/.exec(promtool.cmd)![1]!);

  ctrlC(demo);
  assert.equal(await demo.exited, 0, demo.out());
  const out = demo.out();
  assert.match(out, /^tailor demo: interrupted during start-up \(SIGINT\); stopped what had started$/m);
  assert.doesNotMatch(out, /Prometheus could not be started/);
  assert.doesNotMatch(out, /^(kubeconfig|metrics|prometheus|logs|audit) {2,}/m, 'no banner');
  assert.doesNotMatch(out, /tailor demo: running/);
  assertNothingLeft(demo, tempDir);
});

test("a reader that closes the demo's output (tailor demo | head) ends it at once: no Prometheus, no temp folder left", { timeout: 240_000 }, async (t) => {
  const demo = startDemoGroup(['--duration', '300s', '--no-audit']);
  const seen: { tempDir?: string } = {};
  t.after(() => ensureGone(demo, () => seen.tempDir));

  const kubeconfig = (await demo.line(/^kubeconfig {2}/, 150_000)).split(/\s+/)[1]!;
  const tempDir = (seen.tempDir = dirname(kubeconfig));
  const prometheusPid = Number(/\(pid (\d+)\)/.exec(await demo.line(/^prometheus {2}/, 1_000))![1]);
  await demo.line(/^tailor demo: running/, 10_000);
  // The next line the demo writes (its first action) meets a closed pipe: bin/tailor.mjs exits.
  demo.child.stdout!.destroy();
  await demo.exited;
  // SIGKILLed as the demo exited; the kernel takes a moment to end it.
  await until(
    () => (running(prometheusPid) ? undefined : true),
    10_000,
    () => `Prometheus (pid ${prometheusPid}) gone`,
  );
  assertNothingLeft(demo, tempDir);
});
