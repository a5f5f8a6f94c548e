/**
 * The layer rule of docs/architecture.md: every folder of src/ has a layer, and the lint rule
 * refuses an upward import, a circle, kube-sim outside cli/demo/dashboard, a package importing
 * Tailor and a test reaching into packages/ by path (each checked on a deliberately wrong snippet;
 * `npm run lint` checks the tree itself).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = 'eslint.layers.config.js';

async function layers(): Promise<string[][]> {
  const url = new URL(`../../${CONFIG}`, import.meta.url).href;
  return ((await import(url)) as { LAYERS: string[][] }).LAYERS;
}

const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: CONFIG });

/** The messages of the layer rules for `code` as if it were the file at `path`. */
async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${path}` });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

test('every folder of src/ is in exactly one layer', async () => {
  const listed = (await layers()).flat();
  const folders = readdirSync(`${ROOT}src`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  assert.deepEqual([...listed].sort(), [...folders].sort());
  assert.equal(new Set(listed).size, listed.length);
});

test('an import down the layers passes; one up the layers fails', async () => {
  assert.deepEqual(await problems('src/controller/probe.ts', "import type { UpdateMode } from '../api/vpa.ts';\nexport type X = UpdateMode;\n"), []);
  const up = await problems('src/api/probe.ts', "import type { RunConfig } from '../controller/run-config.ts';\nexport type X = RunConfig;\n");
  assert.equal(up.length, 1, up.join('\n'));
  assert.match(up[0]!, /^import-x\/no-restricted-paths: .*src\/\{api,policy,config,observability\} may import only its own layer/);
});

test('kube-sim only from cli, demo and dashboard; packages by name only; packages import no Tailor code', async () => {
  const snippet = "import type { KubeSim } from 'kube-sim';\nexport type X = KubeSim;\n";
  assert.deepEqual(await problems('src/demo/probe.ts', snippet), []);
  assert.match((await problems('src/updater/probe.ts', snippet))[0] ?? '', /^no-restricted-imports: .*Only src\/cli, src\/demo and src\/dashboard use kube-sim/);
  assert.match((await problems('test/kube/probe.ts', "import type { Scenario } from '../../packages/kube-sim/src/scenario.ts';\nexport type X = Scenario;\n"))[0] ?? '', /by name/);
  assert.match((await problems('packages/kube-sim/src/probe.ts', "import type { Logger } from '../../../src/observability/logger.ts';\nexport type X = Logger;\n"))[0] ?? '', /need nothing from Tailor/);
});
