/**
 * `npm run test:krew`: krew itself (built once from the Go module proxy by test/krew/build-krew.sh,
 * test infrastructure) installs the packed plugin from its manifest and archive, as a user does with
 * `kubectl krew install --manifest=tailor.yaml --archive=tailor.tar.gz`; the real kubectl then lists
 * and runs it; `krew uninstall` removes it. When krew is not cached it says SKIPPED and why.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, packagePlugin } from './package.ts';

const check = spawnSync('bash', ['test/krew/build-krew.sh', '--check'], { encoding: 'utf8' });
const krew = check.status === 0 ? check.stdout.trim() : undefined;
if (krew === undefined) console.log(`krew plugin check: SKIPPED: ${check.stdout.trim() || check.stderr.trim()}`);

const dir = mkdtempSync(join(tmpdir(), 'tailor-krew-'));
after(() => rmSync(dir, { recursive: true, force: true }));

if (krew !== undefined) {
  test('krew installs kubectl tailor from the manifest and archive; kubectl lists and runs it; krew uninstalls it', async () => {
    const { archive, manifest } = packagePlugin(join(dir, 'out'));
    const root = join(dir, 'krew-root');
    const env = { ...process.env, KREW_ROOT: root, KREW_NO_UPGRADE_CHECK: '1' };
    // An empty local index (a git repository with no plugins): `krew list` and `uninstall` want one,
    // and `krew update` would clone krew-index from the network, which this machine does not reach.
    mkdirSync(join(root, 'index', 'default', 'plugins'), { recursive: true });
    execFileSync('git', ['init', '-q', join(root, 'index', 'default')]);
    execFileSync(krew, ['install', `--manifest=${manifest}`, `--archive=${archive}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const bin = join(root, 'bin');
    const kubeconfig = join(dir, 'none');
    const list = await kubectl(bin, ['plugin', 'list', '--name-only'], kubeconfig);
    assert.match(list.stdout, /^kubectl-tailor$/m, list.stderr);
    assert.match(execFileSync(krew, ['list'], { env, encoding: 'utf8' }), /^detached\/tailor$/m, 'installed from a manifest, not from an index');
    const version = await kubectl(bin, ['tailor', '--version'], kubeconfig);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
    const help = await kubectl(bin, ['tailor', 'validate', '--help'], kubeconfig);
    assert.match(help.stdout, /^Usage: kubectl tailor validate /);
    execFileSync(krew, ['uninstall', 'tailor'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(existsSync(join(bin, 'kubectl-tailor')), false, 'uninstall removes the link');
    assert.equal(existsSync(join(root, 'store', 'tailor')), false, 'and the unpacked archive');
  });
}
