/**
 * charts/tailor without Helm (the part of the chart's checks `npm test` can make; `npm run
 * test:helm` renders it with the real Helm): docs/helm.md's values table is what `npm run docs:helm`
 * makes of values.yaml; every value is documented and read by a template, and every value a
 * template reads is in values.yaml; Chart.yaml's appVersion is package.json's version; crds/ holds
 * the CRDs of manifests/crds unchanged.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parse } from 'yaml';
import {
  CHART_VALUES_PATH,
  HELM_DOC_PATH,
  VALUES_END,
  VALUES_START,
  showDefault,
  valueRows,
  valuesTable,
  withValuesTable,
} from '../../scripts/helm-values-doc.ts';

const CHART = fileURLToPath(new URL('../../charts/tailor/', import.meta.url));
const MANIFEST_CRDS = fileURLToPath(new URL('../../manifests/crds/', import.meta.url));
const MONITORING = fileURLToPath(new URL('../../manifests/monitoring/', import.meta.url));
const values = readFileSync(CHART_VALUES_PATH, 'utf8');

test("docs/helm.md's values table is the one values.yaml makes (npm run docs:helm)", () => {
  const page = readFileSync(HELM_DOC_PATH, 'utf8');
  assert.equal(withValuesTable(page, valuesTable(valueRows(values))), page, 'stale: run npm run docs:helm');
});

test('the table: one row per "-- " comment, sections walked into, defaults in flow YAML; an undocumented value is an error', () => {
  const rows = valueRows(
    [
      '# header, not a value',
      '',
      'image:',
      '  # -- The repository.',
      '  repository: tailor',
      '  # -- The tag;',
      '  # empty means appVersion.',
      '  tag: ""',
      '# -- Resources | in one row.',
      'resources: {requests: {cpu: 100m}}',
      '',
    ].join('\n'),
  );
  assert.deepEqual(rows, [
    { path: 'image.repository', default: 'tailor', description: 'The repository.' },
    { path: 'image.tag', default: '', description: 'The tag; empty means appVersion.' },
    { path: 'resources', default: { requests: { cpu: '100m' } }, description: 'Resources | in one row.' },
  ]);
  assert.equal(valuesTable(rows).split('\n').at(-1), '| `resources` | `{requests: {cpu: "100m"}}` | Resources \\| in one row. |');
  assert.equal(showDefault(null), '`null`');
  assert.equal(showDefault([{ 'a.b/c': 1, 'x y': 'z, w' }]), '`[{a.b/c: 1, "x y": "z, w"}]`');
  assert.throws(() => valueRows('image:\n  # not a value comment\n  tag: x\n'), /image\.tag has no "# -- <description>" comment/);
  assert.throws(() => valueRows('flag: true\n'), /flag has no/);
  assert.throws(() => withValuesTable('# no markers', ''), /the markers/);
  assert.equal(withValuesTable(`a\n${VALUES_START}\nold\n${VALUES_END}\nb`, 'new'), `a\n${VALUES_START}\n\nnew\n\n${VALUES_END}\nb`);
});

/** The `.Values.a.b` paths the templates read (whole words: `.Values.recommender` counts for its keys through `$c`). */
function templateReads(): { text: string; paths: Set<string> } {
  const dir = join(CHART, 'templates');
  const text = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  return { text, paths: new Set([...text.matchAll(/\.Values\.([A-Za-z0-9_.]+)/g)].map((m) => m[1]!.replace(/\.$/, ''))) };
}

test('every value of values.yaml is read by a template, and every .Values path a template reads is in values.yaml', () => {
  const rows = valueRows(values);
  const { text, paths } = templateReads();
  // Aliases: `{{- $m := .Values.monitoring }}` then `$m.serviceMonitor.enabled`; the components' `$c := .Values.<component>`
  // (or `index $.Values $component`) read their keys as `$c.<rest>`.
  const aliases = [...text.matchAll(/(\$[A-Za-z]+) := \.Values\.([A-Za-z0-9_.]+)/g)].map((m) => ({ alias: m[1]!, prefix: m[2]! }));
  const COMPONENTS = ['recommender', 'updater', 'admission', 'audit'];
  for (const { path } of rows) {
    const [head, ...rest] = path.split('.');
    const viaAlias = aliases.some(({ alias, prefix }) => path.startsWith(`${prefix}.`) && text.includes(`${alias}.${path.slice(prefix.length + 1)}`));
    const viaC = COMPONENTS.includes(head!) && text.includes(`$c.${rest.join('.')}`);
    assert.ok(
      paths.has(path) || viaAlias || viaC,
      `${path} is read by no template (neither .Values.${path} nor through an alias such as $c.${rest.join('.')})`,
    );
  }
  const tree = parse(values) as Record<string, unknown>;
  for (const path of paths) {
    let node: unknown = tree;
    for (const key of path.split('.')) {
      assert.ok(node !== null && typeof node === 'object' && key in node, `templates read .Values.${path}, which values.yaml does not have`);
      node = (node as Record<string, unknown>)[key];
    }
  }
});

test("Chart.yaml: appVersion is package.json's version, and so is the default image tag", () => {
  const chart = parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as { apiVersion: string; name: string; version: string; appVersion: string };
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string };
  assert.equal(chart.apiVersion, 'v2');
  assert.equal(chart.name, 'tailor');
  assert.equal(chart.appVersion, pkg.version);
  assert.match(chart.version, /^\d+\.\d+\.\d+$/);
  assert.equal((parse(values) as { image: { tag: string } }).image.tag, '', 'an empty tag means appVersion');
});

test("charts/tailor/files/ holds manifests/monitoring's dashboard, kube-state-metrics config and PrometheusRule, byte for byte, and nothing else", () => {
  const files = readdirSync(join(CHART, 'files')).sort();
  assert.deepEqual(files, ['grafana-dashboard.json', 'kube-state-metrics-vpa.yaml', 'prometheus-rule.yaml']);
  for (const f of files)
    assert.equal(
      readFileSync(join(CHART, 'files', f), 'utf8'),
      readFileSync(join(MONITORING, f), 'utf8'),
      `charts/tailor/files/${f} differs from manifests/monitoring/${f} (npm run dashboard:build or rules:build rewrote it?): copy it over`,
    );
});

test('charts/tailor/crds/ holds the CRDs of manifests/crds, byte for byte, and nothing else', () => {
  const crds = readdirSync(join(CHART, 'crds')).sort();
  const manifests = readdirSync(MANIFEST_CRDS)
    .filter((f) => f !== 'kustomization.yaml')
    .sort();
  assert.deepEqual(crds, manifests);
  for (const f of crds)
    assert.equal(
      readFileSync(join(CHART, 'crds', f), 'utf8'),
      readFileSync(join(MANIFEST_CRDS, f), 'utf8'),
      `crds/${f} differs from manifests/crds/${f}: copy it over`,
    );
});
