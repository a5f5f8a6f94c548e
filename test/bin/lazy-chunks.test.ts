/**
 * The bundle loads each command's implementation, and each controller component, only when it
 * runs (decision 0243): what `tailor --version` or `--help` loads (dist/tailor.mjs and the chunks it
 * imports statically) holds no client-node, no kube-sim and no report renderers, and the
 * controller's chunk imports the components dynamically. `npm test` builds dist/ first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The bundle files a module loads before it runs: itself and its static imports of other bundle files, transitively. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  // Static imports of bundle files: `import{...}from"./chunks/x.mjs"` or `import"./x.mjs"` (not `import("...")`).
  for (const m of text.matchAll(/\bimport\s*(?:[^'"();]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g)) staticClosure(join(dirname(file), m[1]!), seen);
  return seen;
}

/** The external packages a set of bundle files imports statically. */
function externalImports(files: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bimport\s*(?:[^'"();]*?\bfrom\s*)?["']([^."'][^"']*)["']/g)) names.add(m[1]!);
  }
  return names;
}

const chunks = readdirSync(join(DIST, 'chunks')).filter((f) => f.endsWith('.mjs')).map((f) => join(DIST, 'chunks', f));
const containing = (marker: string) => chunks.filter((f) => readFileSync(f, 'utf8').includes(marker));

test('starting the CLI loads no client-node, kube-sim, Prometheus client or report renderer', () => {
  const startup = staticClosure(join(DIST, 'tailor.mjs'));
  const text = [...startup].map((f) => readFileSync(f, 'utf8')).join('\n');
  // Markers of what must wait: client-node's generated API classes and KubeConfig, kube-sim's server.
  for (const marker of ['ObjectCoreV1Api=class', 'KubeConfig=class', 'function startKubeSim(']) {
    assert.equal(text.includes(marker), false, `${marker} is loaded at start`);
    assert.ok(containing(marker).length > 0, `${marker} is in the bundle (the check is not vacuous)`);
  }
  const external = externalImports(startup);
  for (const name of ['cli-table3', 'csv-stringify/sync', 'cli-progress', 'prometheus-query', 'prom-client', 'node-forge']) assert.equal(external.has(name), false, `${name} is imported at start`);
  assert.ok(external.has('commander'), 'the scan sees the start-up imports');
});

test('the controller imports each component when it starts it', () => {
  const registry = containing('recommender-component-');
  assert.ok(registry.length > 0, 'a chunk refers to the recommender component');
  for (const name of ['recommender-component-', 'updater-component-', 'admission-component-']) {
    assert.ok(registry.some((f) => new RegExp(`\\bimport\\(\\s*["']\\./${name}[A-Z0-9]+\\.mjs["']\\s*\\)`).test(readFileSync(f, 'utf8'))), `${name} is imported dynamically`);
  }
});
