/**
 * Options of the recommender component: which VPAs it handles (upstream `spec.recommenders`) and
 * how much usage history it reads. The Prometheus connection is in prometheus-options.ts.
 */
import type { ConfigOf, OptionTable } from '../config/option-spec.ts';
import { booleanType, durationType, enumType, integerType, stringType, type OptionType } from '../config/option-types.ts';
import { formatMemory, parseMemory } from 'kube-basics/quantity';
import { memoryBudgetType } from '../metrics/memory-budget.ts';
import { FEED_DEFAULTS } from '../metrics/usage-feed.ts';
import { BUILTIN_STRATEGY_NAMES, DEFAULT_STRATEGY } from '../model/default-strategy.ts';
import { CHECKPOINT_DEFAULTS } from './checkpoint-schedule.ts';

const TiB = 2 ** 40;

/** A memory rounding factor: a quantity (`1Mi`) or whole bytes (`1048576`, upstream's spelling), 1 byte to 1Ti. */
const roundingBytesType: OptionType<number> = {
  name: 'memory quantity (bytes), 1 to 1Ti',
  placeholder: '<quantity>',
  parse: (t) => {
    const bytes = parseMemory(t.trim());
    if (bytes < 1 || bytes > TiB) throw new Error('out of range 1 byte to 1Ti');
    return bytes;
  },
  format: formatMemory,
};

export const RECOMMENDER_OPTIONS = {
  recommenderName: {
    flag: 'recommender-name',
    env: 'TAILOR_RECOMMENDER_NAME',
    type: stringType,
    description:
      'Handle only the VPAs whose spec.recommenders names this recommender. Without it, Tailor acts as the default recommender: VPAs that name none or name "default".',
    group: 'Recommender',
  },
  alsoUnnamedVpas: {
    flag: 'also-unnamed-vpas',
    env: 'TAILOR_ALSO_UNNAMED_VPAS',
    type: booleanType,
    default: false,
    description: 'With --recommender-name: also handle the VPAs that name no recommender.',
    group: 'Recommender',
  },
  recommenderStrategy: {
    flag: 'recommender-strategy',
    env: 'TAILOR_RECOMMENDER_STRATEGY',
    type: enumType(BUILTIN_STRATEGY_NAMES),
    default: DEFAULT_STRATEGY,
    description:
      "The algorithm behind the VPA status: vpa (upstream's), tailor (docs/tailor-strategy.md; best with Tailor's updater, decision 0151) or tailor-low-churn (tailor within 2x vpa's changes, decision 0276). Checkpoints stay in upstream's format either way; with tailor or tailor-low-churn each model's state rides in an annotation of its checkpoint, so a restart reads only the history since (decision 0261).",
    group: 'Recommender',
  },
  roundCpuMillicores: {
    flag: 'round-cpu-millicores',
    env: 'TAILOR_ROUND_CPU_MILLICORES',
    type: integerType(1, 1_000_000),
    default: 1,
    description:
      "As upstream's recommender flag of the same name: every CPU figure of the VPA status (target, bounds, uncappedTarget) is rounded up to a multiple of this many millicores, before minAllowed/maxAllowed cap it. 1: whole millicores, as computed (upstream's default).",
    group: 'Recommender',
  },
  roundMemoryBytes: {
    flag: 'round-memory-bytes',
    env: 'TAILOR_ROUND_MEMORY_BYTES',
    type: roundingBytesType,
    default: 2 ** 20,
    description:
      "As upstream's recommender flag of the same name: every memory figure of the VPA status is rounded up to a multiple of this (a quantity such as 1Mi, or bytes), before minAllowed/maxAllowed cap it, so `kubectl get vpa` reads 225Mi, not 235358127. 1 writes the bytes as computed, as upstream does by default; the updater and the webhook round requests up to whole MiB either way (decision 0285).",
    group: 'Recommender',
  },
  history: {
    flag: 'history',
    env: 'TAILOR_HISTORY',
    type: durationType,
    default: FEED_DEFAULTS.historyMs,
    description: 'Usage history read from Prometheus for a container seen for the first time (without a checkpoint).',
    group: 'Recommender',
  },
  historyStep: {
    flag: 'history-step',
    env: 'TAILOR_HISTORY_STEP',
    type: durationType,
    default: FEED_DEFAULTS.stepMs,
    description: 'Resolution of the usage samples read from Prometheus.',
    group: 'Recommender',
  },
  scrapeInterval: {
    flag: 'scrape-interval',
    env: 'TAILOR_SCRAPE_INTERVAL',
    type: durationType,
    description:
      'How often Prometheus scrapes the CPU counter: the CPU rate window is 4 of these, at least --history-step (decision 0175). Default: read once from the data; set it when the data cannot tell (the recommender warns "could not tell the scrape interval"), as `tailor recommend --scrape-interval` does.',
    group: 'Recommender',
  },
  historyBackfillVpas: {
    flag: 'history-backfill-vpas',
    env: 'TAILOR_HISTORY_BACKFILL_VPAS',
    type: integerType(1, 100_000),
    default: 50,
    description:
      "VPAs created while the recommender runs get their workload's --history from Prometheus at once; at most this many per cycle (one set of queries per namespace for all of them), the rest in the next cycles (decision 0162).",
    group: 'Recommender',
  },
  maxPointsPerQuery: {
    flag: 'max-points-per-query',
    env: 'TAILOR_MAX_POINTS_PER_QUERY',
    type: integerType(11_000, 10_000_000),
    default: FEED_DEFAULTS.maxPointsPerQuery,
    description: 'Points (series x steps) per Prometheus answer at most; longer ranges are split.',
    group: 'Recommender',
  },
  memoryBudget: {
    flag: 'memory-budget',
    env: 'TAILOR_MEMORY_BUDGET',
    type: memoryBudgetType,
    description:
      "Memory the recommender may use, e.g. 512Mi: each read of the history is sized from what is left of it (budget minus the resident set and the model still to come; 40% of that, at most a quarter of the budget, for the answers in flight; decisions 0225, 0227). Default: the container's own memory limit (its cgroup), when it has one; else only --max-points-per-query bounds the answers.",
    group: 'Recommender',
  },
  checkpointInterval: {
    flag: 'checkpoint-interval',
    env: 'TAILOR_CHECKPOINT_INTERVAL',
    type: durationType,
    default: CHECKPOINT_DEFAULTS.intervalMs,
    description:
      'How often each VPA x container checkpoint is written (also once on a graceful shutdown while leader). A restart re-reads Prometheus from the checkpoint on, so a longer interval costs re-read history, not lost history (decision 0137).',
    group: 'Recommender',
  },
  checkpointGcInterval: {
    flag: 'checkpoint-gc-interval',
    env: 'TAILOR_CHECKPOINT_GC_INTERVAL',
    type: durationType,
    default: CHECKPOINT_DEFAULTS.gcIntervalMs,
    description: 'How often checkpoints whose VPA no longer exists are listed and deleted (first time: the first cycle as leader).',
    group: 'Recommender',
  },
} satisfies OptionTable;

/** The recommender's rows of the run configuration, resolved. */
export type RecommenderConfig = ConfigOf<typeof RECOMMENDER_OPTIONS>;
