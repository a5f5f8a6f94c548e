// An exit that skips the demo's orderly stop (here an uncaught error) still leaves nothing: the
// tracked child started in a process group of its own is killed, then the temp folder removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

/** Runs `body` in a fresh Node process (through tsx, so it imports the sources); resolves with its exit code and output. */
function runScript(body: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], { timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

const SETUP = `
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { track } from './src/local-prometheus/child-processes.ts';
import { removeAtExit } from './src/demo/leftovers.ts';
const dir = mkdtempSync(join(tmpdir(), 'tailor-leftovers-'));
writeFileSync(join(dir, 'history.om'), 'x');
const audit = join(dir + '-audit');
mkdirSync(audit);
const child = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
track(child);
const forget = removeAtExit({ tree: dir, ifEmpty: audit });
console.log(JSON.stringify({ pid: child.pid, dir, audit }));
`;

function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

test('a crash: the detached child is killed, the temp folder and the empty audit folder are removed', async () => {
  const r = await runScript(`${SETUP}\nsetTimeout(() => { throw new Error('the demo crashed'); }, 10);`);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /the demo crashed/);
  const { pid, dir, audit } = JSON.parse(r.stdout) as { pid: number; dir: string; audit: string };
  // SIGKILLed at the exit: the kernel may take a moment to end it.
  const deadline = Date.now() + 10_000;
  while (running(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(running(pid), false, `the child (pid ${pid}) is gone`);
  assert.equal(existsSync(dir), false, `${dir} is removed`);
  assert.equal(existsSync(audit), false, `${audit} (empty) is removed`);
});

test('after the orderly stop (forget), the exit touches nothing', async () => {
  const r = await runScript(`${SETUP}\nforget();\nprocess.kill(child.pid, 'SIGKILL');`);
  assert.equal(r.code, 0, r.stderr);
  const { dir, audit } = JSON.parse(r.stdout) as { dir: string; audit: string };
  assert.ok(existsSync(dir) && existsSync(audit), 'left for the teardown');
  for (const d of [dir, audit]) rmSync(d, { recursive: true, force: true });
});
