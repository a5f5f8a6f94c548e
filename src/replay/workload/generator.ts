/**
 * The workload generator: a trace of containers drawn from named archetypes, deterministic by
 * seed (the same seed gives the same trace, byte for byte). The fixed evaluation suite is one call.
 */
import type { ContainerSeries, Trace } from '../trace.ts';
import { ARCHETYPE_NAMES, ARCHETYPES, type ArchetypeName } from './archetypes.ts';
import { childSeed, Random } from './random.ts';

/** What to generate. */
export interface WorkloadSpec {
  seed: number;
  /** Containers per archetype. */
  perArchetype: number;
  /** Archetypes to use (default: all nine). */
  archetypes?: readonly ArchetypeName[];
  days: number;
  intervalSeconds: number;
  /** First sample time, Unix seconds (default 2023-11-14 00:00 UTC). */
  startSeconds?: number;
}

/** The evaluation suite: 9 archetypes x 24 containers = 216 containers, 10 days, 1-min samples. */
export const EVALUATION_SUITE: Readonly<WorkloadSpec> = Object.freeze({
  seed: 20_240_505,
  perArchetype: 24,
  days: 10,
  intervalSeconds: 60,
});

const DEFAULT_START = 1_699_920_000;

/** Generates the trace; containers are named `<archetype>-<nn>`. */
export function generateWorkload(spec: WorkloadSpec): Trace {
  const archetypes = spec.archetypes ?? ARCHETYPE_NAMES;
  const samples = Math.round((spec.days * 86_400) / spec.intervalSeconds);
  const startSeconds = spec.startSeconds ?? DEFAULT_START;
  const containers: ContainerSeries[] = [];
  let index = 0;
  for (const name of archetypes) {
    for (let k = 0; k < spec.perArchetype; k++, index++) {
      const rng = new Random(childSeed(spec.seed, index));
      const series = ARCHETYPES[name](rng, { samples, intervalSeconds: spec.intervalSeconds, startSeconds });
      const times = new Float64Array(samples);
      for (let i = 0; i < samples; i++) times[i] = startSeconds + i * spec.intervalSeconds;
      containers.push({
        name: `${name}-${String(k + 1).padStart(2, '0')}`,
        length: samples,
        times,
        cpu: series.cpu,
        memory: series.memory,
        hasMemory: true,
        intervalSeconds: spec.intervalSeconds,
      });
    }
  }
  return { containers };
}
