#!/usr/bin/env node
// Packs `kubectl tailor` for krew: an archive that holds the compiled CLI (scripts/build.mjs), the
// npm packages it imports at run time (scripts/image-modules.mjs: nothing else) and a launcher named
// kubectl-tailor, plus the krew manifest (krew/tailor.yaml) filled with the archive's sha256 and URI.
// The archive is reproducible for the same sources and lockfile (sorted names, mtime 0, owner 0,
// gzip without a name or time), so its digest names exactly one build. The committed manifest
// carries a placeholder digest: the archive changes with every commit, so the manifest is filled
// when the archive is made, at release or in a test.
// Needs Node >= 20.10 on the machine that runs the plugin (the launcher is a Node script), and GNU
// tar and gzip on the machine that packs it.
// Usage: node scripts/krew-package.mjs OUTDIR [--uri URI]   (npm run krew:package -- OUTDIR)
//   writes OUTDIR/tailor.tar.gz and OUTDIR/tailor.yaml; URI defaults to a placeholder URL
//   (no release is published yet).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({ options: { uri: { type: 'string' } }, allowPositionals: true });
if (positionals.length !== 1) {
  process.stderr.write('usage: node scripts/krew-package.mjs OUTDIR [--uri URI]\n');
  process.exit(2);
}
const out = resolve(positionals[0]);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const uri = values.uri ?? `https://releases.example.com/tailor/v${pkg.version}/tailor.tar.gz`;

/** The launcher krew links as kubectl-tailor: runs the bundle beside it, named for kubectl. */
const LAUNCHER = `#!/usr/bin/env node
// kubectl-tailor, installed by krew: runs Tailor's compiled CLI from this folder.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
const { main } = await import('./dist/tailor.mjs');
process.exitCode = await main(process.argv);
`;

const stage = mkdtempSync(join(tmpdir(), 'tailor-krew-'));
try {
  const run = (cmd, args, options = {}) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], ...options });
  run(process.execPath, ['scripts/build.mjs', '--outdir', join(stage, 'dist')]);
  run(process.execPath, ['scripts/image-modules.mjs', join(stage, 'dist'), stage]);
  rmSync(join(stage, 'dist', 'build-info.json'));
  // The launcher imports './dist/tailor.mjs' relative to itself; Node needs to know it is a module.
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify({ name: 'kubectl-tailor', version: pkg.version, type: 'module', private: true }, null, 2)}\n`);
  writeFileSync(join(stage, 'kubectl-tailor'), LAUNCHER);
  chmodSync(join(stage, 'kubectl-tailor'), 0o755);
  mkdirSync(out, { recursive: true });
  const archive = join(out, 'tailor.tar.gz');
  const tar = execFileSync('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-C', stage, '-cf', '-', '.'], {
    maxBuffer: 1 << 30,
  });
  const gz = execFileSync('gzip', ['-n', '-9'], { input: tar, maxBuffer: 1 << 30 });
  writeFileSync(archive, gz);
  const sha256 = createHash('sha256').update(gz).digest('hex');
  const template = readFileSync(join(root, 'krew', 'tailor.yaml'), 'utf8');
  const manifest = template.replace(/uri: .*/, `uri: ${uri}`).replace(/sha256: .*/, `sha256: ${sha256}`);
  writeFileSync(join(out, 'tailor.yaml'), manifest);
  process.stdout.write(`${archive} (${(gz.length / 2 ** 20).toFixed(1)} MiB, sha256 ${sha256})\n${join(out, 'tailor.yaml')}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
