/**
 * Restarting a lane process as up.sh started it: a process of its own session with a pid file and
 * a log, restarted with the same command line, environment and directory, its output appended, its
 * new pid in the pid file; a crash (SIGKILL) and a graceful stop both; a process that is not running
 * is refused by name.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { restartLaneProcess } from './lane-process.ts';

const root = mkdtempSync(join(tmpdir(), 'chaos-lane-process-'));
const dirs = { pids: join(root, 'pids'), logs: join(root, 'logs') };
mkdirSync(dirs.pids);
mkdirSync(dirs.logs);
const started: number[] = [];
after(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

/** Starts `name` as up.sh's start() does: setsid, output to its log, its pid in its file. */
function startLike(name: string): number {
  const log = openSync(join(dirs.logs, `${name}.log`), 'w');
  const child = spawn('/bin/sh', ['-c', 'echo "up in $(pwd) with $ROLE"; while :; do sleep 1; done'], {
    cwd: root,
    env: { PATH: process.env.PATH, ROLE: `the ${name}` },
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  writeFileSync(join(dirs.pids, `${name}.pid`), `${child.pid}\n`);
  started.push(child.pid!);
  return child.pid!;
}

async function logHas(name: string, lines: number): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const text = readFileSync(join(dirs.logs, `${name}.log`), 'utf8');
    if (text.split('\n').filter(Boolean).length >= lines) return text;
    await sleep(25);
  }
  throw new Error(`${name}'s log never had ${lines} lines`);
}

for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
  test(`${signal}: the same command, environment and directory again, output appended, the new pid in the pid file`, async () => {
    const name = `etcd-${signal}`;
    const first = startLike(name);
    await logHas(name, 1);
    const { before, after: now } = await restartLaneProcess(dirs, name, { signal, downMs: 10 });
    started.push(now);
    assert.equal(before, first);
    assert.notEqual(now, first);
    assert.equal(readFileSync(join(dirs.pids, `${name}.pid`), 'utf8').trim(), String(now));
    const log = await logHas(name, 2);
    assert.deepEqual(log.trim().split('\n'), [`up in ${root} with the ${name}`, `up in ${root} with the ${name}`]);
    assert.deepEqual(readFileSync(`/proc/${now}/cmdline`, 'utf8').split('\0').slice(0, 2), ['/bin/sh', '-c']);
  });
}

test('a process that is not running is refused by name', async () => {
  writeFileSync(join(dirs.pids, 'kubelet-9.pid'), '999999999\n');
  await assert.rejects(restartLaneProcess(dirs, 'kubelet-9'), /lane process kubelet-9 \(pid 999999999\) is not running/);
});
