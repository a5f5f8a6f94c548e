/** Small builders for replay tests: hand-made series and scripted strategies. */
import type { ResourceEstimate, Strategy, UsageModel } from '../../src/model/types.ts';
import type { ContainerSeries } from '../../src/replay/trace.ts';

/** A series at `intervalSeconds` from t=0 with the given CPU (cores) and memory (bytes, NaN = none). */
export function series(name: string, cpu: number[], memory: number[], intervalSeconds = 60): ContainerSeries {
  const n = cpu.length;
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = i * intervalSeconds;
  const mem = Float64Array.from(memory.length === n ? memory : cpu.map(() => NaN));
  return {
    name,
    length: n,
    times,
    cpu: Float32Array.from(cpu),
    memory: mem,
    hasMemory: mem.some((m) => !Number.isNaN(m)),
    intervalSeconds,
  };
}

/** An estimate with the same value for target and bounds unless bounds are given. */
export function estimate(cpu: number, memory: number, lower?: [number, number], upper?: [number, number]): ResourceEstimate {
  return {
    target: { cpu, memory },
    lowerBound: { cpu: lower?.[0] ?? cpu, memory: lower?.[1] ?? memory },
    upperBound: { cpu: upper?.[0] ?? cpu, memory: upper?.[1] ?? memory },
  };
}

/** What a scripted model saw, for assertions. */
export interface Journal {
  cpuSamples: Array<[number, number]>;
  memorySamples: Array<[number, number]>;
  ooms: Array<[number, number]>;
  estimateCalls: number[];
  /** For each estimate call, the latest sample time the model had seen (-1 if none). */
  latestSeenAtCall: number[];
}

/** A strategy whose estimate at time `now` comes from `script(now, journal)`. */
export function scripted(script: (now: number, journal: Journal) => ResourceEstimate | undefined): { strategy: Strategy; journal: Journal } {
  const journal: Journal = { cpuSamples: [], memorySamples: [], ooms: [], estimateCalls: [], latestSeenAtCall: [] };
  const model: UsageModel = {
    addCpuSample: (cores, at) => void journal.cpuSamples.push([cores, at]),
    addMemorySample: (bytes, at) => void journal.memorySamples.push([bytes, at]),
    recordOom: (bytes, at) => void journal.ooms.push([bytes, at]),
    estimate: (now) => {
      journal.estimateCalls.push(now);
      const last = journal.cpuSamples[journal.cpuSamples.length - 1];
      journal.latestSeenAtCall.push(last === undefined ? -1 : last[1]);
      return script(now, journal);
    },
  };
  return { strategy: { name: 'scripted', description: 'test', newModel: () => model }, journal };
}
