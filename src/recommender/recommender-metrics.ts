/**
 * The recommender's own Prometheus metrics (prom-client), on the registry given:
 * - `tailor_recommender_writes_total{object,outcome}`: writes by object (`status`, `checkpoint`,
 *   `checkpoint_delete`, `event`) and final outcome (`ok`, or the error kind of src/kube/errors.ts after
 *   the retries: `throttled`, `unavailable`, `conflict`, `notFound`, `invalid`, `forbidden`, ...;
 *   `deferred` when skipped because the API server asked us to back off);
 * - `tailor_recommender_write_retries_total{object,reason}`: retries, by the error kind retried;
 * - `tailor_recommender_backoff_until_seconds`: until when writes pause after throttling (0 or in the past: none);
 * - `tailor_recommender_history_pods_attributed_total`: pods already gone at bootstrap whose
 *   history was attributed to a VPA through kube-state owner series;
 * - `tailor_recommender_history_backfills_total{outcome}`: VPAs created while the recommender runs
 *   whose workload history was read from Prometheus (`ok`), or whose read failed (`failed`, retried);
 * - `tailor_recommender_history_backfill_pending`: such VPAs still waiting for their history.
 * - `tailor_recommender_history_chunks{state}`: the history read's progress, chunks `done` of `total`
 *   (the bootstrap's, then each cycle's);
 * - `tailor_recommender_model_bytes`: the memory the models hold, estimated (histories x measured
 *   bytes per history, docs/scale.md); `tailor_recommender_histories`: the VPA x container histories;
 * - `tailor_recommender_memory_budget_bytes`: `--memory-budget` in use (0: none). The process's RSS
 *   is prom-client's `process_resident_memory_bytes`.
 *
 * The write and retry series start at 0 for every object and the usual outcomes and retry reasons,
 * so `increase()` in Prometheus sees the first event too (a series born at 1 shows no increase).
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** What a write is about. */
export type WriteObject = 'status' | 'checkpoint' | 'checkpoint_delete' | 'event';

const WRITE_OBJECTS: readonly WriteObject[] = ['status', 'checkpoint', 'checkpoint_delete', 'event'];
/** Final outcomes shown from the start: success, a pause, and the errors a cluster usually gives. */
const WRITE_OUTCOMES = ['ok', 'deferred', 'throttled', 'unavailable', 'conflict', 'invalid', 'forbidden', 'notFound'] as const;
/** The error kinds the writer retries (recommender-writes.ts: conflicts, gone, and back-off kinds). */
const RETRY_REASONS = ['conflict', 'gone', 'throttled', 'unavailable', 'network'] as const;

export class RecommenderMetrics {
  readonly writes: Counter<'object' | 'outcome'>;
  readonly retries: Counter<'object' | 'reason'>;
  readonly backoffUntil: Gauge;
  readonly attributedPods: Counter;
  readonly backfills: Counter<'outcome'>;
  readonly backfillPending: Gauge;
  readonly historyChunks: Gauge<'state'>;
  readonly modelBytes: Gauge;
  readonly histories: Gauge;
  readonly memoryBudget: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.writes = new Counter({
      name: 'tailor_recommender_writes_total',
      help: 'Recommender writes (VPA status, checkpoints, orphan deletions) by final outcome.',
      labelNames: ['object', 'outcome'],
      registers,
    });
    this.retries = new Counter({
      name: 'tailor_recommender_write_retries_total',
      help: 'Recommender write retries, by the error kind retried.',
      labelNames: ['object', 'reason'],
      registers,
    });
    this.backoffUntil = new Gauge({
      name: 'tailor_recommender_backoff_until_seconds',
      help: 'Unix time until which recommender writes pause after the API server throttled (0 or in the past: not paused).',
      registers,
    });
    for (const object of WRITE_OBJECTS) {
      for (const outcome of WRITE_OUTCOMES) this.writes.inc({ object, outcome }, 0);
      for (const reason of RETRY_REASONS) this.retries.inc({ object, reason }, 0);
    }
    this.attributedPods = new Counter({
      name: 'tailor_recommender_history_pods_attributed_total',
      help: 'Pods gone before the bootstrap whose history was attributed to a VPA through owner series.',
      registers,
    });
    this.backfills = new Counter({
      name: 'tailor_recommender_history_backfills_total',
      help: 'VPAs created while the recommender runs whose workload history was read from Prometheus, by outcome (ok, failed: retried next cycle).',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['ok', 'failed']) this.backfills.inc({ outcome }, 0);
    this.historyChunks = new Gauge({
      name: 'tailor_recommender_history_chunks',
      help: 'Progress of the history read: chunks (one time range of one namespace batch) done and total, of the bootstrap and then of each cycle.',
      labelNames: ['state'],
      registers,
    });
    for (const state of ['done', 'total']) this.historyChunks.set({ state }, 0);
    this.modelBytes = new Gauge({
      name: 'tailor_recommender_model_bytes',
      help: 'Memory held by the usage models, estimated: histories times the measured bytes per history of the strategy (docs/scale.md).',
      registers,
    });
    this.histories = new Gauge({ name: 'tailor_recommender_histories', help: 'VPA x container usage histories held.', registers });
    this.memoryBudget = new Gauge({
      name: 'tailor_recommender_memory_budget_bytes',
      help: 'The memory budget the history reads are sized by (--memory-budget or the container limit); 0 when there is none.',
      registers,
    });
    this.backfillPending = new Gauge({
      name: 'tailor_recommender_history_backfill_pending',
      help: 'VPAs created while the recommender runs still waiting for their workload history.',
      registers,
    });
  }
}
