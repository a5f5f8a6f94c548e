/**
 * End to end: the real CLI (`node bin/tailor.mjs demo`) as a child process, stdout not a
 * terminal. Asserts from its output and from the cluster and Prometheus it serves (through the
 * kubeconfig and URLs it prints) that Tailor recommended, resized in place without a restart,
 * resized with a restart, fell back to an eviction whose new pod carries the recommendation, and
 * reacted to an OOM kill, started a restarted pod with a start-up cpu boost and gave it back in
 * place; that /metrics answers; that Ctrl-C (SIGINT) or --duration stops everything (Prometheus
 * gone, temp dir removed) with exit code 0, after the closing audit report (HTML and JSON, from the
 * days of history) was written to --audit-dir and its path printed. Conditions are awaited with
 * generous deadlines, never fixed sleeps, so a loaded machine only makes it slower.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { parseCpu } from 'kube-basics/quantity';

interface DemoChild {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function startDemo(args: string[], env: Record<string, string | undefined> = {}): DemoChild {
  const child = spawn(process.execPath, ['bin/tailor.mjs', 'demo', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: '/nonexistent', ...env },
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

async function until<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await delay(500);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the demo on the way out of a failed test too (SIGINT, then SIGKILL) and its Prometheus. */
async function ensureStopped(d: DemoChild, prometheusPid: () => number | undefined): Promise<void> {
  if (d.child.exitCode === null && d.child.signalCode === null) {
    d.child.kill('SIGINT');
    const timer = setTimeout(() => d.child.kill('SIGKILL'), 30_000);
    await d.exited;
    clearTimeout(timer);
  }
  const pid = prometheusPid();
  if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
}

const line = (out: string, pattern: RegExp) => out.split('\n').find((l) => pattern.test(l));

test(
  'tailor demo: recommendations, in-place and restart resizes, an eviction fallback with the recommendation, an OOM reaction, a start-up cpu boost given back; Ctrl-C stops everything',
  { timeout: 240_000 },
  async (t) => {
    const reports = join(mkdtempSync(join(tmpdir(), 'tailor-demo-e2e-')), 'audit');
    const demo = startDemo(['--duration', '200s', '--audit-dir', reports]);
    const started: { prometheusPid?: number } = {};
    t.after(() => ensureStopped(demo, () => started.prometheusPid));
    t.after(() => rmSync(dirname(reports), { recursive: true, force: true }));

    const kubeconfig = await until(
      () => line(demo.out(), /^kubeconfig {2}/)?.split(/\s+/)[1],
      120_000,
      () => `the kubeconfig line; output:\n${demo.out()}`,
    );
    const metricsUrl = line(demo.out(), /^metrics {2}/)!.split(/\s+/)[1]!;
    const prom = line(demo.out(), /^prometheus {2}/)!;
    const promMatch = /^prometheus {2}(http:\/\/127\.0\.0\.1:\d+) \(pid (\d+)\)/.exec(prom);
    assert.ok(promMatch, `Prometheus runs: ${prom}`);
    const promUrl = promMatch[1]!;
    const prometheusPid = Number(promMatch[2]);
    started.prometheusPid = prometheusPid;

    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const vpa = async (name: string) =>
      (await custom.getNamespacedCustomObject({
        group: 'autoscaling.k8s.io',
        version: 'v1',
        namespace: 'default',
        plural: 'verticalpodautoscalers',
        name,
      })) as { status?: { recommendation?: { containerRecommendations?: Array<{ target: Record<string, string> }> } } };
    const events = async () =>
      (await core.listNamespacedEvent({ namespace: 'default' })).items.filter(
        (e) => e.source?.component === 'tailor-updater' && e.involvedObject.kind === 'Pod',
      );
    const pods = async (app: string) => (await core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${app}` })).items;

    // Recommendations for every VPA, from the backfilled days of history.
    for (const name of ['web', 'cache', 'batch', 'leaky']) {
      await until(
        async () => (await vpa(name)).status?.recommendation?.containerRecommendations?.[0]?.target,
        90_000,
        () => `a recommendation for ${name}; output:\n${demo.out()}`,
      );
    }
    // Every action the scenario is built to show, read back from the cluster.
    const reasons = (es: k8s.CoreV1Event[], reason: string, pod: string) =>
      es.filter((e) => e.reason === reason && e.involvedObject.name!.startsWith(`${pod}-`));
    const seen = await until(
      async () => {
        const es = await events();
        const inPlace = reasons(es, 'ResizedInPlace', 'web');
        const restart = reasons(es, 'ResizedWithRestart', 'cache');
        const fallback = reasons(es, 'Evicted', 'batch').filter((e) => e.message!.startsWith('FallbackInfeasible'));
        const oom = reasons(es, 'ResizedInPlace', 'leaky').filter((e) => e.message!.startsWith('OomKilled'));
        return inPlace.length > 0 && restart.length > 0 && fallback.length > 0 && oom.length > 0 ? { inPlace, restart } : undefined;
      },
      150_000,
      () => `the four actions; output:\n${demo.out()}`,
    );

    // The in-place resize restarted nothing; the restart-path one restarted its container.
    const web = await pods('web');
    const resizedWeb = web.find((p) => p.metadata!.name === seen.inPlace[0]!.involvedObject.name)!;
    assert.equal(resizedWeb.status!.containerStatuses![0]!.restartCount, 0, 'an in-place resize restarts nothing');
    assert.equal(resizedWeb.spec!.containers[0]!.resources!.requests!['cpu'], '300m', 'web: 600m -> 300m (one step of at most x0.5)');
    const cache = (await pods('cache')).find((p) => p.metadata!.name === seen.restart[0]!.involvedObject.name)!;
    assert.ok(cache.status!.containerStatuses![0]!.restartCount >= 1, 'the restart-path resize restarted the container');
    assert.equal(cache.spec!.containers[0]!.resources!.requests!['memory'], '512Mi');

    // The evicted batch pod's replacement came through the webhook with the recommendation and runs on the added node.
    const batchTarget = parseCpu((await vpa('batch')).status!.recommendation!.containerRecommendations![0]!.target['cpu']!);
    const replacement = await until(
      async () => (await pods('batch')).find((p) => p.metadata!.annotations?.['vpaUpdates'] !== undefined && p.status?.phase === 'Running'),
      60_000,
      () => `the recreated batch pod running; output:\n${demo.out()}`,
    );
    assert.equal(parseCpu(replacement.spec!.containers[0]!.resources!.requests!['cpu']), batchTarget, 'the new pod has the recommended cpu');
    assert.ok(batchTarget > 2000, `the recommendation (${batchTarget}m) is more than a small node's 2 cpu`);
    assert.equal(replacement.spec!.nodeName, 'large-1');

    // /metrics answers with Tailor's series; Prometheus holds the backfilled days and scrapes live.
    const metrics = await (await fetch(metricsUrl)).text();
    assert.match(metrics, /tailor_vpa_recommendation\{/);
    const query = async (q: string) =>
      ((await (await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`)).json()) as { data: { result: Array<{ value: [number, string] }> } }).data
        .result;
    // One series per web pod: the backfilled samples carry the job and instance labels of the scrape.
    const history = await query('count_over_time(container_cpu_usage_seconds_total{job="cadvisor",pod=~"web-.*"}[4d])');
    assert.equal(history.length, 2, JSON.stringify(history));
    for (const h of history) assert.ok(Number(h.value[1]) > 3 * 2880, `3 days of 30 s samples and the live ones: ${JSON.stringify(h)}`);
    await until(
      async () =>
        ((await query('min(up{job=~"cadvisor|kube-state|tailor"})'))[0]?.value[1] === '1' &&
          (await query('count(up{job=~"cadvisor|kube-state|tailor"})'))[0]?.value[1] === '3') ||
        undefined,
      60_000,
      () => 'Prometheus scraping kube-sim and Tailor',
    );

    // The view logged the same story (it looks once a second: wait for its lines).
    for (const [kind, subject] of [
      ['recommendation', 'web'],
      ['in-place', 'web'],
      ['restart', 'cache'],
      ['infeasible', 'batch'],
      ['fallback', 'batch'],
      ['admitted', 'batch'],
      ['scale-up', 'large-1'],
      ['oom', 'leaky'],
    ]) {
      await until(
        () => line(demo.out(), new RegExp(`^ +\\+\\d+s  ${kind} +${subject} `)),
        30_000,
        () => `a "${kind} ${subject}" log line in:\n${demo.out()}`,
      );
    }

    // boot: restarted once its VPA recommends; the new pod started boosted (3x 250m), was Ready in
    // about 20 s (15 CPU-seconds at 750m; 60 s at 250m), and got its cpu back in place.
    for (const [kind, subject, text] of [
      ['rollout', 'boot', 'restarted'],
      ['boosted', 'boot', 'app cpu 750m \\(steady 250m\\)'],
      ['ready', 'boot', 'Ready \\d+ s after its start'],
      ['in-place', 'boot', 'StartupBoostEnded'],
    ]) {
      await until(
        () => line(demo.out(), new RegExp(`^ +\\+\\d+s  ${kind} +${subject} .*${text}`)),
        60_000,
        () => `a "${kind} ${subject}" log line in:\n${demo.out()}`,
      );
    }
    const readyIn = Number(/Ready (\d+) s after its start/.exec(line(demo.out(), / {2}ready +boot /)!)![1]);
    assert.ok(readyIn >= 15 && readyIn <= 30, `Ready about 20 s after its start with the boost (${readyIn} s)`);
    const [boot] = (await pods('boot')).filter(
      (p) => p.metadata!.annotations?.['tailor.dev/startup-cpu-boost-record'] !== undefined && !p.metadata!.deletionTimestamp,
    );
    assert.ok(boot, 'the boosted pod');
    const returned = reasons(await events(), 'ResizedInPlace', 'boot').find((e) => e.message!.startsWith('StartupBoostEnded'));
    assert.equal(returned?.involvedObject.name, boot.metadata!.name, 'the cpu was given back to the same pod');
    await until(
      async () =>
        (await pods('boot')).find((p) => p.metadata!.uid === boot.metadata!.uid && p.status?.containerStatuses?.[0]?.resources?.requests?.['cpu'] === '250m'),
      30_000,
      () => 'boot back at 250m',
    );
    const back = (await pods('boot')).find((p) => p.metadata!.uid === boot.metadata!.uid)!;
    assert.deepEqual(
      [
        back.spec!.containers[0]!.resources!.requests!['cpu'],
        back.spec!.containers[0]!.resources!.limits!['cpu'],
        back.status!.qosClass,
        back.status!.containerStatuses![0]!.restartCount,
      ],
      ['250m', '250m', 'Guaranteed', 0],
    );

    // What the closing audit should read as web's request: the highest of its pods' now (Tailor stops first).
    const webRequest = Math.max(
      ...(await pods('web')).filter((p) => !p.metadata!.deletionTimestamp).map((p) => parseCpu(p.spec!.containers[0]!.resources!.requests!['cpu']!)),
    );

    // Ctrl-C: exit 0, the summary, Prometheus gone, the temp dir removed.
    demo.child.kill('SIGINT');
    assert.equal(await demo.exited, 0, demo.out());
    assert.match(
      demo.out(),
      /summary: \d+ recommendations?, [1-9]\d* in-place resizes?, [1-9]\d* restarting resizes?, [1-9]\d* infeasible resizes?, [1-9]\d* evictions? \([1-9]\d* after an infeasible resize\)/,
    );
    assert.match(demo.out(), /stopping \(SIGINT\)/);
    assert.equal(alive(prometheusPid), false, `Prometheus (pid ${prometheusPid}) is gone`);
    assert.equal(existsSync(dirname(kubeconfig)), false, 'the temp dir is removed');

    // The closing audit: announced in the header, written before Prometheus stopped, its path printed, kept.
    assert.match(demo.out(), new RegExp(`^audit {7}at the end, tailor audit writes an HTML and a JSON report to ${reports} \\(kept\\)$`, 'm'));
    assert.match(demo.out(), new RegExp(`^tailor demo: audit report ${join(reports, 'latest.html')} \\(and latest.json; kept\\)$`, 'm'));
    assert.deepEqual(
      readdirSync(reports)
        .filter((f) => f.startsWith('latest.'))
        .sort(),
      ['latest.html', 'latest.json'],
    );
    const report = JSON.parse(readFileSync(join(reports, 'latest.json'), 'utf8')) as {
      kind: string;
      window: { start: string; end: string };
      workloads: Array<{ workload: { name: string }; verdict: string; cpu: { request: number | null }; usage: unknown }>;
    };
    assert.equal(report.kind, 'TailorAuditReport');
    assert.ok(
      Date.parse(report.window.end) - Date.parse(report.window.start) >= 3 * 86_400_000,
      `the demo's 3 days of history: ${JSON.stringify(report.window)}`,
    );
    const names = new Set(report.workloads.map((w) => w.workload.name));
    for (const name of ['web', 'cache', 'batch', 'leaky']) assert.ok(names.has(name), `a row for ${name}: ${[...names].join(', ')}`);
    // web was lowered in place during the demo: the audit reads the requests Tailor left, not the 600m it started with.
    assert.equal(report.workloads.find((w) => w.workload.name === 'web')?.cpu.request, webRequest);
    assert.ok(
      report.workloads.every((w) => w.usage !== null),
      'every row has its usage chart data',
    );
    assert.match(readFileSync(join(reports, 'latest.html'), 'utf8'), /<svg/);
  },
);

test('tailor demo --no-prometheus: the recommender reads the simulator; --duration ends it with exit 0', { timeout: 120_000 }, async (t) => {
  const demo = startDemo(['--no-prometheus', '--duration', '25s']);
  t.after(() => ensureStopped(demo, () => undefined));
  const code = await demo.exited;
  const out = demo.out();
  assert.equal(code, 0, out);
  assert.match(out, /^prometheus {2}off \(--no-prometheus\)/m);
  assert.match(out, /^audit {7}none: tailor audit reads Prometheus, which is not running$/m);
  assert.doesNotMatch(out, /audit report/);
  for (const name of ['web', 'cache', 'batch', 'leaky'])
    assert.ok(line(out, new RegExp(`recommendation +${name} +VPA ${name}: app: `)), `a recommendation for ${name} in:\n${out}`);
  assert.match(out, /stopping \(--duration 25s\)/);
  const kubeconfig = line(out, /^kubeconfig {2}/)!.split(/\s+/)[1]!;
  assert.equal(existsSync(dirname(kubeconfig)), false, 'the temp dir is removed');
});

test('tailor demo says so when Prometheus cannot be installed, and runs on the simulator source', { timeout: 240_000 }, async (t) => {
  // Nothing on PATH: neither prometheus nor apt-get can be found. Stopped once web has a
  // recommendation (a fixed --duration was too short on a loaded machine), with a generous deadline.
  const demo = startDemo([], { PATH: '/nonexistent' });
  t.after(() => ensureStopped(demo, () => undefined));
  await until(
    () => /recommendation +web +VPA web: app: cpu /.test(demo.out()) || undefined,
    180_000,
    () => `a recommendation for web in:\n${demo.out()}`,
  );
  demo.child.kill('SIGINT');
  const code = await demo.exited;
  const out = demo.out();
  assert.equal(code, 0, out);
  // The reason names the package and what to run (as root: apt-get failed; otherwise: no passwordless sudo).
  assert.match(
    out,
    /^tailor demo: Prometheus could not be started \(.*Debian package prometheus.*run `sudo apt-get install -y prometheus`.*\); the recommender reads the usage straight from the simulator instead$/m,
  );
  assert.match(out, /^prometheus {2}not running: the recommender reads the simulator/m);
  assert.ok(line(out, /recommendation +web +VPA web: app: cpu /), out);
});

test('tailor demo refuses a bad option before starting anything, naming the flag', async () => {
  const demo = startDemo(['--duration', 'soon']);
  assert.equal(await demo.exited, 2);
  assert.match(demo.out(), /tailor demo: --duration: invalid duration "soon": use e\.g\. [^;]*; see tailor demo --help/);
});

test('tailor demo --audit-dir that cannot be made fails at once, before anything starts (exit 1, one line)', { timeout: 60_000 }, async (t) => {
  const demo = startDemo(['--audit-dir', '/proc/nope']);
  t.after(() => ensureStopped(demo, () => undefined));
  // Before, the demo ran to its end and then hung in the audit (Node's recursive mkdir under /proc).
  const code = await Promise.race([demo.exited, delay(30_000).then(() => 'still running')]);
  assert.equal(code, 1, demo.out());
  assert.match(demo.out(), /^tailor demo: --audit-dir \/proc\/nope: cannot create the folder: no folder can be created in \/proc\n$/);
});
