/**
 * What can be checked of the Dockerfile without a container engine: it parses and validates
 * (dockerfile-utils, the linter of the VS Code Docker extension); a build stage compiles the image's
 * CLI and gathers the npm packages its bundle imports, and the runtime stage holds those, the bundle
 * and bin/, and runs `node bin/tailor.mjs` as a numeric non-root user; the bundles import no
 * development dependency; and the image's files, made by the build stage's own command in a
 * temporary directory, start the CLI, run `tailor run` (all three components, on kube-sim) and
 * `tailor audit` (on a real Prometheus), and hold no kube-sim, demo, replay engine, TypeScript or
 * client-node package (decision 0290).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { builtinModules, createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { startCluster } from 'kube-sim/test/e2e/cluster-fixture';
import { leftOutMessage } from '../../src/cli/commands/image-commands.ts';
import { freePort } from '../support/free-port.ts';
import { startPrometheus, type RunningServer } from '../support/prometheus-server.ts';
import { usageFixture } from '../support/usage-fixture.ts';
import { spawnTailor } from '../support/tailor-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// A CommonJS module (`module.exports = factory`) whose typings declare an ES default export: required,
// so that the type and the value agree under NodeNext.
const dockerignore = createRequire(import.meta.url)('@balena/dockerignore') as typeof import('@balena/dockerignore').default;
/** The npm workspace packages (packages/*): the build stage holds their manifests, bins and sources. */
const WORKSPACES = readdirSync(join(ROOT, 'packages')).sort();
/** The build stage's last step: the image's CLI into image/dist, the packages it imports into image/node_modules. */
const IMAGE_BUILD = 'node scripts/build.mjs --image --outdir image/dist && node scripts/image-modules.mjs image/dist image';

interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

async function stages(): Promise<{ text: string; stages: Stage[]; args: Map<string, string> }> {
  const text = await readFile(join(ROOT, 'Dockerfile'), 'utf8');
  const dockerfile = DockerfileParser.parse(text);
  const args = new Map<string, string>();
  for (const arg of dockerfile.getInitialARGs()) {
    const property = arg.getProperty();
    if (property) args.set(property.getName(), property.getValue() ?? '');
  }
  const out: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const from = dockerfile.getFROMs().find((f) => f.getRange().start.line === instruction.getRange().start.line);
      out.push({ name: from?.getBuildStage() ?? '', image: from?.getImage() ?? '', instructions: [] });
    } else out.at(-1)?.instructions.push(instruction);
  }
  return { text, stages: out, args };
}

/** An instruction's flags and arguments as written, e.g. `--from=deps /app/node_modules ./node_modules`. */
function args(i: Instruction): string {
  const flags = 'getFlags' in i ? (i as unknown as { getFlags(): { getName(): string; getValue(): string | null }[] }).getFlags() : [];
  return [...flags.map((f) => `--${f.getName()}=${f.getValue() ?? ''}`), i.getArgumentsContent() ?? ''].join(' ');
}
const keyword = (stage: Stage, k: string) => stage.instructions.filter((i) => i.getKeyword() === k);

test('the Dockerfile parses without problems and has a build and a runtime stage on Node LTS', async () => {
  const { text, stages: all, args: buildArgs } = await stages();
  assert.deepEqual(validate(text), []);
  assert.deepEqual(
    all.map((s) => s.name),
    ['build', 'runtime'],
  );
  const image = buildArgs.get('NODE_IMAGE') ?? '';
  for (const s of all) assert.equal(s.image, '${NODE_IMAGE}');
  // Even Node majors become LTS; slim Debian images.
  const major = /^node:(\d+)-[a-z]+-slim$/.exec(image);
  assert.ok(major, image);
  assert.equal(Number(major[1]) % 2, 0, `Node ${major[1]} is an LTS line`);
  assert.ok(Number(major[1]) >= 22, 'a supported LTS line');
});

test("the build stage compiles the image's CLI with the repository's build script and gathers the packages it imports", async () => {
  const build = (await stages()).stages[0] as Stage;
  const runs = keyword(build, 'RUN').map(args);
  assert.deepEqual(runs, ['npm ci --ignore-scripts --no-audit --no-fund', IMAGE_BUILD]);
  assert.deepEqual(
    keyword(build, 'COPY')
      .map(args)
      .slice(0, 1 + WORKSPACES.length),
    ['package.json package-lock.json ./', ...WORKSPACES.map((w) => `packages/${w}/package.json packages/${w}/`)],
  );
  for (const copy of keyword(build, 'COPY').map(args)) {
    const source = copy.split(' ')[0]!;
    assert.ok(existsSync(join(ROOT, source)), source);
  }
});

test("the runtime stage holds the image's packages, package.json, bin/ and the bundle, and installs only the allocator", async () => {
  const [, runtime] = (await stages()).stages as [Stage, Stage];
  // The one RUN of the runtime stage installs the allocator (decision 0272), nothing of the project's.
  const runtimeRuns = keyword(runtime, 'RUN').map(args);
  assert.equal(runtimeRuns.length, 1, 'only the allocator is installed in the runtime stage');
  assert.match(runtimeRuns[0]!, /apt-get install -y --no-install-recommends libjemalloc2\b/);
  assert.doesNotMatch(runtimeRuns[0]!, /\b(npm|node|npx)\b/);
  assert.ok(keyword(runtime, 'ENV').map(args).includes('LD_PRELOAD=libjemalloc.so.2'), 'the runtime preloads jemalloc');
  const copies = keyword(runtime, 'COPY').map(args);
  assert.deepEqual(copies, ['--from=build /app/image/node_modules ./node_modules', 'package.json ./', 'bin ./bin', '--from=build /app/image/dist ./dist']);
  for (const source of ['package.json', 'package-lock.json', 'bin', 'bin/tailor.mjs']) assert.ok(await stat(join(ROOT, source)), source);
  const ignore = await readFile(join(ROOT, '.dockerignore'), 'utf8');
  assert.match(ignore, /^\*$/m, 'the build context leaves out everything not named (node_modules, .git, tests)');
});

test('the runtime stage runs node bin/tailor.mjs as a numeric non-root user', async () => {
  const runtime = (await stages()).stages[1] as Stage;
  const users = keyword(runtime, 'USER').map(args);
  assert.equal(users.length, 1);
  const [uid, gid] = users[0]!.split(':').map(Number);
  assert.ok(Number.isInteger(uid) && uid! > 0 && Number.isInteger(gid) && gid! > 0, `numeric non-root user: ${users[0]}`);
  // USER comes after every COPY, so nothing later runs as root.
  const last = runtime.instructions.findIndex((i) => i.getKeyword() === 'USER');
  assert.ok(runtime.instructions.slice(last).every((i) => !['RUN', 'COPY', 'ADD'].includes(i.getKeyword())));
  assert.deepEqual(keyword(runtime, 'ENTRYPOINT').map(args), ['["node", "--max-semi-space-size=2", "--v8-pool-size=1", "bin/tailor.mjs"]']);
  assert.match(keyword(runtime, 'CMD').map(args)[0] ?? '', /^\["run"/);
});

/** Files under `path` (itself if a file), relative to the repository, without node_modules. */
async function filesUnder(path: string): Promise<string[]> {
  if (!(await stat(join(ROOT, path))).isDirectory()) return [path];
  const out: string[] = [];
  for (const entry of await readdir(join(ROOT, path), { withFileTypes: true })) {
    if (entry.name !== 'node_modules') out.push(...(await filesUnder(join(path, entry.name))));
  }
  return out;
}

test('every file the Dockerfile copies from the build context is in it (.dockerignore lets it through)', async () => {
  // Docker's own matching rules (a port of its fileutils), not .gitignore's: `*` then `!path` re-includes.
  const ignored = dockerignore({ ignorecase: false }).add((await readFile(join(ROOT, '.dockerignore'), 'utf8')).split('\n'));
  const sources = (await stages()).stages
    .flatMap((s) => keyword(s, 'COPY').map(args))
    .filter((c) => !c.startsWith('--from='))
    .flatMap((c) => c.split(' ').slice(0, -1));
  assert.ok(sources.includes('scripts/build.mjs') && sources.includes('scripts/image-modules.mjs'), sources.join(', '));
  for (const source of sources) {
    // buildah drops a source that matches a pattern even when files below it are let in again.
    assert.equal(ignored.ignores(source), false, `${source} itself is left out of the build context by .dockerignore`);
    const files = await filesUnder(source);
    const kept = files.filter((f) => !ignored.ignores(f));
    // A directory may leave out some files (the packages' tests), never all; a file must be there.
    const whole = files.includes(source);
    assert.ok(
      whole ? kept.length === files.length : kept.length > 0,
      `${source}: left out of the build context by .dockerignore: ${files
        .filter((f) => ignored.ignores(f))
        .slice(0, 5)
        .join(', ')}`,
    );
  }
  assert.ok(
    [
      'node_modules/commander/package.json',
      'test/manifests/dockerfile.test.ts',
      'packages/kube-sim/test/api.test.ts',
      'packages/kube-sim/README.md',
      'manifests/crds/verticalpodautoscalers.yaml',
      'docs/cli.md',
      'traces/azure_v1_cpu.csv.gz',
      'bench/updater.ts',
    ].every((f) => ignored.ignores(f)),
    'the rest stays out',
  );
});

/** The package an import specifier names (`@scope/name/x` -> `@scope/name`), or undefined if relative. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The bundle's modules (dist/, built by `npm test` before the tests run). */
async function bundleFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await bundleFiles(path)));
    else if (entry.name.endsWith('.mjs')) out.push(path);
  }
  return out;
}

/** The npm packages the bundle under `dist` (and bin/tailor.mjs) imports, each with the first file that does. */
async function bundleImports(dist: string): Promise<Map<string, string>> {
  const files = [...(await bundleFiles(dist)), join(ROOT, 'bin', 'tailor.mjs')];
  // esbuild writes static imports as `import{...}from"x"` / `import"x"` (several to a line: the
  // bundle's whitespace is minified) and dynamic ones as `import("x")`.
  const runtimeImport = /(?:^|[;\n])\s*(?:import|export)\s*(?:[^'"();]*?\bfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  const used = new Map<string, string>();
  for (const file of files) {
    for (const match of (await readFile(file, 'utf8')).matchAll(runtimeImport)) {
      const name = packageOf((match[1] ?? match[2]) as string);
      if (name && !used.has(name)) used.set(name, relative(ROOT, file));
    }
  }
  return used;
}

/** Fails unless the bundle under `dist` imports only production dependencies and Node built-ins. */
async function assertProductionImports(dist: string): Promise<Map<string, string>> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  // axios is bundled (under prometheus-query), its own dependencies are not: the image holds them
  // with it, and the build checks that the bundle finds axios's copies (scripts/build.mjs).
  const axiosManifest = createRequire(join(ROOT, 'package.json')).resolve('axios/package.json');
  const axiosDependencies = Object.keys((JSON.parse(await readFile(axiosManifest, 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  const allowed = new Set([...Object.keys(pkg.dependencies), ...axiosDependencies, ...builtinModules]);
  const used = await bundleImports(dist);
  const stray = [...used].filter(([name]) => !allowed.has(name.replace(/^node:/, ''))).map(([name, file]) => `${name} (${file})`);
  assert.deepEqual(stray, []);
  // The workspace packages ship TypeScript, client-node is cheaper in one piece, and axios is bundled
  // so its load-time reads of the fetch globals can go (scripts/build.mjs):
  // the bundle holds their code instead of importing them.
  for (const name of [...WORKSPACES, '@kubernetes/client-node', 'prometheus-query', 'axios'])
    assert.equal(used.has(name), false, `${name} is bundled, not imported`);
  // The scan sees the real imports (not vacuous): the CLI's, YAML, logging and metrics packages are among them.
  for (const name of ['commander', 'yaml', 'pino', 'prom-client']) assert.ok(used.has(name), name);
  for (const dev of Object.keys(pkg.devDependencies)) assert.equal(used.has(dev), false, `${dev} is a dev dependency`);
  return used;
}

test('the bundle of the whole CLI imports only production dependencies and Node built-ins', async () => {
  await assertProductionImports(join(ROOT, 'dist'));
});

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Bytes of the files under `path`. */
async function bytesUnder(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await bytesUnder(join(path, entry));
  return total;
}

describe("the image's files, made as the build stage makes them", () => {
  let work = '';
  let app = '';
  let env: NodeJS.ProcessEnv = {};
  let prometheus: RunningServer | undefined;
  const HOUR = 3600_000;
  const START = Date.UTC(2026, 1, 1);
  const MiB = 2 ** 20;
  const tailor = (...argv: string[]) => run('node', ['bin/tailor.mjs', ...argv], { cwd: app, env });

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'tailor-image-'));
    app = join(work, 'app');
    // The build stage's last RUN, with its folder here instead of /app/image.
    const image = join(work, 'image');
    const [build, modules] = IMAGE_BUILD.replaceAll('image/', `${image}/`)
      .replace(/ image$/, ` ${image}`)
      .split(' && ')
      .map((c) => c.split(' '));
    for (const [command, ...argv] of [build!, modules!]) {
      const r = await run(command!, argv, { cwd: ROOT });
      assert.equal(r.code, 0, r.stderr);
    }
    // The runtime stage's COPYs.
    await cp(join(image, 'node_modules'), join(app, 'node_modules'), { recursive: true });
    await cp(join(ROOT, 'package.json'), join(app, 'package.json'));
    await cp(join(ROOT, 'bin'), join(app, 'bin'), { recursive: true });
    await cp(join(image, 'dist'), join(app, 'dist'), { recursive: true });
    await mkdir(join(work, 'tmp'));
    env = { PATH: process.env['PATH'], HOME: join(work, 'tmp'), TMPDIR: join(work, 'tmp'), NODE_ENV: 'production' };
    prometheus = await startPrometheus({
      series: usageFixture(
        [
          {
            namespace: 'shop',
            pod: 'api-abc-1',
            container: 'app',
            owner: { kind: 'Deployment', name: 'api', replicaSet: 'api-abc' },
            cpuCores: () => 0.1,
            memoryBytes: () => 200 * MiB,
            requests: { cpu: 0.5, memory: 256 * MiB },
          },
        ],
        { start: START, end: START + 6 * HOUR },
      ),
    });
  });
  after(async () => {
    await prometheus?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('start the CLI: --version, run and audit with their help; every other command listed, and one line when invoked', async () => {
    const version = await tailor('--version');
    assert.equal(version.code, 0, version.stderr);
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout.trim(), pkg.version);
    for (const command of ['run', 'audit']) {
      const help = await tailor(command, '--help');
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`^Usage: tailor ${command}`));
    }
    const help = await tailor('--help');
    assert.equal(help.code, 0, help.stderr);
    for (const command of ['demo', 'recommend', 'replay', 'generate-trace', 'plan', 'sim', 'validate']) {
      assert.match(help.stdout, new RegExp(`^  ${command} +not in this image \\(it holds run and audit\\)$`, 'm'), command);
      const r = await tailor(command, '--duration', '90s', '--help');
      assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', `tailor ${command}: ${leftOutMessage(command)}\n`], command);
    }
    // No TypeScript runs in the image: the bin took the bundle (tsx's loader would have needed src/ and tsx).
    assert.equal(existsSync(join(app, 'src')), false);
    assert.equal(existsSync(join(app, 'node_modules', 'tsx')), false);
  });

  test('hold no kube-sim, demo, replay engine, TypeScript or client-node package: only what run and audit load', async () => {
    const info = JSON.parse(await readFile(join(app, 'dist', 'build-info.json'), 'utf8')) as { inputs: string[]; packages: string[] };
    assert.deepEqual(
      info.inputs.filter(
        (p) =>
          /^(packages\/kube-sim|src\/(demo|replay|dashboard|local-prometheus))\//.test(p) ||
          /^src\/cli\/commands\/(demo|sim|plan|validate|replay|recommend|generate-trace)/.test(p),
      ),
      [],
    );
    assert.ok(
      info.inputs.includes('src/cli/commands/run.ts') &&
        info.inputs.includes('src/cli/commands/audit-action.ts') &&
        info.inputs.includes('src/controller/start-run.ts'),
    );
    const used = await assertProductionImports(join(app, 'dist'));
    // Every package the bundle imports is there (bin/tailor.mjs imports tsx only to run sources, which the image has none of),
    // but for the optional require()s inside a `try` that npm installs nowhere (ws's bufferutil, node-fetch's encoding).
    for (const [name, file] of used)
      if (file !== join('bin', 'tailor.mjs') && !name.startsWith('node:') && !builtinModules.includes(name))
        assert.ok(existsSync(join(app, 'node_modules', name, 'package.json')), `${name} is imported and in node_modules`);
    assert.deepEqual(
      info.packages.filter((name) => !existsSync(join(app, 'node_modules', name))).filter((name) => existsSync(join(ROOT, 'node_modules', name))),
      [],
      'a package left out is one npm did not install either',
    );
    const installed = readdirSync(join(app, 'node_modules')).flatMap((d) =>
      d.startsWith('@') ? readdirSync(join(app, 'node_modules', d)).map((n) => `${d}/${n}`) : [d],
    );
    for (const absent of [
      '@kubernetes/client-node',
      'tsx',
      'esbuild',
      'typescript',
      'protobufjs',
      'pure-rand',
      'simple-statistics',
      'csv-stringify',
      'cli-table3',
      'fast-json-patch',
      'kube-sim',
      'kube-basics',
    ])
      assert.ok(!installed.includes(absent), `${absent} is not in the image`);
    // The packages `npm ci --omit=dev` installed before, without the workspace links: about 108 MB; these: about 9.
    assert.ok((await bytesUnder(join(app, 'node_modules'))) < 20e6, 'node_modules under 20 MB');
  });

  test('run tailor run with the recommender, the updater and the admission webhook on kube-sim until SIGTERM', async (t) => {
    const f = await startCluster('1.35');
    t.after(() => f.close());
    await f.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
    const kubeconfig = join(work, 'tmp', 'kubeconfig');
    await f.sim.server.writeKubeconfig(kubeconfig);
    const port = await freePort();
    const tailor = spawnTailor(
      t,
      [
        'run',
        '--components',
        'recommender,updater,admission',
        '--kubeconfig',
        kubeconfig,
        '--prometheus-url',
        prometheus!.url,
        '--admission-address',
        '127.0.0.1',
        '--admission-port',
        String(port),
        '--admission-webhook-url',
        `https://127.0.0.1:${port}`,
        '--metrics-address',
        '127.0.0.1',
        '--metrics-port',
        '0',
        '--log-level',
        'debug',
        '--interval',
        '2s',
      ],
      { cwd: app, env },
    );
    const seen = (component: string, msg: string) =>
      tailor
        .stderr()
        .split('\n')
        .some((l) => l.includes(`"component":"${component}"`) && l.includes(`"msg":"${msg}"`));
    const deadline = Date.now() + 90_000;
    while (!(seen('admission', 'admission webhook listening') && seen('updater', 'updater loop done') && seen('recommender', 'cycle done'))) {
      assert.ok(Date.now() < deadline && tailor.child.exitCode === null, `each component ran (stderr: ${tailor.stderr().slice(-3000)})`);
      await new Promise((r) => setTimeout(r, 200));
    }
    tailor.child.kill('SIGTERM');
    assert.equal(await tailor.exited, 0, tailor.stderr().slice(-3000));
  });

  test('run tailor audit on a real Prometheus: the HTML and JSON reports', async () => {
    const out = join(work, 'tmp', 'audit');
    const r = await tailor(
      'audit',
      '--prometheus-url',
      prometheus!.url,
      '--at',
      String(START + 6 * HOUR),
      '--history',
      '6h',
      '--output-dir',
      out,
      '--no-progress',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((await readdir(out)).sort(), ['audit-20260201T060000Z.html', 'audit-20260201T060000Z.json', 'latest.html', 'latest.json']);
    const report = JSON.parse(await readFile(join(out, 'latest.json'), 'utf8')) as { kind: string; workloads: Array<{ workload: { name: string } }> };
    assert.equal(report.kind, 'TailorAuditReport');
    assert.deepEqual(
      report.workloads.map((w) => w.workload.name),
      ['api'],
    );
    assert.match(await readFile(join(out, 'latest.html'), 'utf8'), /<html/);
  });
});
