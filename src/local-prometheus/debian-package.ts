/**
 * Makes sure a Debian package's binary is present: runs `apt-get install -y <package>` when it is
 * missing, and `apt-get update` first if the install fails for lack of package lists. As root
 * (CI, containers, fresh machines) apt-get runs directly; otherwise through `sudo -n` when
 * passwordless sudo is available (never prompting); else it fails with a message saying what to run.
 */
import { spawnSync } from 'node:child_process';

function onPath(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

/** How to run apt-get here: directly as root, through passwordless sudo, or not at all. */
export function aptGetCommand(isRoot: boolean, sudoWorks: () => boolean): string[] | undefined {
  if (isRoot) return ['apt-get'];
  if (sudoWorks()) return ['sudo', '-n', 'apt-get'];
  return undefined;
}

function passwordlessSudo(): boolean {
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

/** Ensures `binaries` are on PATH, installing `pkg` if not. Throws with a clear message on failure. */
export function ensureDebianPackage(pkg: string, binaries: readonly string[]): void {
  if (binaries.every(onPath)) return;
  const apt = aptGetCommand(process.getuid?.() === 0, passwordlessSudo);
  if (!apt)
    throw new Error(
      `${binaries.join(', ')} not found and cannot install the Debian package ${pkg} (not root, no passwordless sudo): run \`sudo apt-get install -y ${pkg}\``,
    );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) => spawnSync(apt[0]!, [...apt.slice(1), ...args], { stdio: 'inherit', env }).status === 0;
  const install = () => run(['install', '-y', '--no-install-recommends', pkg]);
  if (!install()) {
    run(['update']);
    if (!install()) throw new Error(`could not install the Debian package ${pkg} with ${apt.join(' ')} (run \`sudo apt-get install -y ${pkg}\`)`);
  }
  const missing = binaries.filter((b) => !onPath(b));
  if (missing.length > 0) throw new Error(`package ${pkg} installed but ${missing.join(', ')} not on PATH`);
}
