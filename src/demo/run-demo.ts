/**
 * `tailor demo`, the shell: starts kube-sim with the demo scenario (real time), a Prometheus with
 * days of backfilled history scraping it (or, when Prometheus cannot run, the simulator source),
 * and Tailor's recommender, updater and admission webhook in this process exactly as `tailor run`
 * builds them (the same configuration table, with demo intervals); then shows the live view until
 * Ctrl-C or `--duration`, and stops everything it started, in reverse order; after Tailor stops and
 * before Prometheus does, the closing audit (`tailor audit`, lent by the cli) writes an HTML and a
 * JSON report of the days of history to a folder that is kept. Prometheus runs out of the
 * terminal's process group, so Ctrl-C reaches the demo alone and the audit can still read it
 * (stop-signal.ts); an exit that skips the stop leaves nothing either (leftovers.ts).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRunConfig } from '../controller/run-config.ts';
import { startRun } from '../controller/start-run.ts';
import { COMPONENT_FACTORIES } from '../controller/component-registry.ts';
import { createRecommenderComponent } from '../controller/recommender-component.ts';
import type { RunningController } from '../controller/controller-runtime.ts';
import { freePort } from '../local-prometheus/free-port.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import { startKubeSim, type KubeSim } from 'kube-sim';
import type { KubeObject } from 'kube-sim/apiserver';
import { cadvisorFamilies } from 'kube-sim/metrics/cadvisor-metrics';
import { kubeStateFamilies } from 'kube-sim/metrics/kube-state-metrics';
import type { Workload } from 'kube-sim/controllers/workload-types';
import type { NodeObject, Pod } from 'kube-sim/objects';
import { nodeObject } from 'kube-sim/scenario-objects';
import { DEFAULT_SERVER_VERSION } from 'kube-sim/server-version';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import { activitiesBetween, type Activity } from './activity.ts';
import { podRows, type DemoSnapshot, type SnapshotEvent } from './demo-snapshot.ts';
import type { DemoOptions } from './demo-options.ts';
import { scrapeLabels, startDemoPrometheus } from './demo-prometheus.ts';
import { loadDemoScenario } from './demo-scenario.ts';
import { formatActivity, renderScreen, renderSummary, renderTable, runningClock, ttyFrame } from './demo-view.ts';
import { LiveUsageRecorder, type MeterReading } from './live-usage-recorder.ts';
import { historySeries } from './openmetrics-history.ts';
import { nodeToAdd } from './scale-up.ts';
import { deploymentsToRestart, RESTARTED_AT_ANNOTATION } from './rollout-restart.ts';
import { SimMetricsSource, type OwnedObject } from './sim-metrics-source.ts';
import { containerHistories } from './usage-history.ts';
import { VPA_CRD_MANIFESTS } from '../api/vpa-crd-manifests.ts';
import { prepareOutputDir, removeIfCreatedAndEmpty } from '../report/audit/output-dir.ts';
import { wrapText } from '../report/fit-table.ts';
import { removeAtExit } from './leftovers.ts';
import { DemoStopped, stopSignal } from './stop-signal.ts';

/** Loop intervals of the demo (the defaults are for clusters: 1 minute). */
export const DEMO_INTERVAL = '10s';
const VIEW_REFRESH_MS = 1000;
const RECORD_EVERY_MS = 5000;
const NAMESPACE = 'default';
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

/** Where the demo writes; a terminal gets the redrawn view. */
export interface DemoOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  /** The terminal's width, when it is one. */
  columns?: number;
}

/** What the closing audit is given: the demo's Prometheus and cluster, the history's length, the folder to write. */
export interface DemoAuditInput {
  prometheusUrl: string;
  kubeconfig: string;
  historyDays: number;
  dir: string;
}

/** What the shell above lends the demo: the closing audit (`tailor audit`, which lives in the cli). */
export interface DemoHooks {
  audit?: (input: DemoAuditInput) => Promise<void>;
}

/** Reads the cluster as the view shows it. */
function snapshot(sim: KubeSim): DemoSnapshot {
  const store = sim.server.store;
  const events = (store.list('events', NAMESPACE) as unknown as Array<Record<string, unknown> & { metadata: { name?: string } }>).map((e): SnapshotEvent => ({
    name: e.metadata.name ?? '',
    reason: e['reason'] as string | undefined,
    message: e['message'] as string | undefined,
    type: e['type'] as string | undefined,
    source: ((e['source'] as { component?: string } | undefined)?.component ?? e['reportingComponent']) as string | undefined,
    involvedObject: (e['involvedObject'] ?? {}) as SnapshotEvent['involvedObject'],
  }));
  return {
    now: Date.now(),
    pods: store.list('pods', NAMESPACE) as unknown as Pod[],
    vpas: store.list('verticalpodautoscalers.autoscaling.k8s.io', NAMESPACE) as unknown as VerticalPodAutoscaler[],
    events,
    nodes: store.list('nodes') as unknown as NodeObject[],
  };
}

/** The meters of the running containers, for the simulator source. */
function meterReadings(sim: KubeSim): MeterReading[] {
  const out: MeterReading[] = [];
  for (const pod of sim.server.store.list('pods') as unknown as Pod[]) {
    for (const s of pod.status?.containerStatuses ?? []) {
      const m = sim.cluster.kubelet.meter(pod.metadata.uid ?? '', s.name);
      if (m)
        out.push({
          key: { namespace: pod.metadata.namespace ?? '', pod: pod.metadata.name ?? '', container: s.name },
          cpuSecondsTotal: m.cpuSecondsTotal,
          workingSetBytes: m.workingSetBytes,
          oomEventsTotal: m.oomEventsTotal,
        });
    }
  }
  return out;
}

/** Stops what was started, newest first; every step runs even when one fails. */
class Teardown {
  private readonly steps: Array<{ name: string; run: () => Promise<unknown> | unknown }> = [];
  add(name: string, run: () => Promise<unknown> | unknown): void {
    this.steps.push({ name, run });
  }
  async run(log: Logger): Promise<string[]> {
    const failed: string[] = [];
    for (const step of this.steps.reverse()) {
      try {
        await step.run();
      } catch (err) {
        log.error({ err, step: step.name }, 'stop step failed');
        failed.push(`${step.name}: ${(err as Error).message}`);
      }
    }
    this.steps.length = 0;
    return failed;
  }
}

/** The header's line about the closing audit. */
function auditLine(options: DemoOptions, possible: boolean, dir: string): string {
  if (!options.audit) return 'audit       off (--no-audit)';
  if (!possible) return 'audit       none: tailor audit reads Prometheus, which is not running';
  return `audit       at the end, tailor audit writes an HTML and a JSON report to ${dir} (kept)`;
}

/**
 * Runs the demo until stopped; throws (after stopping everything) when something fails to start.
 * A stop during start-up (Ctrl-C while Prometheus backfills) stops what had started and returns
 * after one line; once running, a stop ends with the table, the summary and the closing audit.
 */
export async function runDemo(options: DemoOptions, out: DemoOutput = process.stdout, hooks: DemoHooks = {}): Promise<void> {
  const say = (line: string) => out.write(`${line}\n`);
  const startedAt = Date.now();
  const auditDir = options.auditDir ?? join(tmpdir(), `tailor-demo-audit-${new Date(startedAt).toISOString().replace(/[-:]|\.\d+/g, '')}-${process.pid}`);
  // The audit's folder is made ready before anything starts: a bad --audit-dir fails at once,
  // not after the demo ran (docs/demo.md). Removed again if the audit never writes in it.
  const auditFolder = options.audit && options.prometheus && hooks.audit ? await prepareOutputDir(auditDir, '--audit-dir') : undefined;
  const stop = stopSignal(options.durationMs, (signal) => say(`tailor demo: ${signal}: already stopping; the demo ends by itself in a few seconds`));
  const teardown = new Teardown();
  teardown.add('remove the unused audit folder', () => removeIfCreatedAndEmpty(auditDir, auditFolder));
  const dir = await mkdtemp(join(tmpdir(), 'tailor-demo-'));
  // An exit that skips the teardown below (a crash, a closed output pipe) still leaves nothing.
  const forgetLeftovers = removeAtExit({ tree: dir, ...(auditFolder?.created ? { ifEmpty: auditDir } : {}) });
  teardown.add('remove temp dir', () => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
  const logFile = options.logFile ?? join(dir, 'tailor.log');
  const logStream: WriteStream = createWriteStream(logFile, { flags: 'a' });
  teardown.add('close log file', async () => {
    logStream.end();
    await once(logStream, 'close');
  });
  const logger = createLogger({ level: options.logLevel, destination: logStream });
  let controller: RunningController | undefined;
  let prometheusStarted = false;
  /** Start-up is over: the header is out and a stop ends with the audit. */
  let started = false;
  let ranToEnd = false;
  /** Throws the stop's reason once the demo is asked to stop (between start-up steps). */
  const checkStop = () => stop.signal.throwIfAborted();
  try {
    const scenario = await loadDemoScenario();
    checkStop();
    const version = options.serverVersion ?? scenario.cluster.serverVersion ?? DEFAULT_SERVER_VERSION;
    say(`tailor demo: starting kube-sim ${version} with ${scenario.cluster.workloads.length} workloads on ${scenario.cluster.nodes.length} nodes`);
    const sim = await startKubeSim({
      crdManifests: VPA_CRD_MANIFESTS,
      scenario: scenario.cluster,
      version,
      speed: 1,
      tickMs: 250,
      logger: logger.child({ component: 'kube-sim' }),
    });
    teardown.add('stop kube-sim', () => sim.close());
    checkStop();
    const kubeconfig = join(dir, 'kubeconfig');
    await sim.server.writeKubeconfig(kubeconfig);
    const baseline = snapshot(sim);

    const histories = containerHistories(baseline.pods, scenario.history, Date.now(), scenario.cluster.seed, (p) => p.metadata.labels?.['app']);
    const metricsPort = options.metricsPort === 0 ? await freePort() : options.metricsPort;
    const admissionPort = await freePort();
    let prometheusUrl: string | undefined;
    let prometheusLine: string;
    let recorder: LiveUsageRecorder | undefined;
    if (options.prometheus) {
      say(`tailor demo: backfilling ${scenario.history.days} days of history and starting Prometheus (installed with apt-get if missing)`);
      try {
        const pods = sim.server.store.list('pods') as unknown as Pod[];
        const targets = { sim: `127.0.0.1:${sim.server.port}`, tailor: `127.0.0.1:${metricsPort}`, intervalSeconds: 5 };
        const series = historySeries(
          cadvisorFamilies(pods, (uid, c) => sim.cluster.kubelet.meter(uid, c)),
          kubeStateFamilies(pods, sim.server.store.list('replicasets.apps') as unknown as Workload[]),
          histories,
          scrapeLabels(targets),
        );
        const prometheus = await startDemoPrometheus(dir, series, scenario.history.intervalMs, targets, stop.signal);
        teardown.add('stop Prometheus', () => prometheus.stop());
        prometheusUrl = prometheus.url;
        prometheusStarted = true;
        prometheusLine = `prometheus  ${prometheus.url} (pid ${prometheus.pid}): ${prometheus.samples} samples of history backfilled; scraping kube-sim and Tailor every 5s`;
      } catch (err) {
        // Stopped while starting it (Ctrl-C during the backfill): not a failure of Prometheus.
        if (stop.signal.aborted) throw err;
        logger.error({ err }, 'Prometheus could not be started');
        say(
          `tailor demo: Prometheus could not be started (${(err as Error).message.split('\n')[0]}); the recommender reads the usage straight from the simulator instead`,
        );
        prometheusLine = 'prometheus  not running: the recommender reads the simulator (history + live meters)';
      }
    } else {
      prometheusLine = 'prometheus  off (--no-prometheus): the recommender reads the simulator (history + live meters)';
    }
    if (prometheusUrl === undefined) recorder = new LiveUsageRecorder();
    // The closing audit, once the demo ran to its end: after Tailor stops (steps run newest first),
    // while Prometheus and kube-sim still answer. Its failure is said, not fatal.
    const audit = hooks.audit;
    if (options.audit && prometheusUrl !== undefined && audit) {
      const input = { prometheusUrl, kubeconfig, historyDays: scenario.history.days, dir: auditDir };
      teardown.add('the closing audit', async () => {
        if (!ranToEnd) return;
        say(`tailor demo: auditing the ${input.historyDays} days of history (tailor audit) into ${input.dir}`);
        try {
          await audit(input);
          say(`tailor demo: audit report ${join(input.dir, 'latest.html')} (and latest.json; kept)`);
        } catch (err) {
          logger.error({ err }, 'the closing audit failed');
          say(`tailor demo: the audit failed: ${(err as Error).message.split('\n')[0]}`);
        }
      });
    }

    const { config } = resolveRunConfig(
      {
        components: 'recommender,updater,admission',
        kubeconfig,
        // Without Prometheus the recommender gets the simulator source below and never reads this
        // URL (.invalid never resolves); the option is required whenever the recommender runs.
        prometheusUrl: prometheusUrl ?? 'http://no-prometheus.invalid',
        interval: DEMO_INTERVAL,
        history: `${scenario.history.days}d`,
        leaderElect: false,
        metricsAddress: '127.0.0.1',
        metricsPort: String(metricsPort),
        admissionAddress: '127.0.0.1',
        admissionPort: String(admissionPort),
        admissionWebhookUrl: `https://127.0.0.1:${admissionPort}`,
        inPlaceFeatureGate: version === '1.32',
        logLevel: options.logLevel,
      },
      {},
    );
    const source = recorder
      ? new SimMetricsSource({
          histories,
          recorder,
          intervalMs: scenario.history.intervalMs,
          pods: () => sim.server.store.list('pods') as unknown as Pod[],
          replicaSets: () => sim.server.store.list('replicasets.apps') as unknown as OwnedObject[],
        })
      : undefined;
    const factories = source
      ? { ...COMPONENT_FACTORIES, recommender: (ctx: Parameters<typeof createRecommenderComponent>[0]) => createRecommenderComponent(ctx, { source }) }
      : COMPONENT_FACTORIES;
    controller = await startRun(config, { env: {}, factories, logDestination: logStream });
    const running = controller;
    teardown.add('stop Tailor', () => running.stop());
    checkStop();
    started = true;

    const header = [
      `tailor demo: kube-sim ${version} + Tailor recommender, updater and admission webhook (loops every ${DEMO_INTERVAL})`,
      `kubeconfig  ${kubeconfig}   try: kubectl --kubeconfig ${kubeconfig} get pods,vpa`,
      `metrics     http://127.0.0.1:${running.http.port}/metrics`,
      prometheusLine,
      `logs        ${logFile}${options.logFile ? '' : ' (removed at exit; --log-file to keep)'}`,
      auditLine(options, prometheusUrl !== undefined && hooks.audit !== undefined, auditDir),
      ...Object.entries(scenario.stories).map(([w, story]) => `  ${w.padEnd(8)} ${story}`),
    ];
    if (!out.isTTY) for (const line of header) say(line);

    // The view: a snapshot a second, the log from the differences, the rollout and scale-up rules.
    const log: Activity[] = [];
    let previous = baseline;
    let lastRecord = 0;
    const restarted = new Set<string>();
    const refresh = () => {
      try {
        update();
      } catch (err) {
        logger.error({ err }, 'view refresh failed; retried in a second');
      }
    };
    const update = () => {
      const now = Date.now();
      if (recorder && now - lastRecord >= RECORD_EVERY_MS) {
        recorder.record(now, meterReadings(sim));
        lastRecord = now;
      }
      const current = snapshot(sim);
      const news = activitiesBetween(previous, current);
      previous = current;
      for (const name of deploymentsToRestart(scenario.rolloutRestart, restarted, current.vpas)) {
        restarted.add(name);
        const namespace = scenario.cluster.workloads.find((w) => w.name === name)?.namespace ?? 'default';
        sim.server.store.mutate('deployments.apps', namespace, name, (d) => {
          const template = (d as unknown as Workload).spec.template;
          template.metadata = {
            ...template.metadata,
            annotations: { ...template.metadata?.annotations, [RESTARTED_AT_ANNOTATION]: new Date(now).toISOString() },
          };
        });
        news.push({
          at: now,
          kind: 'rollout',
          subject: name,
          text: `deployment ${name} restarted (kubectl rollout restart) now that its VPA recommends: its new pod goes through the admission webhook`,
        });
      }
      log.push(...news);
      const add = nodeToAdd(current.pods, current.nodes, scenario.scaleUp);
      if (add) sim.server.store.create('nodes', nodeObject(add.node, current.nodes.length, version) as unknown as KubeObject);
      if (out.isTTY) {
        const clock = runningClock(now - runningSince, options.durationMs);
        out.write(
          ttyFrame(
            renderScreen({
              header: [`${header[0]}  (${clock})`, ...header.slice(1)],
              rows: podRows(current),
              log,
              startedAt,
              logLines: 14,
              ...(out.columns ? { width: out.columns } : {}),
            }),
            out.columns,
          ),
        );
      } else {
        for (const a of news) say(formatActivity(a, startedAt));
      }
    };
    if (out.isTTY) out.write(`${HIDE_CURSOR}\x1b[2J`);
    // The clock counts running time, as --duration does (its timer starts below).
    const runningSince = Date.now();
    refresh();
    const timer = setInterval(refresh, VIEW_REFRESH_MS);
    teardown.add('stop the view', () => {
      clearInterval(timer);
      if (out.isTTY) out.write(SHOW_CURSOR);
    });
    say(`tailor demo: running${options.durationMs ? ` for ${Math.round(options.durationMs / 1000)}s` : ''}; Ctrl-C to stop`);
    stop.startTimer();

    const why = await stop.stopped;
    clearInterval(timer);
    refresh();
    say('');
    say(`tailor demo: stopping (${why})`);
    say(renderTable(podRows(previous), out.isTTY ? out.columns : undefined));
    // On a terminal the long summary breaks at spaces, not mid-word.
    say(out.isTTY && out.columns ? wrapText(renderSummary(log), out.columns).join('\n') : renderSummary(log));
    ranToEnd = true;
  } catch (err) {
    // The handlers stay until everything is stopped: a second Ctrl-C must not kill the demo halfway.
    const failed = await teardown.run(logger);
    stop.cancel();
    forgetLeftovers();
    if (!started && stop.signal.reason instanceof DemoStopped) {
      const why = stop.signal.reason.why;
      if (failed.length > 0) throw new Error(`interrupted during start-up (${why}), and stopping failed: ${failed.join('; ')}`);
      say(`tailor demo: interrupted during start-up (${why}); stopped what had started`);
      return;
    }
    if (failed.length > 0) say(`tailor demo: also failed while stopping: ${failed.join('; ')}`);
    throw err;
  }
  const failed = await teardown.run(logger);
  stop.cancel();
  forgetLeftovers();
  if (failed.length > 0) throw new Error(`stopping failed: ${failed.join('; ')}`);
  say(`tailor demo: stopped; Tailor${prometheusStarted ? ', Prometheus' : ''} and kube-sim are down, ${dir} is removed`);
}
