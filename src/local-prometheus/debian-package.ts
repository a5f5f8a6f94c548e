/**
 * Makes sure a Debian package's binary is present: runs `apt-get install -y <package>` when it is
 * missing (CI and fresh machines run as root with apt), and `apt-get update` first if the install
 * fails for lack of package lists.
 */
import { spawnSync } from 'node:child_process';

function onPath(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

function aptInstall(pkg: string): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { stdio: 'inherit', env }).status === 0;
}

/** Ensures `binaries` are on PATH, installing `pkg` if not. Throws with a clear message on failure. */
export function ensureDebianPackage(pkg: string, binaries: readonly string[]): void {
  if (binaries.every(onPath)) return;
  if (!aptInstall(pkg)) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    if (!aptInstall(pkg)) throw new Error(`could not install the Debian package ${pkg} (needs root and apt)`);
  }
  const missing = binaries.filter((b) => !onPath(b));
  if (missing.length > 0) throw new Error(`package ${pkg} installed but ${missing.join(', ')} not on PATH`);
}
