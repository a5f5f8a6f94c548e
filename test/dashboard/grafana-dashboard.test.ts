import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { DASHBOARD_FILE, dashboardFileText } from '../../src/dashboard/dashboard-file.ts';
import { tailorDashboard } from '../../src/dashboard/grafana-dashboard.ts';
import { panelQueries } from '../../src/dashboard/panel-targets.ts';
import { workloadPods } from '../../src/dashboard/workload-pods.ts';
import { render } from '../manifests/kustomize.ts';

test('manifests/monitoring/grafana-dashboard.json is what npm run dashboard:build writes', () => {
  assert.equal(readFileSync(DASHBOARD_FILE, 'utf8'), dashboardFileText(), 'run npm run dashboard:build');
});

test('every panel sits in the 24-column grid without overlapping another, and ids are unique', () => {
  const panels = tailorDashboard().panels;
  assert.equal(new Set(panels.map((p) => p.id)).size, panels.length);
  for (const [i, a] of panels.entries()) {
    assert.ok(a.gridPos.x >= 0 && a.gridPos.x + a.gridPos.w <= 24, `${a.title} fits the width`);
    for (const b of panels.slice(i + 1)) {
      const overlap =
        a.gridPos.x < b.gridPos.x + b.gridPos.w &&
        b.gridPos.x < a.gridPos.x + a.gridPos.w &&
        a.gridPos.y < b.gridPos.y + b.gridPos.h &&
        b.gridPos.y < a.gridPos.y + a.gridPos.h;
      assert.ok(!overlap, `${a.title} overlaps ${b.title}`);
    }
  }
});

test('queries use only defined variables and the data source variable; every metric is one Tailor, cAdvisor or kube-state-metrics exports', () => {
  const d = tailorDashboard();
  const defined = new Set(['__rate_interval', ...d.templating.list.map((v) => v.name)]);
  const metrics = new Set<string>();
  for (const q of panelQueries(d)) {
    for (const m of q.expr.matchAll(/\$(\w+)/g)) if (m[1] !== '1') assert.ok(defined.has(m[1]!), `${q.panel}: $${m[1]} is not defined`);
    for (const m of q.expr.matchAll(/\b(tailor_\w+|container_\w+|kube_\w+)\b/g)) metrics.add(m[1]!.replace(/_bucket$/, ''));
  }
  const exported = [
    'src/controller/controller-metrics.ts',
    'src/updater/updater-metrics.ts',
    'src/updater/memory-warning-metrics.ts',
    'src/recommender/recommender-metrics.ts',
    'src/admission/admission-metrics.ts',
    'src/metrics/source-metrics.ts',
    'packages/kube-sim/src/metrics/cadvisor-metrics.ts',
    'packages/kube-sim/src/metrics/kube-state-metrics.ts',
  ]
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  for (const m of metrics) assert.ok(exported.includes(`'${m}'`), `${m} is exported`);
  assert.ok(metrics.size >= 20, [...metrics].join(', '));
  for (const p of d.panels.filter((p) => p.type !== 'row')) assert.deepEqual(p.datasource, { type: 'prometheus', uid: '${datasource}' });
});

test('the money panel: monthly cost of requests and recommendations at price variables that default to 0, 730 h a month', () => {
  const d = tailorDashboard();
  const vars = new Map(d.templating.list.map((v) => [v.name, v]));
  for (const [name, value] of [
    ['cpu_hour_price', '0'],
    ['memory_gib_hour_price', '0'],
    ['currency', 'USD'],
  ]) {
    assert.equal(vars.get(name!)?.type, 'textbox', name);
    assert.equal(vars.get(name!)?.query, value, name);
  }
  const panel = d.panels.find((p) => p.title === 'Monthly cost of requests vs recommendations ($currency)');
  assert.ok(panel, 'the money panel');
  assert.deepEqual(
    panel.targets!.map((t) => t.legendFormat),
    ['requests', 'recommendations', 'saving (negative: a cost)'],
  );
  for (const t of panel.targets!) {
    assert.match(t.expr, /\* \$cpu_hour_price \+ .* \/ 1073741824 \* \$memory_gib_hour_price\) \* 730/);
    assert.match(t.expr, /tailor_vpa_recommendation\{namespace="\$namespace", resource="memory", bound="target"\}/);
  }
});

test('workloadPods joins Deployment pods through their ReplicaSet and other pods directly', () => {
  const q = workloadPods('shop', 'web');
  assert.match(q, /kube_pod_owner\{namespace="shop", owner_kind!~"ReplicaSet\|<none>", owner_name="web"\}/);
  assert.match(q, /kube_replicaset_owner\{namespace="shop", owner_kind!="<none>", owner_name="web"\}/);
  assert.doesNotMatch(workloadPods('shop'), /owner_name="/);
});

test('the monitoring component ships the dashboard as a ConfigMap for the Grafana sidecar', async () => {
  const { objects } = await render('monitoring');
  const cm = objects.find((o) => o.kind === 'ConfigMap' && (o.metadata as { name: string }).name === 'tailor-grafana-dashboard') as
    { metadata: { labels: Record<string, string> }; data: Record<string, string> } | undefined;
  assert.ok(cm);
  assert.equal(cm.metadata.labels['grafana_dashboard'], '1');
  assert.equal(cm.data['tailor.json'], readFileSync(DASHBOARD_FILE, 'utf8'));
});

test('docs/dashboard.md shows every rendered dashboard image, the README one of them, each a PNG under 200 KB', () => {
  const page = readFileSync('docs/dashboard.md', 'utf8');
  const images = readdirSync('docs/images').filter((f) => f.startsWith('dashboard-'));
  assert.ok(images.length >= 3, images.join(', '));
  assert.ok(
    images.some((image) => readFileSync('README.md', 'utf8').includes(`](docs/images/${image})`)),
    'the README shows a dashboard image',
  );
  for (const image of images) {
    assert.ok(page.includes(`](images/${image})`), `docs/dashboard.md shows ${image}`);
    const bytes = readFileSync(`docs/images/${image}`);
    assert.equal(bytes.subarray(1, 4).toString(), 'PNG', image);
    assert.ok(bytes.length < 200 * 1024, `${image}: ${bytes.length} bytes`);
  }
});
