#!/usr/bin/env node
// Runs the test suite with node's own test runner (through tsx, so tests are plain .ts files).
// Usage: node scripts/run-tests.mjs [unit|integration|e2e|<path fragment>]...
// With no argument every test under test/ and packages/*/test runs. Node 20's runner does not expand globs itself.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const packageTests = readdirSync('packages')
  .map((name) => join('packages', name, 'test'))
  .filter((dir) => existsSync(dir));
const all = [...findTests('test'), ...packageTests.flatMap(findTests)].sort();
const files = filters.length === 0 ? all : all.filter((f) => filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
// Tests that run the CLI as a user would (`node bin/tailor.mjs`) run the compiled bundle: build it
// first, so they test the code as it is now (the bin would fall back to the sources otherwise).
const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
// Debian's Prometheus (prometheus, promtool) is installed here, once, before any test starts: tests
// that find it missing install it themselves, but two at once race for apt's lock, and kube-sim's
// own tests (a package that does not import Tailor's code) only look for it on PATH. A failure is
// printed and the run goes on: the tests that need it then fail, each saying what is missing.
const prometheus = spawnSync(
  process.execPath,
  ['--import', 'tsx', '-e', "import('./src/local-prometheus/debian-package.ts').then((m) => m.ensureDebianPackage('prometheus', ['prometheus', 'promtool']))"],
  { stdio: 'inherit' },
);
if (prometheus.status !== 0) console.error("run-tests: could not make sure Debian's prometheus package is installed (above); the tests that need it will fail");
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// A test that hangs fails after this long instead of holding the whole run (and CI) hostage.
const timeoutMs = process.env.TEST_TIMEOUT_MS ?? '300000';
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeoutMs}`, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
