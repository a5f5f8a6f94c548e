// An esbuild plugin for scripts/build.mjs: node-fetch 2 (client-node's HTTP client) gets Node's own
// URL class in place of the whatwg-url package, which it never uses under Node (decision 0267).
//
// node-fetch 2.7 reads `const URL = Url.URL || whatwgUrl.URL` (Url being Node's `url` module), twice,
// and uses whatwg-url nowhere else: a fallback for runtimes without `url.URL`, which every Node
// since 10 has. Requiring whatwg-url still loads it, and with it tr46's Unicode mapping table: an
// array literal of ~8,800 nested arrays (260 KB of the bundle's source) that V8 builds into
// ~23,000 literal templates and arrays at start, about 3 MiB of the controller's heap. The plugin
// resolves node-fetch's `require('whatwg-url')` to a module exporting Node's `URL`, so the
// expression above yields the same class as before. The build fails if node-fetch stops naming
// whatwg-url only in that expression (an upgrade to check by hand).
import { readFileSync } from 'node:fs';

const nodeFetchFile = /[\\/]node_modules[\\/]node-fetch[\\/]lib[\\/]index\.m?js$/;

/** Throws unless every use of `whatwgUrl` in node-fetch's source is the require and the fallback. */
export function checkNodeFetchUsesWhatwgUrlAsFallbackOnly(source) {
  const uses = source.match(/.*\bwhatwgUrl\b.*/g) ?? [];
  const expected =
    /^(?:var whatwgUrl = _interopDefault\(require\('whatwg-url'\)\);|import whatwgUrl from 'whatwg-url';|const URL(?:\$1)? = Url\.URL \|\| whatwgUrl\.URL;)$/;
  if (uses.length === 0 || uses.some((line) => !expected.test(line.trim()))) {
    throw new Error(`node-fetch uses whatwg-url other than as a fallback for url.URL: ${uses.join(' | ')}`);
  }
}

/** The esbuild plugin. */
export const nodeFetchNativeUrl = {
  name: 'node-fetch-native-url',
  setup(build) {
    build.onResolve({ filter: /^whatwg-url$/ }, (args) => {
      if (!nodeFetchFile.test(args.importer)) return undefined;
      checkNodeFetchUsesWhatwgUrlAsFallbackOnly(readFileSync(args.importer, 'utf8'));
      return { path: 'whatwg-url', namespace: 'node-fetch-native-url' };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-fetch-native-url' }, () => ({
      contents: "const { URL } = require('node:url');\nmodule.exports = { URL };\n",
      loader: 'js',
    }));
  },
};
