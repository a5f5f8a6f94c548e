/**
 * Proof that a change to the `tailor` model's storage left its outputs alone: replays a generated
 * suite under `tailor` and prints (1) every container's quality tally and (2) a digest of EVERY
 * estimate the model returned (each number's exact float64 bits), as JSON. Run it before and after
 * a change and compare the outputs byte for byte (decision 0160).
 *   node --import tsx bench/tailor-identity.ts [perArchetype=2] [days=10] > before.json
 */
import { createHash } from 'node:crypto';
import { generateWorkload, EVALUATION_SUITE } from '../src/replay/workload/generator.ts';
import { replayTrace } from '../src/replay/replay-engine.ts';
import type { ResourceEstimate, Strategy, UsageModel } from '../src/model/types.ts';
import { tailorVariantStrategy, type TailorVariant } from './bench-args.ts';

const perArchetype = Number(process.argv[2] ?? 2);
const days = Number(process.argv[3] ?? EVALUATION_SUITE.days);
const trace = generateWorkload({ ...EVALUATION_SUITE, perArchetype, days });
let hash = createHash('sha256');
const bits = new Float64Array(6);
let estimates = 0;

/** Feeds every estimate's six figures (exact bits) into the digest. */
function record(e: ResourceEstimate | undefined): void {
  estimates++;
  if (e === undefined) {
    hash.update('u');
    return;
  }
  bits[0] = e.target.cpu;
  bits[1] = e.target.memory;
  bits[2] = e.lowerBound.cpu;
  bits[3] = e.lowerBound.memory;
  bits[4] = e.upperBound.cpu;
  bits[5] = e.upperBound.memory;
  hash.update(new Uint8Array(bits.buffer));
}

/** The defaults, the other branches of the memory rules (hourly checks, OOMs into the history), raw hourly CPU quantiles. */
const VARIANTS: TailorVariant[] = [{}, { memoryCheckPastGuard: false, oomIntoHistory: true }, { cpuReachFloor: false, memorySeasonal: false }];
const results = [];
for (const overrides of VARIANTS) {
  hash = createHash('sha256');
  estimates = 0;
  const inner = tailorVariantStrategy(overrides);
  const recording: Strategy = {
    ...inner,
    newModel: (): UsageModel => {
      const model = inner.newModel();
      return {
        addCpuSample: (cores, at) => model.addCpuSample(cores, at),
        addMemorySample: (bytes, at) => model.addMemorySample(bytes, at),
        recordOom: (used, at) => model.recordOom(used, at),
        estimate: (now) => {
          const e = model.estimate(now);
          record(e);
          return e;
        },
      };
    },
  };
  const run = replayTrace(trace, recording);
  results.push({ overrides, estimates, estimateDigest: hash.digest('hex'), tallies: run.containers });
}
console.log(JSON.stringify({ perArchetype, days, results }, null, 1));
