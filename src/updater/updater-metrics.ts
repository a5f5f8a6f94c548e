/**
 * The updater's Prometheus metrics (prom-client), on the registry given (the process registry of
 * `tailor run`, or a fresh one in tests and the benchmark):
 * - `tailor_updater_decisions_total{action,reason}`: every decision of every loop;
 * - `tailor_updater_resizes_total{path,outcome}`: resizes sent, path `in-place` or `restart`;
 * - `tailor_updater_fallbacks_total{cause}`: evictions that replace a failed in-place resize
 *   (`FallbackInfeasible`, `FallbackDeferredTimeout`, ...), counted when decided;
 * - `tailor_updater_evictions_total{outcome}`: evictions asked for (`applied`, `blocked` by a PDB, ...);
 * - `tailor_updater_planned_actions{action,reason}`: the last loop's plan (also in dry-run mode);
 * - `tailor_updater_backoff_until_seconds`: when writes may resume after throttling (0: none).
 *
 * The resize, eviction and fallback series start at 0 for every known path, outcome and cause, so
 * `increase()` sees the first event too (a series born at 1 shows no increase in Prometheus).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ActionOutcome } from './action-outcome.ts';
import type { DecisionReason } from './decision.ts';

/** Outcomes an executed resize or eviction can have (dry runs and backoff skips are not executed). */
const EXECUTED_OUTCOMES = ['applied', 'gone', 'conflict', 'invalid', 'blocked', 'throttled', 'failed'] as const satisfies readonly ActionOutcome[];
const FALLBACK_CAUSES = ['FallbackInfeasible', 'FallbackDeferredTimeout', 'FallbackInProgressTimeout', 'FallbackError', 'FallbackInPlaceUnsupported'] as const satisfies readonly DecisionReason[];

export class UpdaterMetrics {
  readonly decisions: Counter<'action' | 'reason'>;
  readonly resizes: Counter<'path' | 'outcome'>;
  readonly fallbacks: Counter<'cause'>;
  readonly evictions: Counter<'outcome'>;
  readonly planned: Gauge<'action' | 'reason'>;
  readonly backoffUntil: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.decisions = new Counter({ name: 'tailor_updater_decisions_total', help: 'Updater decisions by action and reason.', labelNames: ['action', 'reason'], registers });
    this.resizes = new Counter({ name: 'tailor_updater_resizes_total', help: 'In-place resizes sent, by path (in-place, restart) and outcome.', labelNames: ['path', 'outcome'], registers });
    this.fallbacks = new Counter({ name: 'tailor_updater_fallbacks_total', help: 'Evictions decided as the fallback of an in-place resize, by cause.', labelNames: ['cause'], registers });
    this.evictions = new Counter({ name: 'tailor_updater_evictions_total', help: 'Evictions asked for, by outcome (applied, blocked by a PDB, ...).', labelNames: ['outcome'], registers });
    this.planned = new Gauge({ name: 'tailor_updater_planned_actions', help: "The last loop's plan: pods by action and reason.", labelNames: ['action', 'reason'], registers });
    this.backoffUntil = new Gauge({ name: 'tailor_updater_backoff_until_seconds', help: 'Unix time until which writes pause after the API server throttled (0: not paused).', registers });
    for (const outcome of EXECUTED_OUTCOMES) {
      this.evictions.inc({ outcome }, 0);
      if (outcome !== 'blocked') for (const path of ['in-place', 'restart']) this.resizes.inc({ path, outcome }, 0);
    }
    for (const cause of FALLBACK_CAUSES) this.fallbacks.inc({ cause }, 0);
  }
}
