/**
 * The simulated cluster around kube-sim's API server: nodes, the scheduler, the kubelet agent,
 * the workload controllers, the resize rules of the chosen server version and the metrics
 * endpoints (`/metrics/cadvisor`, `/metrics/kube-state`). Everything runs on a simulated clock:
 * `tick(dtMs)` advances it and runs one pass of every component; `start()` does that on a real
 * timer at `speed` x real time. Store changes (a new pod, a resize) trigger an extra pass without
 * advancing time, so the cluster reacts at once.
 */
import type { KubeSimApiServer } from './apiserver/index.ts';
import type { ClusterHost, StoredObject } from './cluster-host.ts';
import { EventRecorder } from './events/event-recorder.ts';
import { KubeletAgent } from './kubelet/kubelet-agent.ts';
import { runScheduler } from './scheduler/scheduler-loop.ts';
import { ControllerLoop } from './controllers/controller-loop.ts';
import { installResize } from './resize-subresource.ts';
import { SimClock } from './sim-clock.ts';
import { timeSlicer, yieldToEventLoop } from './time-slicer.ts';
import type { ServerVersion } from './server-version.ts';
import type { UsageTrace } from './usage/usage-trace.ts';
import { renderText, TEXT_CONTENT_TYPE } from './metrics/prometheus-text.ts';
import { cadvisorFamilies } from './metrics/cadvisor-metrics.ts';
import { kubeStateFamilies } from './metrics/kube-state-metrics.ts';
import type { Pod } from './objects.ts';
import type { Workload } from './controllers/workload-types.ts';
import type { Logger } from './logger.ts';

export interface SimClusterOptions {
  server: KubeSimApiServer;
  clock: SimClock;
  version: ServerVersion;
  seed?: number;
  /** How long an in-place resize takes to apply (simulated ms, default 2000). */
  actuationDelayMs?: number;
  traces?: ReadonlyMap<string, UsageTrace>;
  /** Loads a trace named by a pod annotation (relative paths against the sim's base directory). */
  loadTrace?: (path: string) => UsageTrace;
  logger: Logger;
  /** Run a pass (without advancing time) after every relevant store change (default true). */
  reactToChanges?: boolean;
}

/** Real ms a pass runs before it lets the event loop serve I/O. */
const SLICE_MS = 20;

const WATCHED = ['pods', 'nodes', 'deployments.apps', 'replicasets.apps', 'statefulsets.apps', 'daemonsets.apps', 'jobs.batch'];

export class SimCluster {
  readonly clock: SimClock;
  readonly kubelet: KubeletAgent;
  private readonly host: ClusterHost;
  private readonly events: EventRecorder;
  private readonly controllers: ControllerLoop;
  private readonly stoppers: Array<() => void> = [];
  private running: Promise<void> | undefined;
  private again = false;
  /** A reaction pass is queued (setImmediate) but not started: store changes until then need no other. */
  private pending = false;
  private timer: NodeJS.Timeout | undefined;
  private lastError: unknown;

  constructor(private readonly options: SimClusterOptions) {
    this.clock = options.clock;
    const server = options.server;
    this.host = {
      store: server.store as unknown as ClusterHost['store'],
      create: (obj: StoredObject) => server.create(obj as never) as Promise<StoredObject>,
      bind: async (namespace, name, node) => {
        await server.execute({
          verb: 'create',
          group: '',
          version: 'v1',
          resource: 'pods',
          namespace,
          name,
          subresource: 'binding',
          body: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace }, target: { apiVersion: 'v1', kind: 'Node', name: node } },
        });
      },
    };
    this.events = new EventRecorder(this.host.store, () => this.clock.now(), options.logger.child({ component: 'events' }));
    this.kubelet = new KubeletAgent({
      store: this.host.store,
      events: this.events,
      version: options.version,
      seed: options.seed ?? 1,
      simStart: this.clock.start,
      actuationDelayMs: options.actuationDelayMs ?? 2000,
      ...(options.traces ? { traces: options.traces } : {}),
      ...(options.loadTrace ? { loadTrace: options.loadTrace } : {}),
      logger: options.logger.child({ component: 'kubelet' }),
    });
    this.controllers = new ControllerLoop(this.host, this.events, options.logger.child({ component: 'controllers' }));
  }

  /** Installs the resize rules and metrics routes, and starts reacting to store changes. */
  install(): void {
    const server = this.options.server;
    this.stoppers.push(installResize(server, this.options.version));
    this.stoppers.push(
      server.addRoute('/metrics/cadvisor', (_req, res) => {
        const pods = server.store.list('pods') as unknown as Pod[];
        res.writeHead(200, { 'content-type': TEXT_CONTENT_TYPE });
        res.end(renderText(cadvisorFamilies(pods, (uid, c) => this.kubelet.meter(uid, c))));
      }),
    );
    this.stoppers.push(
      server.addRoute('/metrics/kube-state', (_req, res) => {
        const pods = server.store.list('pods') as unknown as Pod[];
        const replicaSets = server.store.list('replicasets.apps') as unknown as Workload[];
        res.writeHead(200, { 'content-type': TEXT_CONTENT_TYPE });
        res.end(renderText(kubeStateFamilies(pods, replicaSets)));
      }),
    );
    if (this.options.reactToChanges ?? true) {
      for (const resource of WATCHED) {
        this.stoppers.push(server.store.subscribe(resource, () => this.schedulePass()));
      }
    }
  }

  /** Advances simulated time by `dtMs` and runs one pass of every component. */
  async tick(dtMs: number): Promise<void> {
    this.clock.advance(dtMs);
    await this.pass(dtMs);
  }

  /** Runs passes until nothing is queued (a pass can queue another through store changes). */
  async settle(): Promise<void> {
    while (this.running || this.pending) {
      if (this.running) await this.running;
      else await yieldToEventLoop();
    }
  }

  /** Runs the cluster on a real timer: every `intervalMs`, simulated time advances by the real time passed x speed. */
  start(speed: number, intervalMs = 250): void {
    this.stop();
    // A tick that takes longer than the interval is not stacked up: the time it missed is added to
    // the next one, so simulated time keeps its pace while passes never queue without bound.
    // Simulated time follows the real time that passed (not the nominal interval), so a loaded
    // event loop that fires the timer late does not slow the simulation down.
    let owed = 0;
    let busy = false;
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      owed += (now - last) * speed;
      last = now;
      if (busy) return;
      busy = true;
      const dt = owed;
      owed = 0;
      this.tick(dt)
        .catch((err: unknown) => {
          this.lastError = err;
          this.options.logger.error({ err }, 'simulation tick failed');
        })
        .finally(() => {
          busy = false;
        });
    }, intervalMs);
    this.timer.unref?.();
  }

  /** Stops the timer (the API server is left running). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops everything this cluster added to the server. */
  async close(): Promise<void> {
    this.stop();
    for (const stop of this.stoppers.splice(0)) stop();
    await this.settle();
  }

  /** True while a pass runs or a reaction pass is queued (`settle()` resolves once it is false). */
  get reconciling(): boolean {
    return this.running !== undefined || this.pending;
  }

  /** The last error a timer-driven tick hit (for diagnostics). */
  get error(): unknown {
    return this.lastError;
  }

  private schedulePass(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    // One queued pass covers every change made before it starts (without this flag each of the
    // 23,000 writes of a 1,000-Deployment start-up queued its own full pass: decision 0145).
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      if (this.running) {
        this.again = true;
        return;
      }
      this.pass(0).catch((err: unknown) => {
        this.lastError = err;
        this.options.logger.error({ err }, 'simulation pass failed');
      });
    });
  }

  private async pass(dtMs: number): Promise<void> {
    while (this.running) await this.running;
    const run = (async () => {
      let dt = dtMs;
      // The API server keeps answering during a pass: the scheduler and controllers return to the
      // event loop every SLICE_MS, and each round of a pass that changed something starts on a new turn.
      const maybeYield = timeSlicer(SLICE_MS);
      for (;;) {
        this.again = false;
        const now = this.clock.now();
        await runScheduler(this.host, this.events, now, this.options.logger, maybeYield);
        this.kubelet.sync(now, dt);
        await this.controllers.sync(now, maybeYield);
        dt = 0;
        if (!this.again) break;
        await yieldToEventLoop();
      }
    })();
    this.running = run.finally(() => {
      if (this.running === tracked) this.running = undefined;
    });
    const tracked = this.running;
    await tracked;
  }
}
