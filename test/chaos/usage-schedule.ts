/**
 * The chaos workloads' usage over a run as a pure function of the seed (issue 31: "usage changes on
 * a seeded schedule so that recommendations keep moving up and down, memory included"). Each
 * workload gets a new level every 2-5 minutes: cpu log-uniform in [4m, 48m] (18m on average, so
 * the 60 pods ask about one core of the lane's two; the first run's [10m, 250m] asked 4.5 cores and
 * sent the load average to 50); memory a random walk
 * (x0.7-x1.4 a step) within [16, 150] MiB, so limits are raised and lowered without a jump no
 * recommender could foresee; an `oomProne` workload also jumps, one step in three, to 1.5-2.5x its
 * walk (the OOM rescue's case). The runner writes each level into the ConfigMap the usage driver
 * reads (usage-driver.ts).
 */
import { childSeed } from '../../src/replay/workload/random.ts';
import { chaosRandom } from './chaos-random.ts';
import type { ChaosWorkload } from './workloads.ts';

/** One level of one workload from `at` (ms from the run's start) on. */
export interface UsageLevel {
  readonly at: number;
  readonly workload: string;
  readonly cpu: number;
  readonly memory: number;
}

export const CPU_RANGE = [4, 48] as const;
export const MEMORY_RANGE = [16, 150] as const;
const STEP_MS = [120_000, 300_000] as const;

/** Every level change of the run, in time order; each workload's first at 0. */
export function usageSchedule(seed: number, minutes: number, workloads: readonly ChaosWorkload[]): UsageLevel[] {
  const out: UsageLevel[] = [];
  workloads.forEach((w, index) => {
    const random = chaosRandom(childSeed(seed, index));
    let memory = random.between(24, 64);
    for (let at = 0; at < minutes * 60_000; at += Math.round(random.between(...STEP_MS))) {
      memory = Math.min(MEMORY_RANGE[1], Math.max(MEMORY_RANGE[0], memory * random.between(0.7, 1.4)));
      const jump = w.oomProne && random.chance(1 / 3) ? random.between(1.5, 2.5) : 1;
      out.push({ at, workload: w.name, cpu: Math.round(random.logBetween(...CPU_RANGE)), memory: Math.round(memory * jump) });
    }
  });
  return out.sort((a, b) => a.at - b.at || a.workload.localeCompare(b.workload));
}
