import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { markFetchProbePure, readFormDataOnDemand } from '../../scripts/axios-lazy-fetch-globals.mjs';

const axiosRoot = dirname(createRequire(import.meta.url).resolve('axios/package.json'));
const installed = (file: string) => readFileSync(join(axiosRoot, file), 'utf8');

test("markFetchProbePure marks the installed fetch adapter's load-time getFetch() call pure, and nothing else", () => {
  const source = installed('lib/adapters/fetch.js');
  const out = markFetchProbePure(source);
  assert.ok(out.includes('const adapter = /* @__PURE__ */ getFetch();'));
  assert.equal(out.replace('/* @__PURE__ */ ', ''), source);
});

test('readFormDataOnDemand: the installed utils.js reads G.FormData only inside isFormData, for values tagged FormData', () => {
  const out = readFormDataOnDemand(installed('lib/utils.js'));
  assert.equal(out.includes('FormDataCtor'), false);
  assert.match(out, /if \(kindOf\(thing\) === 'formdata' && typeof G\.FormData !== 'undefined' && thing instanceof G\.FormData\) return true;/);
  // G.FormData appears nowhere else: loading the module reads no fetch global.
  assert.equal(out.split('G.FormData').length - 1, 2);
});

test('the rewrites fail the build when axios no longer has the lines they replace', () => {
  assert.throws(() => markFetchProbePure('export const getFetch = () => {};\n'), /expected one 'const adapter = getFetch\(\);'/);
  assert.throws(() => readFormDataOnDemand('const isFormData = () => false;\n'), /lib\/utils\.js: expected one/);
  const twice = 'const adapter = getFetch();\nconst adapter = getFetch();\n';
  assert.throws(() => markFetchProbePure(twice), /expected one/);
});
