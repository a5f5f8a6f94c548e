/**
 * The layer rule of docs/architecture.md: every folder of src/ has a layer, and the lint rule
 * refuses an upward import, a circle, kube-sim outside `tailor demo`, `tailor sim` and the dashboard
 * lab, a package importing Tailor and a test reaching into packages/ by path (each checked on a
 * deliberately wrong snippet; `npm run lint` checks the tree itself). The files of src/ that import
 * kube-sim are also read with TypeScript's own pre-processor, `import()` included, which the lint
 * rule does not see.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

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
  const folders = readdirSync(`${ROOT}src`, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  assert.deepEqual([...listed].sort(), [...folders].sort());
  assert.equal(new Set(listed).size, listed.length);
});

test('an import down the layers passes; one up the layers fails', async () => {
  assert.deepEqual(await problems('src/controller/probe.ts', "import type { UpdateMode } from '../api/vpa.ts';\nexport type X = UpdateMode;\n"), []);
  const up = await problems('src/api/probe.ts', "import type { RunConfig } from '../controller/run-config.ts';\nexport type X = RunConfig;\n");
  assert.equal(up.length, 1, up.join('\n'));
  assert.match(up[0]!, /^import-x\/no-restricted-paths: .*src\/\{api,policy,config,observability\} may import only its own layer/);
});

test('the recommender sits under the controller and above the model (decision 0293)', async () => {
  assert.deepEqual(
    await problems('src/controller/probe.ts', "import type { RecommenderLoop } from '../recommender/recommender-loop.ts';\nexport type X = RecommenderLoop;\n"),
    [],
  );
  assert.deepEqual(
    await problems(
      'src/recommender/probe.ts',
      "import type { UsageFeed } from '../metrics/usage-feed.ts';\nimport type { Strategy } from '../model/types.ts';\nexport type X = [UsageFeed, Strategy];\n",
    ),
    [],
  );
  const up = await problems('src/recommender/probe.ts', "import type { RunConfig } from '../controller/run-config.ts';\nexport type X = RunConfig;\n");
  assert.equal(up.length, 1, up.join('\n'));
  assert.match(up[0]!, /^import-x\/no-restricted-paths: .*src\/\{updater,admission,replay,report,recommender\} may import only its own layer/);
  const model = await problems(
    'src/model/probe.ts',
    "import type { RecommenderLoop } from '../recommender/recommender-loop.ts';\nexport type X = RecommenderLoop;\n",
  );
  assert.equal(model.length, 1, model.join('\n'));
  assert.match(model[0]!, /^import-x\/no-restricted-paths: .*src\/\{model\} may import only its own layer/);
});

test('kube-sim only from tailor demo, tailor sim and the dashboard lab; packages by name only; packages import no Tailor code', async () => {
  const snippet = "import type { KubeSim } from 'kube-sim';\nexport type X = KubeSim;\n";
  for (const allowed of ['src/demo/probe.ts', 'src/cli/commands/demo-probe.ts', 'src/cli/commands/sim.ts', 'src/dashboard/dashboard-lab.ts'])
    assert.deepEqual(await problems(allowed, snippet), [], allowed);
  for (const product of ['src/updater/probe.ts', 'src/cli/commands/plan.ts', 'src/cli/main.ts', 'src/dashboard/grafana-dashboard.ts']) {
    assert.match(
      (await problems(product, "export { DEFAULT_SERVER_VERSION } from 'kube-sim/server-version';\n"))[0] ?? '',
      /^no-restricted-imports: .*Only tailor demo and tailor sim .* use kube-sim/,
      product,
    );
  }
  assert.match(
    (await problems('test/kube/probe.ts', "import type { Scenario } from '../../packages/kube-sim/src/scenario.ts';\nexport type X = Scenario;\n"))[0] ?? '',
    /by name/,
  );
  assert.match(
    (await problems('packages/kube-sim/src/probe.ts', "import type { Logger } from '../../../src/observability/logger.ts';\nexport type X = Logger;\n"))[0] ??
      '',
    /need nothing from Tailor/,
  );
});

/** The `.ts` files under `dir`, relative to the repository. */
function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

test('no product file of src/ imports kube-sim: only the demo, tailor sim and the dashboard lab do (import() included)', async () => {
  const allowed = ((await import(new URL(`../../${CONFIG}`, import.meta.url).href)) as { KUBE_SIM_USERS: string[] }).KUBE_SIM_USERS;
  const matches = (file: string) =>
    allowed.some(
      (glob) =>
        file === glob ||
        (glob.endsWith('/**') && file.startsWith(glob.slice(0, -2))) ||
        (glob.endsWith('*.ts') && file.startsWith(glob.slice(0, -4)) && !file.slice(glob.length - 4).includes('/')),
    );
  const users = tsFiles('src').filter((file) =>
    ts
      .preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true)
      .importedFiles.some((f) => f.fileName === 'kube-sim' || f.fileName.startsWith('kube-sim/')),
  );
  assert.deepEqual(
    users.filter((file) => !matches(file)),
    [],
  );
  // Not vacuous: the commands that run the simulator are found.
  for (const file of ['src/cli/commands/sim.ts', 'src/demo/run-demo.ts', 'src/dashboard/dashboard-lab.ts']) assert.ok(users.includes(file), file);
  assert.equal(matches('src/cli/commands/plan.ts'), false);
  assert.equal(matches('src/cli/commands/demo-audit.ts'), true);
});
