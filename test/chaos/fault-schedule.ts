/**
 * The chaos lane's faults as a pure function of the seed and the run's length, so anyone can rerun
 * a seed and get the same faults at the same offsets (issue 31). Faults start after a quiet first
 * stretch (Tailor's first recommendations) and stop before a quiet last one (the recovery the run
 * measures: every VPA fresh within 2 minutes of the last fault), one every SPACING_MS on average,
 * jittered within its slot; the kinds come in seeded shuffled rounds, so each kind appears once
 * per round (a 40-minute run has 46 faults, a 45-minute one 53: three rounds and more of the 15 kinds; some are not made when what they hit is gone, e.g. a kill of the webhook while it is scaled to 0). Faults that last
 * (Prometheus down, the webhook's endpoints gone, API errors, a drained node) have a duration and
 * may overlap the faults after them, as outages do.
 */
import { chaosRandom } from './chaos-random.ts';

export const FAULT_KINDS = [
  'kill-updater-leader',
  'kill-updater-standby',
  'kill-recommender',
  'kill-admission',
  'stop-updater-leader',
  'rollout-tailor',
  'restart-apiserver',
  'restart-etcd',
  'restart-kubelet',
  'restart-containerd',
  'drain-node',
  'prometheus-down',
  'webhook-gone-ignore',
  'webhook-gone-fail',
  'api-errors',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The faults that last, and for how long (ms, drawn in [min, max]). */
const LASTING: Partial<Record<FaultKind, readonly [number, number]>> = {
  'prometheus-down': [120_000, 240_000],
  'webhook-gone-ignore': [60_000, 120_000],
  'webhook-gone-fail': [60_000, 120_000],
  'api-errors': [60_000, 180_000],
  'drain-node': [120_000, 180_000],
};

/** No fault in the first and last stretch of a run. */
export const QUIET_START_MS = 120_000;
export const QUIET_END_MS = 180_000;
/** One fault per slot of this length. */
export const SPACING_MS = 45_000;

/** One scheduled fault. */
export interface Fault {
  /** Offset from the run's start (ms). */
  readonly at: number;
  readonly kind: FaultKind;
  /** How long it lasts (ms); 0 for a fault that is one act (a kill, a restart). */
  readonly lasts: number;
  /** Which node (1-based) a node fault hits. */
  readonly node: number;
}

/** The faults of a run of `minutes` with `seed` on `nodes` nodes, in time order. */
export function faultSchedule(seed: number, minutes: number, nodes = 2): Fault[] {
  const random = chaosRandom(seed);
  const window = minutes * 60_000 - QUIET_START_MS - QUIET_END_MS;
  const slots = Math.max(0, Math.floor(window / SPACING_MS));
  const kinds: FaultKind[] = [];
  while (kinds.length < slots) {
    const round = [...FAULT_KINDS];
    for (let i = round.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [round[i], round[j]] = [round[j]!, round[i]!];
    }
    kinds.push(...round);
  }
  return kinds.slice(0, slots).map((kind, i) => {
    const at = Math.round(QUIET_START_MS + (i + random.between(0.1, 0.9)) * SPACING_MS);
    const range = LASTING[kind];
    // A lasting fault ends before the quiet end, whatever its draw.
    const lasts = range ? Math.min(Math.round(random.between(range[0], range[1])), minutes * 60_000 - QUIET_END_MS - at) : 0;
    return { at, kind, lasts: Math.max(0, lasts), node: random.int(1, nodes) };
  });
}
