import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// The README says why each dependency is there; this keeps that table true when one is added.
test('every dependency in package.json is explained in the README', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string> | undefined>;
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Requirements and why each dependency is there'));
  const table = section.slice(0, section.indexOf('\n## '));
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  const missing = names.filter((name) => {
    if (table.includes(`\`${name}\``)) return false;
    return !(name.startsWith('@types/') && table.includes('`@types/*`'));
  });
  assert.deepEqual(missing, [], `README dependency table lacks: ${missing.join(', ')}`);
});
