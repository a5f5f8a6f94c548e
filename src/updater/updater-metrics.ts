/**
 * The updater's Prometheus metrics (prom-client), on the registry given (the process registry of
 * `tailor run`, or a fresh one in tests and the benchmark):
 * - `tailor_updater_decisions_total{action,reason}`: every decision of every loop;
 * - `tailor_updater_resizes_total{path,outcome}`: resizes sent, path `in-place` or `restart`;
 * - `tailor_updater_fallbacks_total{cause}`: evictions that replace a failed in-place resize
 *   (`FallbackInfeasible`, `FallbackDeferredTimeout`, ...), counted when decided;
 * - `tailor_updater_evictions_total{outcome}`: evictions asked for (`applied`, `blocked` by a PDB, ...);
 * - `tailor_updater_planned_actions{action,reason}`: the last loop's plan (also in dry-run mode); a
 *   pod whose in-place part goes ahead while its restart waits counts under its action and under
 *   `Wait` with the reason it waits (`DisruptionWindow`);
 * - `tailor_updater_backoff_until_seconds`: when writes may resume after throttling (0: none);
 * - `tailor_updater_usage_reads_total{outcome}`: reads of recent memory usage from Prometheus
 *   (`ok`, `failed`, `disabled` without --prometheus-url), one per loop;
 * - `tailor_updater_usage_available`: 1 when the last loop had usage, else 0 (no memory limit is
 *   lowered and the memory pressure guard is off);
 * - `tailor_updater_recommendation_to_applied_seconds{path,since}`: from the recommendation to the
 *   resize seen completed (resize-latency.ts);
 * - `tailor_updater_hpa_excluded_resources{resource}`: VPAs whose resource (cpu, memory) the updater
 *   leaves to an HPA in the last loop (the VPAs carry the HpaConflict condition), 0 at start;
 * - the early memory warnings' gauges and counter (memory-warning-metrics.ts).
 * - `tailor_updater_workload_conditions{condition}`: VPAs whose per-workload condition holds after
 *   the last loop (`AnnotationsInvalid`, `WaitingForDisruptionWindow`; workload-conditions.ts).
 * - `tailor_updater_admission_status_fresh`: 1 when the last loop found the admission webhook's
 *   status Lease fresh (evictions may go ahead), else 0 (evictions wait); not set while unchecked.
 *
 * The resize, eviction, fallback and latency series start at 0 for every known path, outcome and cause, so
 * `increase()` sees the first event too (a series born at 1 shows no increase in Prometheus).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ActionOutcome } from './action-outcome.ts';
import type { DecisionReason } from './decision.ts';
import { MemoryWarningMetrics } from './memory-warning-metrics.ts';
import { WORKLOAD_CONDITION_TYPES } from './workload-conditions.ts';

/** Buckets of the recommendation-to-applied histogram (s): seconds for urgent resizes up to a day for drift. */
export const APPLIED_LATENCY_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 12 * 3600, 24 * 3600, 7 * 24 * 3600];

/** Outcomes an executed resize or eviction can have (dry runs and backoff skips are not executed). */
const EXECUTED_OUTCOMES = [
  'applied',
  'gone',
  'conflict',
  'invalid',
  'infeasible',
  'blocked',
  'throttled',
  'failed',
] as const satisfies readonly ActionOutcome[];
const FALLBACK_CAUSES = [
  'FallbackInfeasible',
  'FallbackDeferredTimeout',
  'FallbackInProgressTimeout',
  'FallbackError',
  'FallbackInPlaceUnsupported',
  'FallbackNotRunning',
] as const satisfies readonly DecisionReason[];

export class UpdaterMetrics {
  readonly decisions: Counter<'action' | 'reason'>;
  readonly resizes: Counter<'path' | 'outcome'>;
  readonly fallbacks: Counter<'cause'>;
  readonly evictions: Counter<'outcome'>;
  readonly planned: Gauge<'action' | 'reason'>;
  readonly backoffUntil: Gauge;
  readonly usageReads: Counter<'outcome'>;
  readonly usageAvailable: Gauge;
  readonly appliedLatency: Histogram<'path' | 'since'>;
  readonly memoryWarnings: MemoryWarningMetrics;
  readonly hpaExcluded: Gauge<'resource'>;
  readonly workloadConditions: Gauge<'condition'>;
  readonly admissionStatusFresh: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.decisions = new Counter({
      name: 'tailor_updater_decisions_total',
      help: 'Updater decisions by action and reason.',
      labelNames: ['action', 'reason'],
      registers,
    });
    this.resizes = new Counter({
      name: 'tailor_updater_resizes_total',
      help: 'In-place resizes sent, by path (in-place, restart) and outcome.',
      labelNames: ['path', 'outcome'],
      registers,
    });
    this.fallbacks = new Counter({
      name: 'tailor_updater_fallbacks_total',
      help: 'Evictions decided as the fallback of an in-place resize, by cause.',
      labelNames: ['cause'],
      registers,
    });
    this.evictions = new Counter({
      name: 'tailor_updater_evictions_total',
      help: 'Evictions asked for, by outcome (applied, blocked by a PDB, ...).',
      labelNames: ['outcome'],
      registers,
    });
    this.planned = new Gauge({
      name: 'tailor_updater_planned_actions',
      help: "The last loop's plan: pods by action and reason.",
      labelNames: ['action', 'reason'],
      registers,
    });
    this.backoffUntil = new Gauge({
      name: 'tailor_updater_backoff_until_seconds',
      help: 'Unix time until which writes pause after the API server throttled (0: not paused).',
      registers,
    });
    this.usageReads = new Counter({
      name: 'tailor_updater_usage_reads_total',
      help: 'Reads of recent memory usage from Prometheus, by outcome (ok, failed, disabled).',
      labelNames: ['outcome'],
      registers,
    });
    this.usageAvailable = new Gauge({
      name: 'tailor_updater_usage_available',
      help: '1 when the last loop had memory usage from Prometheus; 0: no memory limit is lowered and the pressure guard is off.',
      registers,
    });
    this.appliedLatency = new Histogram({
      name: 'tailor_updater_recommendation_to_applied_seconds',
      help: 'Seconds from the recommendation (since=recommendation: the VPA status write; since=first-seen: the updater first saw the difference) to the in-place resize seen completed, by path.',
      labelNames: ['path', 'since'],
      buckets: APPLIED_LATENCY_BUCKETS,
      registers,
    });
    this.memoryWarnings = new MemoryWarningMetrics(registry);
    this.hpaExcluded = new Gauge({
      name: 'tailor_updater_hpa_excluded_resources',
      help: 'VPAs whose resource (cpu, memory) the updater leaves to an HPA scaling the workload on it, last loop.',
      labelNames: ['resource'],
      registers,
    });
    for (const resource of ['cpu', 'memory']) this.hpaExcluded.set({ resource }, 0);
    this.workloadConditions = new Gauge({
      name: 'tailor_updater_workload_conditions',
      help: 'VPAs whose per-workload condition (AnnotationsInvalid, WaitingForDisruptionWindow) holds after the last loop.',
      labelNames: ['condition'],
      registers,
    });
    this.admissionStatusFresh = new Gauge({
      name: 'tailor_updater_admission_status_fresh',
      help: 'Whether the last loop found the admission webhook status Lease fresh (1: evictions may go ahead) or not (0: they wait).',
      registers,
    });
    for (const condition of WORKLOAD_CONDITION_TYPES) this.workloadConditions.set({ condition }, 0);
    for (const outcome of EXECUTED_OUTCOMES) {
      if (outcome !== 'infeasible') this.evictions.inc({ outcome }, 0);
      if (outcome !== 'blocked') for (const path of ['in-place', 'restart']) this.resizes.inc({ path, outcome }, 0);
    }
    for (const cause of FALLBACK_CAUSES) this.fallbacks.inc({ cause }, 0);
    for (const path of ['in-place', 'restart']) for (const since of ['recommendation', 'first-seen']) this.appliedLatency.zero({ path, since });
  }
}
