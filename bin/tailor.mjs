#!/usr/bin/env node
// Entry point. Runs the compiled bundle in dist/ (built by `npm ci` through the prepare script, or
// `npm run build`) when no source it was built from has changed since; otherwise — an edited
// checkout — runs the TypeScript sources through tsx, so a stale bundle never runs.
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);

/** True when dist/ holds a build at least as new as every source listed in its build-info.json. */
function bundleIsFresh() {
  let info;
  try {
    info = JSON.parse(readFileSync(new URL('dist/build-info.json', root), 'utf8'));
  } catch {
    return false;
  }
  for (const path of info.inputs) {
    let mtimeMs;
    try {
      mtimeMs = statSync(new URL(path, root)).mtimeMs;
    } catch {
      continue; // an installed image ships no sources: the bundle is all there is
    }
    if (mtimeMs > info.builtAt) return false;
  }
  return true;
}

// A reader that stops early (`tailor run --help | head -1`) closes the pipe: stop quietly with the
// status so far, as other command-line tools do, instead of an EPIPE stack trace.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

let main;
if (bundleIsFresh()) {
  ({ main } = await import('../dist/tailor.mjs'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv);
