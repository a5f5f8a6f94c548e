/**
 * `node --import tsx bench/tailor-ablation.ts`: the evidence behind each part of the `tailor`
 * strategy. Replays the evaluation suite (and the Azure CPU traces) with `tailor` as shipped, with
 * each part switched off or changed one at a time, and `vpa` as the reference. Flags as
 * bench/quality.ts: --per-archetype N (a smaller suite), --trace FILE (another trace, repeatable).
 * docs/tailor-strategy.md quotes its output.
 */
import { fileURLToPath } from 'node:url';
import { basename, dirname, resolve } from 'node:path';
import { generateWorkload, EVALUATION_SUITE } from '../src/replay/workload/generator.ts';
import { replayTrace } from '../src/replay/replay-engine.ts';
import { summarize, type QualityFigures } from '../src/replay/quality-tally.ts';
import { formatTable } from '../src/replay/quality-report.ts';
import { createReplayStrategy } from '../src/replay/replay-strategies.ts';
import { readTraceFile } from '../src/replay/trace-reader.ts';
import { AZURE_TRACE, realTracePath } from '../src/replay/real-traces.ts';
import type { Trace } from '../src/replay/trace.ts';
import { tailorVariantStrategy, type TailorVariant } from './bench-args.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NEVER = 1e15;

const MIN = 60_000;

/** The holds before decision 0269: CPU 15 min, memory 2 h, no trend test. */
const FIXED_HOLDS = { holdPriceCoreHours: 0, memoryHoldPriceGiBHours: 0, memoryTrendHours: 0 };

/** Each variant: a short name and the options it changes (`tried:` rows turn research knobs). */
// One row per line, read as a table:
// prettier-ignore
const VARIANTS: Array<[string, TailorVariant]> = [
  ['tailor', {}],
  ['before issue 15 (all below off)', { surgeWindowMs: 15 * MIN, cpuSeasonalMinGain: 0, flatAltHalfLivesMs: [], memoryHoldMs: 0, minCpuMillicores: 5, ...FIXED_HOLDS }],
  ['churn: no held CPU target (before 0246)', { stickyTargets: false }],
  ['churn: held, no cut price', { stickyCutCostCoreHours: 0 }],
  ['churn: held, raise at once', { stickyBand: [1, 1, Infinity, 1] }],
  ['churn: no memory hold', { memoryHoldMs: 0, memoryHoldPriceGiBHours: 0 }],
  ['churn: no tested-rise cover', { memoryTrendHours: 0 }],
  ['churn: no memory hold price (2 h)', { memoryHoldPriceGiBHours: 0 }],
  ['churn: no CPU hold price (15 min)', { holdPriceCoreHours: 0 }],
  ['churn: no memory cut price (0273)', { memoryCutPriceGiBHours: 0 }],
  ['churn: cuts do not ride along (0273)', { cutsRideAlong: false }],
  ['churn: neither (before 0273)', { memoryCutPriceGiBHours: 0, cutsRideAlong: false }],
  ['churn: hour-of-day at any gain', { cpuSeasonalMinGain: 0 }],
  ['churn: surge window 15 min', { surgeWindowMs: 15 * MIN }],
  ['churn: CPU floor 5m', { minCpuMillicores: 5 }],
  ['cpu: all-hours 12 h only', { flatAltHalfLivesMs: [] }],
  ['tried: daily plan, change = 1 h', { cpuChangeCostHours: 1 }],
  ['tried: daily plan, change = 2 h', { cpuChangeCostHours: 2 }],
  ['tried: CPU hold 4 h', { cpuHoldMs: 4 * HOUR, holdPriceCoreHours: 0 }],
  ['tried: surge held 1 h', { cpuSurgeHoldMs: HOUR }],
  ['tried: memory rise cover 10%', { memoryRiseCap: 0.1 }],
  ['tried: models pay 0.1 core-h a change', { cpuModelChangePriceCoreHours: 0.1 }],
  ['tried: daily plan, change = 0.3 core-h', { cpuChangeCostCoreHours: 0.3 }],
  ['cpu: all-hours model only', { cpuSeasonal: false }],
  ['cpu: no reach floor', { cpuReachFloor: false }],
  ['cpu: no surge raise', { cpuSurge: false }],
  ['cpu: p90', { cpuQuantile: 0.9 }],
  ['cpu: p92', { cpuQuantile: 0.92 }],
  ['mem: 7-day peak only', { memorySeasonal: false }],
  ['mem: follow rule off', { memoryFollowTrustMs: NEVER }],
  ['mem: follow trusted after 7 d', { memoryFollowTrustMs: 7 * DAY }],
  ['mem: checks ignore the guard', { memoryCheckPastGuard: false }],
  ['mem: lower bound 0.95', { memoryLowerFactor: 0.95 }],
];

function run(trace: Trace, cpuOnly: boolean): QualityFigures[] {
  const rows: QualityFigures[] = [];
  const vpa = replayTrace(trace, createReplayStrategy('vpa'));
  rows.push(summarize('vpa', vpa.containers));
  for (const [name, overrides] of VARIANTS) {
    if (cpuOnly && name.startsWith('mem:')) continue;
    const r = replayTrace(trace, tailorVariantStrategy(overrides, name));
    rows.push(summarize(name, r.containers));
  }
  return rows;
}

const perArchetypeAt = process.argv.indexOf('--per-archetype');
const perArchetype = perArchetypeAt >= 0 ? Number(process.argv[perArchetypeAt + 1]) : EVALUATION_SUITE.perArchetype;
if (!Number.isInteger(perArchetype) || perArchetype < 1) throw new Error('--per-archetype needs a whole number >= 1');
const extraTraces = process.argv.flatMap((arg, i) => (arg === '--trace' ? [process.argv[i + 1]] : []));
if (extraTraces.some((file) => file === undefined || file.startsWith('--'))) throw new Error('--trace needs a file');

const suite = generateWorkload({ ...EVALUATION_SUITE, perArchetype });
console.log(`## tailor ablation on the evaluation suite (${suite.containers.length} containers, ${EVALUATION_SUITE.days} days)`);
console.log(formatTable(run(suite, false), 'vpa'));

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const azure = await readTraceFile(realTracePath(repoRoot, AZURE_TRACE));
console.log(`\n## tailor ablation on the Azure V1 CPU traces (${azure.containers.length} VMs, CPU only)`);
console.log(formatTable(run(azure, true), 'vpa'));

for (const file of extraTraces as string[]) {
  const trace = await readTraceFile(file);
  console.log(`\n## tailor ablation on ${basename(file)} (${trace.containers.length} containers)`);
  console.log(formatTable(run(trace, !trace.containers.some((c) => c.hasMemory)), 'vpa'));
}
