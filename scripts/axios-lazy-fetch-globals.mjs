// An esbuild plugin for scripts/build.mjs: axios (under prometheus-query, Tailor's PromQL client)
// loads without reading Node's fetch globals, so the controller does not load undici, the fetch
// implementation inside Node, which it never uses (decision 0267).
//
// Node defines `fetch`, `Request`, `Response`, `Headers` and `FormData` as lazy globals: the first
// read of one loads undici (its JavaScript and the source of its llhttp WebAssembly), about 5 MiB of
// the idle controller's resident set. axios 1.x reads two of them when it loads, and sends through
// its `http` adapter in Node all the same. The plugin rewrites the two places, each kept exact:
// - lib/adapters/fetch.js ends with `const adapter = getFetch(); export default adapter;`: building
//   the fetch adapter, which reads `Request` and constructs a few to test the runtime. The call is
//   marked pure (`/* @__PURE__ */`), so esbuild drops it when nothing imports that default export,
//   as in this bundle (adapters.js uses the module's `getFetch`, which builds the adapter on demand
//   if a request asks for it); were the default export used, the call would stay as written.
// - lib/utils.js keeps `const FormDataCtor = ... G.FormData ...` for `isFormData`'s first test,
//   `thing instanceof FormDataCtor`. The rewrite reads `G.FormData` in that test instead, and only
//   for a value whose tag reads `[object FormData]`, as every native FormData's does: a native
//   FormData exists only once undici is loaded, so other values can never pass that test, and for
//   those the function goes on to its other tests as before.
// For esbuild to see these files (axios's ES module sources, not its one-file CommonJS build),
// prometheus-query resolves to its ES module build, which imports axios: both are the packages' own
// builds of the same sources. The build fails if a rewritten line is not found exactly once (an
// axios upgrade to look at).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const fetchAdapterFile = /[\\/]node_modules[\\/]axios[\\/]lib[\\/]adapters[\\/]fetch\.js$/;
const utilsFile = /[\\/]node_modules[\\/]axios[\\/]lib[\\/]utils\.js$/;

/** Replaces `from` by `to` in `source`; throws unless `from` occurs exactly once. */
function replaceOnce(source, from, to, file) {
  if (source.split(from).length !== 2) throw new Error(`axios ${file}: expected one '${from}' (axios changed?)`);
  return source.replace(from, () => to);
}

/** lib/adapters/fetch.js with its load-time `getFetch()` marked pure. */
export function markFetchProbePure(source) {
  return replaceOnce(source, 'const adapter = getFetch();', 'const adapter = /* @__PURE__ */ getFetch();', 'lib/adapters/fetch.js');
}

/** lib/utils.js reading `G.FormData` only while testing a value tagged FormData. */
export function readFormDataOnDemand(source) {
  const declared = replaceOnce(source, "const FormDataCtor = typeof G.FormData !== 'undefined' ? G.FormData : undefined;\n", '', 'lib/utils.js');
  return replaceOnce(
    declared,
    'if (FormDataCtor && thing instanceof FormDataCtor) return true;',
    "if (kindOf(thing) === 'formdata' && typeof G.FormData !== 'undefined' && thing instanceof G.FormData) return true;",
    'lib/utils.js',
  );
}

/** The esbuild plugin. */
export const axiosLazyFetchGlobals = {
  name: 'axios-lazy-fetch-globals',
  setup(build) {
    build.onResolve({ filter: /^prometheus-query$/ }, (args) => {
      const manifest = createRequire(join(args.resolveDir, 'index.js')).resolve('prometheus-query/package.json');
      const { module } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (typeof module !== 'string') throw new Error('prometheus-query: no ES module build ("module" in its package.json)');
      return { path: join(dirname(manifest), module) };
    });
    build.onLoad({ filter: fetchAdapterFile }, async (args) => ({ contents: markFetchProbePure(await readFile(args.path, 'utf8')), loader: 'js' }));
    build.onLoad({ filter: utilsFile }, async (args) => ({ contents: readFormDataOnDemand(await readFile(args.path, 'utf8')), loader: 'js' }));
  },
};
