/**
 * What can be checked of the Dockerfile without a container engine: it parses and validates
 * (dockerfile-utils, the linter of the VS Code Docker extension); a build stage compiles the CLI,
 * a deps stage installs production dependencies only, and the runtime stage holds those, the bundle
 * and the files it reads, and runs `node bin/tailor.mjs` as a numeric non-root user; the bundle
 * imports no development dependency; and the image's file set, assembled in a temporary directory,
 * starts the CLI.
 */
import { test } from 'node:test';
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

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// A CommonJS module (`module.exports = factory`) whose typings declare an ES default export: required,
// so that the type and the value agree under NodeNext.
const dockerignore = createRequire(import.meta.url)('@balena/dockerignore') as typeof import('@balena/dockerignore').default;
/** The npm workspace packages (packages/*): the image holds their manifests, bins and sources. */
const WORKSPACES = readdirSync(join(ROOT, 'packages')).sort();
/** What the runtime stage copies besides node_modules: the files the bundle reads at run time. */
const RUNTIME_FILES = ['manifests/crds', 'src/demo/demo-scenario.yaml'];

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

test('the Dockerfile parses without problems and has a build, a deps and a runtime stage on Node LTS', async () => {
  const { text, stages: all, args: buildArgs } = await stages();
  assert.deepEqual(validate(text), []);
  assert.deepEqual(all.map((s) => s.name), ['build', 'deps', 'runtime']);
  const image = buildArgs.get('NODE_IMAGE') ?? '';
  for (const s of all) assert.equal(s.image, '${NODE_IMAGE}');
  // Even Node majors become LTS; slim Debian images.
  const major = /^node:(\d+)-[a-z]+-slim$/.exec(image);
  assert.ok(major, image);
  assert.equal(Number(major[1]) % 2, 0, `Node ${major[1]} is an LTS line`);
  assert.ok(Number(major[1]) >= 22, 'a supported LTS line');
});

test('the build stage compiles the CLI with the repository\'s build script', async () => {
  const build = (await stages()).stages[0] as Stage;
  const runs = keyword(build, 'RUN').map(args);
  assert.match(runs[0] ?? '', /^npm ci\b/);
  assert.equal(runs.at(-1), 'node scripts/build.mjs');
  for (const copy of keyword(build, 'COPY').map(args)) {
    const source = copy.split(' ')[0]!;
    assert.ok(existsSync(join(ROOT, source)), source);
  }
});

test('only production dependencies are installed, and only into the runtime image', async () => {
  const [, deps, runtime] = (await stages()).stages as [Stage, Stage, Stage];
  const installs = keyword(deps, 'RUN').map(args);
  assert.equal(installs.length, 1);
  assert.match(installs[0]!, /^npm ci --omit=dev\b/);
  assert.deepEqual(keyword(deps, 'COPY').map(args), ['package.json package-lock.json ./', ...WORKSPACES.map((w) => `packages/${w}/package.json packages/${w}/`)]);
  // The one RUN of the runtime stage installs the allocator (decision 0272), nothing of the project's.
  const runtimeRuns = keyword(runtime, 'RUN').map(args);
  assert.equal(runtimeRuns.length, 1, 'only the allocator is installed in the runtime stage');
  assert.match(runtimeRuns[0]!, /apt-get install -y --no-install-recommends libjemalloc2\b/);
  assert.doesNotMatch(runtimeRuns[0]!, /\b(npm|node|npx)\b/);
  assert.ok(keyword(runtime, 'ENV').map(args).includes('LD_PRELOAD=libjemalloc.so.2'), 'the runtime preloads jemalloc');
  const copies = keyword(runtime, 'COPY').map(args);
  assert.deepEqual(copies, ['--from=deps /app/node_modules ./node_modules', 'package.json ./', 'bin ./bin', '--from=build /app/dist ./dist', 'manifests/crds ./manifests/crds', 'src/demo/demo-scenario.yaml ./src/demo/']);
  for (const source of ['package.json', 'package-lock.json', 'bin', 'bin/tailor.mjs', ...RUNTIME_FILES]) assert.ok(await stat(join(ROOT, source)), source);
  const ignore = await readFile(join(ROOT, '.dockerignore'), 'utf8');
  assert.match(ignore, /^\*$/m, 'the build context leaves out everything not named (node_modules, .git, tests)');
});

test('the runtime stage runs node bin/tailor.mjs as a numeric non-root user', async () => {
  const runtime = (await stages()).stages[2] as Stage;
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
  const sources = (await stages()).stages.flatMap((s) => keyword(s, 'COPY').map(args)).filter((c) => !c.startsWith('--from='))
    .flatMap((c) => c.split(' ').slice(0, -1));
  assert.ok(sources.includes('scripts/build.mjs') && sources.includes('manifests/crds'), sources.join(', '));
  for (const source of sources) {
    // buildah drops a source that matches a pattern even when files below it are let in again.
    assert.equal(ignored.ignores(source), false, `${source} itself is left out of the build context by .dockerignore`);
    const files = await filesUnder(source);
    const kept = files.filter((f) => !ignored.ignores(f));
    // A directory may leave out some files (the packages' tests), never all; a file, and the files read at run time, must be there.
    const whole = !files.includes(source) ? RUNTIME_FILES.includes(source) : true;
    assert.ok(whole ? kept.length === files.length : kept.length > 0, `${source}: left out of the build context by .dockerignore: ${files.filter((f) => ignored.ignores(f)).slice(0, 5).join(', ')}`);
  }
  assert.ok(['node_modules/commander/package.json', 'test/manifests/dockerfile.test.ts', 'packages/kube-sim/test/api.test.ts', 'packages/kube-sim/README.md'].every((f) => ignored.ignores(f)), 'the rest stays out');
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

test('the bundle in the image imports only production dependencies and Node built-ins', async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  // axios is bundled (under prometheus-query), its own dependencies are not: the image installs them
  // with it, and the build checks that the bundle finds axios's copies (scripts/build.mjs).
  const axiosManifest = createRequire(join(ROOT, 'package.json')).resolve('axios/package.json');
  const axiosDependencies = Object.keys((JSON.parse(await readFile(axiosManifest, 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  const allowed = new Set([...Object.keys(pkg.dependencies), ...axiosDependencies, ...builtinModules]);
  const files = [...(await bundleFiles(join(ROOT, 'dist'))), join(ROOT, 'bin', 'tailor.mjs')];
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
  const stray = [...used].filter(([name]) => !allowed.has(name.replace(/^node:/, ''))).map(([name, file]) => `${name} (${file})`);
  assert.deepEqual(stray, []);
  // The workspace packages ship TypeScript, client-node is cheaper in one piece, and axios is bundled
  // so its load-time reads of the fetch globals can go (scripts/build.mjs):
  // the bundle holds their code instead of importing them.
  for (const name of [...WORKSPACES, '@kubernetes/client-node', 'prometheus-query', 'axios']) assert.equal(used.has(name), false, `${name} is bundled, not imported`);
  // The scan sees the real imports (not vacuous): the CLI's, YAML, logging and metrics packages are among them.
  for (const name of ['commander', 'yaml', 'pino', 'prom-client']) assert.ok(used.has(name), name);
  for (const dev of Object.keys(pkg.devDependencies)) assert.equal(used.has(dev), false, `${dev} is a dev dependency`);
});

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

test("the image's files (package.json, bin, the bundle, its run-time files and the production node_modules only) start the CLI", async () => {
  // What the runtime stage holds, assembled without a container engine: the packages
  // `npm ls --omit=dev` lists (what `npm ci --omit=dev` installs from the same lock file).
  const listed = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT });
  assert.equal(listed.code, 0, listed.stderr);
  const root = ROOT.replace(/\/$/, '');
  const packages = listed.stdout.trim().split('\n').filter((p) => p !== root).map((p) => relative(root, p));
  assert.ok(packages.includes('node_modules/commander') && !packages.includes('node_modules/typescript') && !packages.includes('node_modules/eslint'));
  const image = await mkdtemp(join(tmpdir(), 'tailor-image-'));
  try {
    // Workspace packages are links into packages/, which the image does not hold: the bundle has their code.
    const installed = packages.filter((p) => !WORKSPACES.some((w) => p === `node_modules/${w}` || p === join('packages', w)));
    for (const path of ['package.json', 'bin', 'dist', ...RUNTIME_FILES, ...installed]) await cp(join(ROOT, path), join(image, 'app', path), { recursive: true });
    await mkdir(join(image, 'tmp'));
    const env = { PATH: process.env['PATH'], HOME: join(image, 'tmp'), TMPDIR: join(image, 'tmp'), NODE_ENV: 'production' };
    const version = await run('node', ['bin/tailor.mjs', '--version'], { cwd: join(image, 'app'), env });
    assert.equal(version.code, 0, version.stderr);
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout.trim(), pkg.version);
    const help = await run('node', ['bin/tailor.mjs', 'run', '--help'], { cwd: join(image, 'app'), env });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: tailor run/);
    // No TypeScript runs in the image: the bin took the bundle (tsx's loader would have needed src/).
    assert.equal(existsSync(join(image, 'app', 'src', 'cli')), false);
    // The files read at run time are where the bundle looks for them: `tailor sim` installs the CRDs.
    const sim = await run('node', ['bin/tailor.mjs', 'sim', '--help'], { cwd: join(image, 'app'), env });
    assert.equal(sim.code, 0, sim.stderr);
  } finally {
    await rm(image, { recursive: true, force: true });
  }
});
