/**
 * The kube-state-metrics custom-resource-state config for VPAs: the metric names community VPA
 * dashboards query, each bound in cpu and memory, and every path it reads exists in the VPA CRD's
 * schema (a typo would silently export nothing). kube-state-metrics itself is not run here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { find, MANIFESTS, parseManifests, render } from './kustomize.ts';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: string[];
  additionalProperties?: Schema | boolean;
  'x-kubernetes-int-or-string'?: boolean;
}
type Path = string[];
interface MetricConfig {
  name: string;
  help: string;
  commonLabels?: Record<string, string>;
  each: {
    type: 'Gauge' | 'StateSet' | 'Info';
    gauge?: { path: Path; valueFrom: Path; labelsFromPath?: Record<string, Path> };
    stateSet?: { labelName: string; path: Path; list: string[] };
    info?: { labelsFromPath: Record<string, Path> };
  };
}
interface Config {
  kind: string;
  spec: {
    resources: {
      groupVersionKind: { group: string; version: string; kind: string };
      metricNamePrefix?: string;
      labelsFromPath: Record<string, Path>;
      metrics: MetricConfig[];
    }[];
  };
}

const FILE = join(MANIFESTS, 'monitoring', 'kube-state-metrics-vpa.yaml');
const PREFIX = 'kube_customresource_';

/** The schema node at a path (objects by property, arrays by their items); undefined if absent. */
function schemaAt(root: Schema, path: Path): Schema | undefined {
  let node: Schema | undefined = root;
  for (const segment of path) {
    while (node?.type === 'array') node = node.items;
    if (!node) return undefined;
    const next: Schema | undefined = node.properties?.[segment] ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
    node = next;
  }
  return node;
}

async function load(): Promise<{ config: Config; schema: Schema }> {
  const config = parse(await readFile(FILE, 'utf8')) as Config;
  const crdText = await readFile(join(MANIFESTS, 'crds', 'verticalpodautoscalers.yaml'), 'utf8');
  const crd = parseManifests(crdText)[0] as unknown as { spec: { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] } };
  const v1 = crd.spec.versions.find((v) => v.name === 'v1');
  assert.ok(v1);
  // metadata is not in a CRD schema; give the walk the fields every object has.
  const schema: Schema = {
    ...v1.schema.openAPIV3Schema,
    properties: {
      ...v1.schema.openAPIV3Schema.properties,
      metadata: {
        type: 'object',
        properties: { name: { type: 'string' }, namespace: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
      },
    },
  };
  return { config, schema };
}

test('the VPA metrics carry the names community dashboards query, in cpu and memory', async () => {
  const { config } = await load();
  assert.equal(config.kind, 'CustomResourceStateMetrics');
  assert.equal(config.spec.resources.length, 1);
  const resource = config.spec.resources[0]!;
  assert.deepEqual(resource.groupVersionKind, { group: 'autoscaling.k8s.io', version: 'v1', kind: 'VerticalPodAutoscaler' });
  assert.equal(resource.metricNamePrefix, undefined, 'the default prefix kube_customresource_');
  assert.deepEqual(Object.keys(resource.labelsFromPath).sort(), ['namespace', 'target_api_version', 'target_kind', 'target_name', 'verticalpodautoscaler']);
  const series = resource.metrics
    .filter((m) => m.each.type === 'Gauge' && m.commonLabels)
    .map((m) => `${PREFIX}${m.name}{resource=${m.commonLabels?.['resource']},unit=${m.commonLabels?.['unit']}}`);
  const expected: string[] = [];
  for (const bound of ['lowerbound', 'target', 'upperbound', 'uncappedtarget'])
    expected.push(`${PREFIX}verticalpodautoscaler_status_recommendation_containerrecommendations_${bound}`);
  for (const bound of ['minallowed', 'maxallowed']) expected.push(`${PREFIX}verticalpodautoscaler_spec_resourcepolicy_container_policies_${bound}`);
  assert.deepEqual(series.sort(), expected.flatMap((n) => [`${n}{resource=cpu,unit=core}`, `${n}{resource=memory,unit=byte}`]).sort());
  // Series of one name differ only in their labels, so they share one HELP text.
  const helps = new Map<string, Set<string>>();
  for (const m of resource.metrics) helps.set(m.name, (helps.get(m.name) ?? new Set()).add(m.help));
  for (const [name, texts] of helps) assert.equal(texts.size, 1, name);
});

test('every path the config reads exists in the VPA CRD schema, and the update modes are its enum', async () => {
  const { config, schema } = await load();
  const resource = config.spec.resources[0]!;
  for (const [label, path] of Object.entries(resource.labelsFromPath)) {
    assert.ok(path[0] === 'apiVersion' || schemaAt(schema, path), `label ${label}: ${path.join('.')}`);
  }
  let checked = 0;
  for (const m of resource.metrics) {
    if (m.each.gauge) {
      const base = m.each.gauge.path;
      assert.ok(schemaAt(schema, base), `${m.name}: ${base.join('.')}`);
      const value = schemaAt(schema, [...base, ...m.each.gauge.valueFrom]);
      assert.ok(value, `${m.name}: ${[...base, ...m.each.gauge.valueFrom].join('.')}`);
      for (const [label, path] of Object.entries(m.each.gauge.labelsFromPath ?? {}))
        assert.ok(schemaAt(schema, [...base, ...path]), `${m.name} label ${label}`);
      checked++;
    }
    if (m.each.stateSet) {
      const modes = schemaAt(schema, m.each.stateSet.path);
      assert.deepEqual([...m.each.stateSet.list].sort(), [...(modes?.enum ?? [])].sort(), 'every update mode the CRD allows');
      checked++;
    }
    if (m.each.info) {
      for (const path of Object.values(m.each.info.labelsFromPath)) assert.ok(schemaAt(schema, path), `${m.name}: ${path.join('.')}`);
      checked++;
    }
  }
  assert.equal(checked, resource.metrics.length);
  // A wrong path is caught: the walk is not vacuous.
  assert.equal(schemaAt(schema, ['status', 'recommendation', 'containerRecommendations', 'targets']), undefined);
});

test('the monitoring component ships the config unchanged as ConfigMap tailor-kube-state-metrics-vpa', async () => {
  const { objects } = await render('monitoring');
  const configMap = find(objects, 'ConfigMap', 'tailor-kube-state-metrics-vpa') as unknown as { data: Record<string, string> };
  assert.equal(configMap.data['vpa.yaml'], await readFile(FILE, 'utf8'));
  const role = find(objects, 'ClusterRole', 'tailor-kube-state-metrics-vpa') as unknown as { rules: { resources: string[]; verbs: string[] }[] };
  assert.deepEqual(
    role.rules.map((r) => `${r.resources.join()}:${r.verbs.join()}`),
    ['verticalpodautoscalers:list,watch', 'customresourcedefinitions:list,watch'],
  );
});
