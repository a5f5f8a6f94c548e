/**
 * bin/tailor.mjs runs the compiled bundle only while it is at least as new as every source it was
 * built from, and the TypeScript sources otherwise, so an edited checkout never runs stale code;
 * without sources (the image) the bundle is all there is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A package laid out like the repository, with a bundle and sources that say which one ran. */
function fakePackage(): { dir: string; source: string; run(): string } {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-bin-'));
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist'));
  mkdirSync(join(dir, 'src', 'cli'), { recursive: true });
  copyFileSync(join(ROOT, 'bin', 'tailor.mjs'), join(dir, 'bin', 'tailor.mjs'));
  writeFileSync(join(dir, 'package.json'), '{"name":"tailor","type":"module"}\n');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const source = join(dir, 'src', 'cli', 'main.ts');
  writeFileSync(source, "export async function main(): Promise<number> { process.stdout.write('sources'); return 0; }\n");
  writeFileSync(join(dir, 'dist', 'tailor.mjs'), "export async function main() { process.stdout.write('bundle'); return 0; }\n");
  const builtAt = Date.now();
  writeFileSync(join(dir, 'dist', 'build-info.json'), JSON.stringify({ builtAt, inputs: ['src/cli/main.ts'] }));
  const old = new Date(builtAt - 60_000);
  utimesSync(source, old, old);
  return {
    dir,
    source,
    run() {
      const result = spawnSync(process.execPath, [join(dir, 'bin', 'tailor.mjs')], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    },
  };
}

test('a bundle newer than its sources runs; a source edited since runs from the sources', () => {
  const pkg = fakePackage();
  try {
    assert.equal(pkg.run(), 'bundle');
    const later = new Date(Date.now() + 60_000);
    utimesSync(pkg.source, later, later);
    assert.equal(pkg.run(), 'sources');
  } finally {
    rmSync(pkg.dir, { recursive: true, force: true });
  }
});

test('without a build the sources run; without sources (an image) the bundle runs', () => {
  const pkg = fakePackage();
  try {
    rmSync(join(pkg.dir, 'src'), { recursive: true });
    assert.equal(pkg.run(), 'bundle');
  } finally {
    rmSync(pkg.dir, { recursive: true, force: true });
  }
  const unbuilt = fakePackage();
  try {
    rmSync(join(unbuilt.dir, 'dist'), { recursive: true });
    assert.equal(unbuilt.run(), 'sources');
  } finally {
    rmSync(unbuilt.dir, { recursive: true, force: true });
  }
});
