import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const PAGE = 'docs/dependencies.md';
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines?: { node?: string } } & Record<string, Record<string, string> | undefined>;

/** The "## npm packages" section of the dependencies page (up to the next heading). */
function npmPackagesSection(page: string): string {
  const start = page.indexOf('\n## npm packages\n');
  assert.ok(start >= 0, `${PAGE} has a "## npm packages" section`);
  const rest = page.slice(start + 1);
  const next = rest.indexOf('\n## ', 1);
  return next < 0 ? rest : rest.slice(0, next);
}

/** Dependencies of package.json that `table` does not name (as `name`, or `@types/*` for type packages). */
function unexplainedDependencies(table: string): string[] {
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  return names.filter((name) => {
    if (table.includes(`\`${name}\``)) return false;
    return !(name.startsWith('@types/') && table.includes('`@types/*`'));
  });
}

// The page says why each dependency is there; this keeps that table true when one is added.
test('every dependency in package.json is explained on the dependencies page', () => {
  const table = npmPackagesSection(readFileSync(PAGE, 'utf8'));
  assert.deepEqual(unexplainedDependencies(table), [], `${PAGE} lacks a row for some dependencies`);
  assert.deepEqual(unexplainedDependencies(table.replace('`pino`', 'pino')), ['pino'], 'a missing row is found');
});

// "Node.js 20 or newer" once stood beside engines ">=20.10": every such sentence must name the engines minimum.
test('every "Node.js X or newer" in README.md and docs/*.md names the minimum of package.json engines', () => {
  const minimum = /^>=\s*(\d+(?:\.\d+)*)$/.exec(pkg.engines?.node ?? '')?.[1];
  assert.ok(minimum, `package.json engines.node is ">=X": ${pkg.engines?.node}`);
  // The pages, not docs/decisions/: a record may quote what another package needs ("Node 22 or newer").
  const pages = readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  for (const file of ['README.md', ...pages]) {
    const text = readFileSync(file, 'utf8');
    const stated = [...text.matchAll(/Node(?:\.js)? (\d+(?:\.\d+)*) or newer/g)].map((m) => m[1]);
    if (['README.md', PAGE].includes(file)) assert.ok(stated.length > 0, `${file} states the Node version it needs`);
    if (stated.length > 0)
      assert.deepEqual([...new Set(stated)], [minimum], `${file} states Node ${stated.join(', ')}; package.json engines says ${pkg.engines?.node}`);
  }
});
