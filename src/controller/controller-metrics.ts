/**
 * Every metric `tailor run` exports, defined in one place on one prom-client registry:
 *
 * | metric | type | labels |
 * |---|---|---|
 * | `tailor_vpa_recommendation` | gauge | namespace, vpa, target_kind, target_name, container, resource, unit, bound (target, lowerBound, upperBound, uncappedTarget) |
 * | `tailor_container_requests` | gauge | namespace, pod, container, resource, unit (current requests of the pods Tailor tracks) |
 * | `tailor_loop_phase_duration_seconds` | histogram | loop, phase |
 * | `tailor_loop_cycles_total` | counter | loop, outcome (ok, error) |
 * | `tailor_loop_cycle_failures_total` | counter | loop |
 * | `tailor_loop_skipped_ticks_total` | counter | loop (a tick came while a cycle was still running) |
 * | `tailor_loop_last_success_timestamp_seconds` | gauge | loop |
 * | `tailor_tracked_vpas`, `tailor_tracked_containers` | gauge | component |
 * | `tailor_leader` | gauge | lease (1 while this replica holds it) |
 * | `tailor_prometheus_*`, `tailor_usage_*` | | query counts by kind and outcome, latency, bytes, data quality (src/metrics/source-metrics.ts) |
 * | `process_*`, `nodejs_*` | | prom-client's default metrics |
 *
 * CPU values are in cores (unit="core"), memory in bytes (unit="byte"), so 250m reads 0.25.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SourceMetrics } from '../metrics/source-metrics.ts';
import type { RecommendationSeries } from '../recommender/recommendation-series.ts';
import type { CycleOutcome, LoopObserver } from './loop-scheduler.ts';
import { systemClock, type Clock } from '../kube/clock.ts';

/** Current requests of one container of one pod (CPU millicores, memory bytes). */
export interface RequestSeries {
  namespace: string;
  pod: string;
  container: string;
  cpu?: number;
  memory?: number;
}

/** A fresh registry with prom-client's process and Node.js metrics. */
export function createRegistry(options: { defaultMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  return registry;
}

export class ControllerMetrics {
  readonly recommendation: Gauge<'namespace' | 'vpa' | 'target_kind' | 'target_name' | 'container' | 'resource' | 'unit' | 'bound'>;
  readonly requests: Gauge<'namespace' | 'pod' | 'container' | 'resource' | 'unit'>;
  readonly phaseDuration: Histogram<'loop' | 'phase'>;
  readonly cycles: Counter<'loop' | 'outcome'>;
  readonly cycleFailures: Counter<'loop'>;
  readonly skippedTicks: Counter<'loop'>;
  readonly lastSuccess: Gauge<'loop'>;
  readonly trackedVpas: Gauge<'component'>;
  readonly trackedContainers: Gauge<'component'>;
  readonly leader: Gauge<'lease'>;
  /** Prometheus traffic and data quality (the usage source's own metric set, on this registry). */
  readonly prometheus: SourceMetrics;

  constructor(
    readonly registry: Registry,
    private readonly clock: Clock = systemClock,
  ) {
    const registers = [registry];
    this.recommendation = new Gauge({
      name: 'tailor_vpa_recommendation',
      help: 'Recommendation of a VPA for a container: target, lower and upper bound, uncapped target (cores or bytes).',
      labelNames: ['namespace', 'vpa', 'target_kind', 'target_name', 'container', 'resource', 'unit', 'bound'],
      registers,
    });
    this.requests = new Gauge({
      name: 'tailor_container_requests',
      help: 'Current resource requests of the containers Tailor tracks (cores or bytes).',
      labelNames: ['namespace', 'pod', 'container', 'resource', 'unit'],
      registers,
    });
    this.phaseDuration = new Histogram({
      name: 'tailor_loop_phase_duration_seconds',
      help: 'Duration of the phases of a loop cycle (and of whole cycles, phase="cycle").',
      labelNames: ['loop', 'phase'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    });
    this.cycles = new Counter({ name: 'tailor_loop_cycles_total', help: 'Loop cycles by outcome (ok or error).', labelNames: ['loop', 'outcome'], registers });
    this.cycleFailures = new Counter({
      name: 'tailor_loop_cycle_failures_total',
      help: 'Loop cycles that failed (retried at the next tick).',
      labelNames: ['loop'],
      registers,
    });
    this.skippedTicks = new Counter({
      name: 'tailor_loop_skipped_ticks_total',
      help: 'Ticks skipped because the previous cycle was still running.',
      labelNames: ['loop'],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'tailor_loop_last_success_timestamp_seconds',
      help: 'End time of the last successful cycle (Unix seconds).',
      labelNames: ['loop'],
      registers,
    });
    this.trackedVpas = new Gauge({ name: 'tailor_tracked_vpas', help: 'VPA objects the component handles.', labelNames: ['component'], registers });
    this.trackedContainers = new Gauge({
      name: 'tailor_tracked_containers',
      help: 'Containers (VPA x container name) the component aggregates.',
      labelNames: ['component'],
      registers,
    });
    this.leader = new Gauge({ name: 'tailor_leader', help: '1 while this replica holds the Lease, else 0.', labelNames: ['lease'], registers });
    this.prometheus = new SourceMetrics(registry);
  }

  /**
   * Replaces every recommendation series with `all` (series of VPAs no longer present disappear).
   * Reset and set run in one synchronous step, so a scrape never sees a half-filled gauge.
   */
  replaceRecommendations(all: readonly RecommendationSeries[]): void {
    this.recommendation.reset();
    for (const r of all) {
      for (const [bound, values] of Object.entries(r.bounds)) {
        const base = { namespace: r.namespace, vpa: r.vpa, target_kind: r.targetKind, target_name: r.targetName, container: r.container, bound };
        if (values?.cpu !== undefined) this.recommendation.set({ ...base, resource: 'cpu', unit: 'core' }, values.cpu / 1000);
        if (values?.memory !== undefined) this.recommendation.set({ ...base, resource: 'memory', unit: 'byte' }, values.memory);
      }
    }
  }

  /** Replaces every current-request series with `all`. */
  replaceRequests(all: readonly RequestSeries[]): void {
    this.requests.reset();
    for (const r of all) {
      const base = { namespace: r.namespace, pod: r.pod, container: r.container };
      if (r.cpu !== undefined) this.requests.set({ ...base, resource: 'cpu', unit: 'core' }, r.cpu / 1000);
      if (r.memory !== undefined) this.requests.set({ ...base, resource: 'memory', unit: 'byte' }, r.memory);
    }
  }

  /** Runs `fn` and records its duration as phase `phase` of loop `loop`, whether it succeeds or throws. */
  async timePhase<T>(loop: string, phase: string, fn: () => Promise<T>): Promise<T> {
    const start = this.clock();
    try {
      return await fn();
    } finally {
      this.phaseDuration.observe({ loop, phase }, (this.clock() - start) / 1000);
    }
  }

  /** Feeds cycle counts, failures, skipped ticks and whole-cycle durations from a loop scheduler. */
  loopObserver(): LoopObserver {
    return {
      cycleEnded: (loop: string, o: CycleOutcome) => {
        this.cycles.inc({ loop, outcome: o.ok ? 'ok' : 'error' });
        this.phaseDuration.observe({ loop, phase: 'cycle' }, o.durationMs / 1000);
        if (o.ok) this.lastSuccess.set({ loop }, (o.startedAt + o.durationMs) / 1000);
        else this.cycleFailures.inc({ loop });
      },
      tickSkipped: (loop: string) => this.skippedTicks.inc({ loop }),
    };
  }
}
