/**
 * The usage a pattern gives at a moment of simulated time. CPU in millicores, memory in bytes.
 * Worked example: `diurnal(100m, 500m)` (period 24h, peak 14h) is 500 at 14:00, 100 at 02:00 and
 * 300 at 08:00 and 20:00 (halfway, cos = 0).
 */
import type { UsagePattern, UsageResource } from './usage-pattern.ts';
import { traceRowAt, type UsageTrace } from './usage-trace.ts';
import { unitRandom } from './deterministic-random.ts';

export interface UsageMoment {
  /** Simulated now (ms since epoch). */
  now: number;
  /** When the simulation started (ms). */
  simStart: number;
  /** When the container last (re)started (ms). */
  containerStart: number;
  /** Seed of the run and a stable key for this series (e.g. `ns/pod/container/cpu`). */
  seed: number;
  key: string;
  /** The container's name, to pick its rows from a trace. */
  container: string;
  resource: UsageResource;
  /** Loaded traces by path. */
  traces?: ReadonlyMap<string, UsageTrace>;
}

const MINUTE = 60_000;

/** Evaluates the pattern; never negative. */
export function usageAt(pattern: UsagePattern, m: UsageMoment): number {
  const value = baseValue(pattern, m);
  const noise = pattern.kind === 'trace' ? 0 : pattern.noise;
  if (noise === 0) return Math.max(0, value);
  const u = unitRandom(m.seed, `${m.key}~noise`, Math.floor(m.now / MINUTE));
  return Math.max(0, value * (1 + noise * (2 * u - 1)));
}

function baseValue(p: UsagePattern, m: UsageMoment): number {
  switch (p.kind) {
    case 'steady':
      return p.value;
    case 'diurnal': {
      const offset = ((m.now % p.periodMs) + p.periodMs) % p.periodMs;
      return p.low + ((p.high - p.low) * (1 + Math.cos((2 * Math.PI * (offset - p.peakMs)) / p.periodMs))) / 2;
    }
    case 'spiky':
      return unitRandom(m.seed, m.key, Math.floor(m.now / p.slotMs)) < p.probability ? p.peak : p.base;
    case 'leak': {
      const grown = p.start + p.perMs * Math.max(0, m.now - m.containerStart);
      return p.max === undefined ? grown : Math.min(p.max, grown);
    }
    case 'sawtooth': {
      const elapsed = Math.max(0, m.now - m.simStart) % p.periodMs;
      return p.low + ((p.high - p.low) * elapsed) / p.periodMs;
    }
    case 'startup':
      return m.now - m.containerStart < p.durationMs ? p.peak : p.steady;
    case 'step':
      return m.now - m.simStart < p.atMs ? p.before : p.after;
    case 'trace': {
      const trace = m.traces?.get(p.path);
      const row = trace ? traceRowAt(trace, m.container, m.now - m.simStart) : undefined;
      if (!row) return 0;
      return m.resource === 'cpu' ? row.cpuMillicores : row.memoryBytes;
    }
  }
}
