/**
 * The bundle loads each command's implementation, and each controller component, only when it
 * runs (decision 0243): what `tailor --version` or `--help` loads (dist/tailor.mjs and the chunks it
 * imports statically) holds no client-node, no kube-sim and no report renderers, and the
 * controller's chunk imports the components dynamically. And the controller's bundled clients load
 * neither Node's fetch implementation (undici) nor whatwg-url's tables (decision 0267), nor
 * client-node's generated API classes (decision 0274: Tailor's request layer replaces them). `npm test`
 * builds dist/ first.
 */
import { spawnSync } from 'node:child_process';
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

const chunks = readdirSync(join(DIST, 'chunks'))
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => join(DIST, 'chunks', f));
const containing = (marker: string) => chunks.filter((f) => readFileSync(f, 'utf8').includes(marker));

test('starting the CLI loads no client-node, kube-sim, Prometheus client or report renderer', () => {
  const startup = staticClosure(join(DIST, 'tailor.mjs'));
  const text = [...startup].map((f) => readFileSync(f, 'utf8')).join('\n');
  // Markers of what must wait: client-node's KubeConfig and object model, kube-sim's server, the
  // Prometheus client (bundled with axios).
  for (const marker of ['ObjectSerializer=class', 'KubeConfig=class', 'function startKubeSim(', 'PrometheusDriver=class']) {
    assert.equal(text.includes(marker), false, `${marker} is loaded at start`);
    assert.ok(containing(marker).length > 0, `${marker} is in the bundle (the check is not vacuous)`);
  }
  const external = externalImports(startup);
  for (const name of ['cli-table3', 'csv-stringify/sync', 'cli-progress', 'prometheus-query', 'prom-client', 'node-forge'])
    assert.equal(external.has(name), false, `${name} is imported at start`);
  assert.ok(external.has('commander'), 'the scan sees the start-up imports');
});

test('the controller imports each component when it starts it', () => {
  const registry = containing('recommender-component-');
  assert.ok(registry.length > 0, 'a chunk refers to the recommender component');
  for (const name of ['recommender-component-', 'updater-component-', 'admission-component-']) {
    assert.ok(
      registry.some((f) => new RegExp(`\\bimport\\(\\s*["']\\./${name}[A-Z0-9]+\\.mjs["']\\s*\\)`).test(readFileSync(f, 'utf8'))),
      `${name} is imported dynamically`,
    );
  }
});

test('loading the bundled Kubernetes and Prometheus clients loads no undici and no whatwg-url', () => {
  const clients = ['KubeConfig=class', 'PrometheusDriver=class'].map((marker) => {
    const found = containing(marker);
    assert.equal(found.length, 1, `one chunk holds ${marker}`);
    return found[0]!;
  });
  // Node loads undici on the first read of a fetch global (fetch, Request, Response, Headers, FormData).
  const script = `for (const f of ${JSON.stringify(clients)}) await import(f); console.log(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('undici'))));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout), []);
  for (const chunk of chunks) assert.equal(readFileSync(chunk, 'utf8').includes('node_modules/tr46/'), false, `${chunk} holds tr46`);
  assert.ok(containing('node_modules/node-fetch/').length > 0, 'node-fetch is in the bundle (the tr46 check is not vacuous)');
});

test("the bundle holds none of client-node's generated API classes, only its object model", () => {
  // esbuild writes a bundled class as `Name=class`: CoreV1ApiRequestFactory, CoreV1ApiResponseProcessor,
  // ObservableCoreV1Api, ObjectCoreV1Api (the layers of one generated API), KubernetesObjectApi.
  const generated = /\b(?:\w+ApiRequestFactory|\w+ApiResponseProcessor|Observable\w+Api|Object\w+Api|KubernetesObjectApi|BaseAPIRequestFactory)=class\b/;
  for (const chunk of chunks) assert.equal(generated.exec(readFileSync(chunk, 'utf8'))?.[0], undefined, `${chunk} holds a generated API class`);
  // Not vacuous: the scan sees client-node's classes in the same form.
  for (const marker of ['ObjectSerializer=class', 'KubeConfig=class', 'ApiException=class'])
    assert.equal(containing(marker).length, 1, `one chunk holds ${marker}`);
});
