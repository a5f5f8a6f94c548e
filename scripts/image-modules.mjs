#!/usr/bin/env node
// Copies into OUT/node_modules the npm packages a bundle imports at run time (its build-info.json's
// `packages`, written by scripts/build.mjs) and, recursively, their dependencies, from this
// checkout's node_modules, where Node's resolution would find them: nothing else. The image's
// bundle holds client-node, prometheus-query and the workspace packages already, and tsx is needed
// only to run the sources, so `npm ci --omit=dev` installed ~100 MB the image never loads
// (decision 0290). Fails when a package it copies is a dev dependency in package-lock.json, or when
// a dependency a package needs is not installed. A package the bundle names but that is not
// installed is an optional `require()` inside a `try` (ws's bufferutil, node-fetch's encoding):
// `npm ci` leaves it out too, and it is listed, not copied.
// Usage: node scripts/image-modules.mjs DIST OUT   e.g. image/dist image (the Dockerfile's build stage)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [dist, out] = process.argv.slice(2);
if (!dist || !out) {
  process.stderr.write('usage: node scripts/image-modules.mjs DIST OUT\n');
  process.exit(2);
}

/** `node_modules/a/node_modules/b` -> the package's manifest. */
const manifest = (path) => JSON.parse(readFileSync(join(root, path, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;

/** Where Node finds `name` from the package at `from` (a path relative to the root, with `/`): its own node_modules, then each folder above. */
function locate(name, from) {
  for (let dir = from; ; dir = posix.dirname(dir)) {
    if (posix.basename(dir) !== 'node_modules') {
      const candidate = posix.join(dir, 'node_modules', name);
      if (existsSync(join(root, candidate, 'package.json'))) return candidate.replace(/^\.\//, '');
    }
    if (dir === '.' || dir === '/' || dir === '') return undefined;
  }
}

const { packages = [] } = JSON.parse(readFileSync(join(dist, 'build-info.json'), 'utf8'));
const copied = new Set();
const absent = [];
const queue = [];
for (const name of packages) {
  const path = locate(name, '.');
  if (path === undefined) absent.push(name);
  else queue.push(path);
}
while (queue.length > 0) {
  const path = queue.shift();
  if (copied.has(path)) continue;
  copied.add(path);
  if (lock[path] === undefined) throw new Error(`${path} is not in package-lock.json`);
  if (lock[path].dev === true) throw new Error(`${path} is a dev dependency, and the bundle needs it at run time`);
  const pkg = manifest(path);
  const optional = new Set([...Object.keys(pkg.optionalDependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  for (const dep of new Set([...Object.keys(pkg.dependencies ?? {}), ...optional])) {
    const found = locate(dep, path);
    if (found !== undefined) queue.push(found);
    else if (!optional.has(dep)) throw new Error(`${path} needs ${dep}, which is not installed`);
  }
}

const target = join(out, 'node_modules');
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
for (const path of [...copied].sort()) {
  const from = join(root, path);
  // A package's own node_modules holds other packages: those that are needed are copied on their own.
  cpSync(from, join(out, path), { recursive: true, filter: (src) => !relative(from, src).split(sep).includes('node_modules') });
}
process.stdout.write(`${copied.size} packages into ${target}${absent.length > 0 ? `; not installed (optional requires): ${absent.join(', ')}` : ''}\n`);
