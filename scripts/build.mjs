#!/usr/bin/env node
// Compiles the CLI into dist/ with esbuild: one ES module per entry plus lazily loaded chunks (each
// command's implementation and each controller component is imported when it runs), so the
// `tailor` process runs plain JavaScript (no TypeScript compiler in the process: faster start, a
// smaller resident set). npm dependencies stay external (node_modules), except:
// - the workspace packages (kube-basics, kube-sim), which ship TypeScript sources;
// - @kubernetes/client-node, whose ~2,000 modules cost ~40 MiB of resident memory when loaded one by
//   one and ~0 once bundled into one (measured: importing the CLI peaks at 148 MiB with it external,
//   104 MiB bundled; decision 0195);
// - prometheus-query and axios under it (axios's own dependencies stay external);
// - node-fetch, which client-node bundles anyway and Tailor's request layer (src/kube/kube-request.ts)
//   sends with: one patched copy (below) for both.
// Two plugins trim what the controller loads but never uses, each checked against the installed
// package's source at build time (decision 0267): node-fetch gets Node's URL instead of whatwg-url
// and its Unicode tables (scripts/node-fetch-native-url.mjs), and axios loads without reading
// Node's fetch globals, which would load undici (scripts/axios-lazy-fetch-globals.mjs).
// dist/build-info.json lists the sources of the bundle with the build time: bin/tailor.mjs runs the
// bundle only while no listed source is newer, and the sources through tsx otherwise; and the npm
// packages the bundle imports (what scripts/image-modules.mjs gives the image).
// Usage: node scripts/build.mjs   (run by `npm ci` through the prepare script, and by `npm test`)
//        node scripts/build.mjs --image --outdir image/dist   the container image's CLI
//        (src/cli/image-main.ts: `tailor run` and `tailor audit`, the other commands one line each;
//        decision 0290), written where `tailor` in the checkout never runs it
import { build } from 'esbuild';
import { axiosLazyFetchGlobals } from './axios-lazy-fetch-globals.mjs';
import { nodeFetchNativeUrl } from './node-fetch-native-url.mjs';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { image: { type: 'boolean', default: false }, outdir: { type: 'string', default: 'dist' } } });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundled = new Set(['kube-basics', 'kube-sim', '@kubernetes/client-node', 'prometheus-query', 'node-fetch']);
// prometheus-query is bundled with axios under it, so that axios's reads of the fetch globals can
// be dropped (scripts/axios-lazy-fetch-globals.mjs); axios's own dependencies stay in node_modules,
// where the bundle finds them at the top level: the build fails if axios would get another copy.
const rootRequire = createRequire(join(root, 'package.json'));
const axiosRequire = createRequire(rootRequire.resolve('axios/package.json'));
const axiosDependencies = Object.keys(axiosRequire('./package.json').dependencies ?? {});
for (const name of axiosDependencies) {
  const own = axiosRequire.resolve(name);
  const topLevel = rootRequire.resolve(name);
  if (own !== topLevel) {
    process.stderr.write(`build failed: axios resolves ${name} to ${own}, the bundle would load ${topLevel}\n`);
    process.exit(1);
  }
}
const external = [...Object.keys(pkg.dependencies ?? {}).filter((name) => !bundled.has(name)), ...axiosDependencies];

const outdir = resolve(root, args.outdir);
const staging = `${outdir}.tmp-${process.pid}`;
const builtAt = Date.now();
try {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { tailor: args.image ? 'src/cli/image-main.ts' : 'src/cli/main.ts' },
    outdir: staging,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    metafile: true,
    sourcemap: 'linked',
    // Whitespace and comments out (names kept, so stack traces and error names read as in the
    // sources; the source map maps back). V8 keeps each loaded module's source in the heap, and one
    // non-ASCII character in a comment makes the whole bundle a two-byte string: 15.5 MiB of the
    // controller's heap before, 3.4 MiB after (decision 0243).
    minifyWhitespace: true,
    charset: 'ascii',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    // CommonJS code inside the bundle (client-node's dependencies) calls require() for built-ins.
    banner: { js: "import { createRequire as __tailorRequire } from 'node:module'; const require = __tailorRequire(import.meta.url);" },
    plugins: [nodeFetchNativeUrl, axiosLazyFetchGlobals],
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes('node_modules/'));
  // The npm packages the bundle imports at run time (`@scope/name/x` -> `@scope/name`), Node's own left out.
  const builtin = new Set(builtinModules);
  const packages = [
    ...new Set(
      Object.values(result.metafile.outputs)
        .flatMap((o) => o.imports)
        .filter((i) => i.external && !i.path.startsWith('node:') && !builtin.has(i.path))
        .map((i) =>
          i.path
            .split('/')
            .slice(0, i.path.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
    ),
  ].sort();
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'build-info.json'), `${JSON.stringify({ builtAt, inputs, packages }, null, 1)}\n`);
  // Swap in the new build whole, so a concurrent `tailor` never sees half of it.
  rmSync(outdir, { recursive: true, force: true });
  renameSync(staging, outdir);
} catch (err) {
  rmSync(staging, { recursive: true, force: true });
  process.stderr.write(`build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
