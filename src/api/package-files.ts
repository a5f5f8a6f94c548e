/**
 * Files that ship with Tailor beside its code (CRD manifests, the dashboard, the demo scenario),
 * found from the package root, so the paths hold both for the TypeScript sources (src/…) and for the
 * compiled bundle (dist/…, whose modules sit at another depth).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder of Tailor's package.json: the first folder above this module whose package is `tailor`. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'tailor') {
      root = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find Tailor's package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The absolute path of a file shipped with the package, e.g. `packageFile('manifests/crds/')`. */
export function packageFile(relativePath: string): string {
  return join(packageRoot(), relativePath);
}
