/**
 * The krew manifest and archive of `kubectl tailor` (scripts/krew-package.mjs): the manifest names
 * this version and the launcher, the packer fills in the archive's digest, and the unpacked archive,
 * put on PATH as krew links it, runs as a kubectl plugin on its own (no checkout, no node_modules
 * above it). krew itself installs it in `npm run test:krew` (test/krew/krew-install.check.ts).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { kubectl, packagePlugin } from './package.ts';

const dir = mkdtempSync(join(tmpdir(), 'tailor-krew-manifest-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface KrewPlugin {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { version: string; shortDescription: string; platforms: { uri: string; sha256: string; bin: string; files: { from: string; to: string }[] }[] };
}

test('the committed manifest: plugin "tailor" at package.json\'s version, launcher kubectl-tailor', () => {
  const manifest = parse(readFileSync('krew/tailor.yaml', 'utf8')) as KrewPlugin;
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  assert.equal(manifest.apiVersion, 'krew.googlecontainertools.github.com/v1alpha2');
  assert.equal(manifest.kind, 'Plugin');
  assert.equal(manifest.metadata.name, 'tailor');
  assert.equal(manifest.spec.version, `v${version}`);
  assert.ok(manifest.spec.shortDescription.length <= 50, 'krew-index keeps short descriptions short');
  assert.equal(manifest.spec.platforms.length, 1);
  assert.equal(manifest.spec.platforms[0]!.bin, 'kubectl-tailor');
});

test('the packed archive: its digest in the manifest, and it runs as `kubectl tailor` from where it is unpacked', async () => {
  const out = join(dir, 'out');
  const { archive, manifest } = packagePlugin(out);
  const filled = parse(readFileSync(manifest, 'utf8')) as KrewPlugin;
  const digest = createHash('sha256').update(readFileSync(archive)).digest('hex');
  assert.equal(filled.spec.platforms[0]!.sha256, digest);
  const again = packagePlugin(join(dir, 'again'));
  assert.equal(createHash('sha256').update(readFileSync(again.archive)).digest('hex'), digest, 'the same sources pack to the same archive');

  const unpacked = join(dir, 'store');
  mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', archive, '-C', unpacked]);
  assert.ok((statSync(join(unpacked, 'kubectl-tailor')).mode & 0o111) !== 0, 'the launcher is executable');
  const kubeconfig = join(dir, 'none');
  const help = await kubectl(unpacked, ['tailor', '--help'], kubeconfig);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: kubectl tailor /);
  const bad = await kubectl(unpacked, ['tailor', 'recommend', '--prometheus-url', 'nope'], kubeconfig);
  assert.equal(bad.code, 2, 'a bad value is exit 2, as from the checkout');
  assert.match(bad.stderr, /^kubectl tailor recommend: /);
});
