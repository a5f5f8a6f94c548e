/**
 * The Grafana dashboard against the real thing: kube-sim at real speed, Tailor's recommender,
 * updater and admission webhook in-process with /metrics over HTTP, and a real Prometheus scraping
 * all of it every second (src/dashboard/dashboard-lab.ts). Once the scenario has produced its
 * events (in-place and restart resizes, an Infeasible fallback eviction, OOM kills, an admission
 * review, retried recommender writes, resizes seen applied), the template variables are resolved with their label_values() queries and every panel
 * target's PromQL runs against Prometheus: none may fail or come back without a finite value. A
 * panel whose series is scraped a little after the events (a loaded machine) is asked again until
 * a generous deadline; one that never has data fails there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DASHBOARD_FILE } from '../../src/dashboard/dashboard-file.ts';
import { LAB_NAMESPACE, startDashboardLab, waitForLabEvents } from '../../src/dashboard/dashboard-lab.ts';
import { panelQueries, parseLabelValues, substitute, textVariables, variableQueries, type VariableValues } from '../../src/dashboard/panel-targets.ts';
import { instantQuery, labelValues, type Series } from '../../src/dashboard/prometheus-api.ts';

const MiB = 1024 * 1024;
/** The prices typed into the dashboard's text boxes. */
const PRICES = { cpu_hour_price: '0.03', memory_gib_hour_price: '0.004' };

/** The single-value variables' choices: the workload with CPU and memory limits. */
const CHOSEN: Record<string, string> = { namespace: LAB_NAMESPACE, workload: 'web' };

const finite = (series: Series[]) => series.some((s) => s.values.some(([, v]) => Number.isFinite(v)));
const valueOf = (series: Series[], labels: Record<string, string>) =>
  series.find((s) => Object.entries(labels).every(([k, v]) => s.metric[k] === v))?.values[0]?.[1];

/** How long after the events every panel may take to have data (the scrape interval is 1 s). */
const PANELS_DEADLINE_MS = 90_000;

test('every panel query of the Grafana dashboard returns data from a Prometheus that scraped Tailor on kube-sim', { timeout: 360_000 }, async (t) => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Parameters<typeof panelQueries>[0] & Parameters<typeof variableQueries>[0];
  const queries = panelQueries(dashboard);
  assert.ok(queries.length >= 25, `${queries.length} panel targets`);

  const lab = await startDashboardLab();
  t.after(() => lab.stop());
  const url = lab.prometheus.url;

  // Wait (with a deadline, not a fixed sleep) until every event has been scraped.
  const pending = await waitForLabEvents(lab, Date.now() + 150_000);
  assert.deepEqual(pending, [], `events not seen in Prometheus after ${Math.round((Date.now() - lab.startedAt) / 1000)} s`);
  t.diagnostic(`all events scraped ${Math.round((Date.now() - lab.startedAt) / 1000)} s after the start`);

  // The variables as Grafana resolves them: label_values() through the label values API.
  const values: Record<string, string | string[]> = {};
  for (const v of variableQueries(dashboard)) {
    const parsed = parseLabelValues(v.definition);
    assert.ok(parsed, `variable ${v.name}: ${v.definition} is label_values(selector, label)`);
    const found = await labelValues(url, parsed.label, substitute(parsed.match, values));
    assert.ok(found.length > 0, `variable ${v.name} has no values: ${v.definition}`);
    if (v.multi) {
      values[v.name] = found; // All
    } else {
      const chosen = CHOSEN[v.name]!;
      assert.ok(found.includes(chosen), `variable ${v.name} lacks ${chosen}: ${found.join(', ')}`);
      values[v.name] = chosen;
    }
  }
  // The prices, typed into their text boxes (defaults: 0 and USD).
  assert.deepEqual(textVariables(dashboard), { cpu_hour_price: '0', memory_gib_hour_price: '0', currency: 'USD' });
  Object.assign(values, textVariables(dashboard), PRICES);
  assert.deepEqual(values['workload'] === 'web' && (await labelValues(url, 'target_name', `tailor_vpa_recommendation{namespace="${LAB_NAMESPACE}"}`)).sort(), [
    'big',
    'db',
    'hog',
    'idle',
    'web',
  ]);
  assert.deepEqual(values['container'], ['app']);

  // Every target over the whole run: $__rate_interval spans it, as a range covering it would.
  // Asked again (the targets still without data) every 2 s until all have data or the deadline.
  let intervals = { __rate_interval: '', __interval: '2s', __range: '' };
  let failures: string[] = [];
  const results = new Map<string, Series[]>();
  const panelsDeadline = Date.now() + PANELS_DEADLINE_MS;
  let open = queries;
  for (let round = 1; ; round++) {
    const run = `${Math.ceil((Date.now() - lab.startedAt) / 1000)}s`;
    intervals = { __rate_interval: run, __interval: '2s', __range: run };
    failures = [];
    const stillOpen: typeof queries = [];
    for (const q of open) {
      const expr = substitute(q.expr, values as VariableValues, intervals);
      assert.doesNotMatch(expr, /\$(?!1")/, `unsubstituted variable in ${q.panel} ${q.refId}: ${expr}`);
      try {
        const series = await instantQuery(url, expr);
        results.set(`${q.panel}/${q.refId}`, series);
        if (!finite(series)) {
          failures.push(`${q.panel} ${q.refId} (${q.legendFormat}): no finite value: ${expr}`);
          stillOpen.push(q);
        }
      } catch (err) {
        failures.push(`${q.panel} ${q.refId}: ${(err as Error).message}`);
        stillOpen.push(q);
      }
    }
    if (round > 1 || stillOpen.length > 0)
      t.diagnostic(
        `round ${round}: ${stillOpen.length} panel targets without data${stillOpen.length > 0 ? `: ${stillOpen.map((q) => `${q.panel} ${q.refId}`).join('; ')}` : ''}`,
      );
    open = stillOpen;
    if (open.length === 0 || Date.now() >= panelsDeadline) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  assert.deepEqual(failures, [], `${failures.length} of ${queries.length} panel queries failed`);
  t.diagnostic(`${queries.length} panel targets returned data`);

  // A few worked numbers through the panels' own queries.
  const get = (panel: string, refId: string) => results.get(`${panel}/${refId}`)!;
  // web requests 20m per pod and is raised in place (x2, or at once to the lowerBound, decision
  // 0292): the panel shows 20m or more, and not above the recommendation's upper bound.
  const cpuPanel = 'CPU: usage, requests, limits and recommendation';
  const webRequest = valueOf(get(cpuPanel, 'B'), { container: 'app' }) ?? NaN;
  const webUpper = valueOf(get(cpuPanel, 'F'), { container: 'app' }) ?? NaN;
  assert.ok(webRequest >= 0.02 && webRequest <= webUpper, `web CPU request ${webRequest}, upper bound ${webUpper}`);
  const resizes = get('Resizes by path and outcome', 'A');
  assert.ok(
    (valueOf(resizes, { path: 'in-place', outcome: 'applied' }) ?? 0) > 0 && (valueOf(resizes, { path: 'restart', outcome: 'applied' }) ?? 0) > 0,
    JSON.stringify(resizes),
  );
  assert.ok((valueOf(get('Evictions and fallbacks', 'B'), { cause: 'FallbackInfeasible' }) ?? 0) > 0);
  assert.ok(
    get('OOM kills', 'A').some((s) => s.metric['pod']?.startsWith('hog-') && s.values[0]![1] > 0),
    'hog was OOM-killed',
  );
  // idle (updateMode Off) requests 500m / 512Mi, uses 30m / 64Mi: targets at the CPU floor or just
  // above (25m-40m) and, under the default strategy tailor-low-churn (decision 0276), memory at its
  // flat 64Mi + 12% = 71.7Mi (upstream's algorithm would floor it at 250Mi), so it could save
  // 0.46-0.475 cores and 512Mi - 71.7Mi = 440.3Mi.
  const cpuSaving = valueOf(get('CPU savings by workload', 'A'), { workload: 'idle' })!;
  const memorySaving = valueOf(get('Memory savings by workload', 'A'), { workload: 'idle' })!;
  t.diagnostic(`idle could save ${cpuSaving} cores and ${memorySaving / MiB} MiB`);
  assert.ok(cpuSaving >= 0.45 && cpuSaving <= 0.475, `idle CPU saving ${cpuSaving}`);
  assert.ok(Math.abs(memorySaving - (512 - 64 * 1.12) * MiB) < 2 * MiB, `idle memory saving ${memorySaving / MiB} MiB`);
  // The money panel: at 0.03 per CPU-hour and 0.004 per GiB-hour, the saving is the savings panels'
  // totals priced for 730 h, and the recommendations cost the requests' cost minus the saving.
  const money = 'Monthly cost of requests vs recommendations ($currency)';
  const cpuTotal = valueOf(get('CPU savings', 'A'), {})!;
  const memoryTotal = valueOf(get('Memory savings', 'A'), {})!;
  const saving = valueOf(get(money, 'C'), {})!;
  const [requestsCost, recommendationsCost] = [valueOf(get(money, 'A'), {})!, valueOf(get(money, 'B'), {})!];
  t.diagnostic(`monthly: requests ${requestsCost}, recommendations ${recommendationsCost}, saving ${saving}`);
  assert.ok(
    Math.abs(saving - (cpuTotal * 0.03 + (memoryTotal / 2 ** 30) * 0.004) * 730) < 0.01,
    `saving ${saving} from ${cpuTotal} cores and ${memoryTotal} bytes`,
  );
  assert.ok(Math.abs(requestsCost - recommendationsCost - saving) < 0.01 && requestsCost > 0, `${requestsCost} - ${recommendationsCost} = ${saving}`);
  assert.equal(valueOf(get('Leader', 'A'), {}), 1);
  // The updater reads usage from the lab's Prometheus: fed, and every read ok.
  assert.equal(valueOf(get('Updater memory usage feed', 'A'), {}), 1);
  assert.ok((valueOf(get('Updater memory usage feed', 'B'), { outcome: 'ok' }) ?? 0) > 0);
  // The two injected 500s on VPA status patches were retried, and status writes went through.
  assert.ok((valueOf(get('Recommender writes', 'B'), { object: 'status', reason: 'unavailable' }) ?? 0) > 0, JSON.stringify(get('Recommender writes', 'B')));
  assert.ok((valueOf(get('Recommender writes', 'A'), { object: 'status', outcome: 'ok' }) ?? 0) > 0);
  // In-place resizes seen applied: p50 <= p95, within the run.
  const p50 = valueOf(get('Recommendation to applied', 'A'), { path: 'in-place' })!;
  const p95 = valueOf(get('Recommendation to applied', 'B'), { path: 'in-place' })!;
  t.diagnostic(`recommendation to applied in place: p50 ${p50} s, p95 ${p95} s`);
  assert.ok(p50 > 0 && p50 <= p95 && p95 <= ((Date.now() - lab.startedAt) / 1000) * 2, `p50 ${p50}, p95 ${p95}`);

  // The StatefulSet's pods are owned directly (no ReplicaSet): the same panel finds them.
  const memoryPanel = queries.filter((q) => q.panel === 'Memory: working set, requests, limits and recommendation');
  const db = { ...values, workload: 'db', container: ['postgres'] };
  const [usage, request] = await Promise.all(memoryPanel.slice(0, 2).map((q) => instantQuery(url, substitute(q.expr, db, intervals))));
  assert.equal(valueOf(request!, { container: 'postgres' }), 256 * MiB);
  const dbUsage = valueOf(usage!, { container: 'postgres' })!;
  assert.ok(dbUsage >= 180 * MiB && dbUsage <= 220 * MiB, `db working set ${dbUsage / MiB} MiB (200Mi +/- 10%)`);
});
