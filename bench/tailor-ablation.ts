/**
 * `node --import tsx bench/tailor-ablation.ts`: the evidence behind each part of the `tailor`
 * strategy. Replays the evaluation suite (and the Azure CPU traces) with `tailor` as shipped, with
 * each part switched off or changed one at a time, and `vpa` as the reference.
 * docs/tailor-strategy.md quotes its output.
 */
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { generateWorkload, EVALUATION_SUITE } from '../src/replay/workload/generator.ts';
import { replayTrace } from '../src/replay/replay-engine.ts';
import { summarize, type QualityFigures } from '../src/replay/quality-tally.ts';
import { formatTable } from '../src/replay/quality-report.ts';
import { createReplayStrategy } from '../src/replay/strategy-registry.ts';
import { tailorStrategy } from '../src/recommender/tailor/tailor-strategy.ts';
import type { TailorOptions } from '../src/recommender/tailor/options.ts';
import { readTraceFile } from '../src/replay/trace-reader.ts';
import { AZURE_TRACE, realTracePath } from '../src/replay/real-traces.ts';
import type { Trace } from '../src/replay/trace.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NEVER = 1e15;

/** Each variant: a short name and the options it changes. */
const VARIANTS: Array<[string, Partial<TailorOptions>]> = [
  ['tailor', {}],
  ['cpu: all-hours model only', { cpuSeasonal: false }],
  ['cpu: no reach floor', { cpuReachFloor: false }],
  ['cpu: no surge raise', { cpuSurge: false }],
  ['cpu: surge window 30 min', { surgeWindowMs: 30 * 60_000 }],
  ['cpu: p90', { cpuQuantile: 0.9 }],
  ['cpu: p90.5', { cpuQuantile: 0.905 }],
  ['cpu: p85', { cpuQuantile: 0.85 }],
  ['cpu: p95', { cpuQuantile: 0.95 }],
  ['mem: 7-day peak only', { memorySeasonal: false }],
  ['mem: checks ignore the guard', { memoryCheckPastGuard: false }],
  ['mem: follow rule off', { memoryFollowTrustMs: NEVER }],
  ['mem: follow trusted after 7 d', { memoryFollowTrustMs: 7 * DAY }],
  ['mem: hour-of-day trusted after 5 d', { memorySeasonalTrustMs: 5 * DAY }],
  ['mem: follow/recent 3 h', { memoryFollowMs: 3 * HOUR, memoryRecentMs: 3 * HOUR }],
  ['mem: lower bound 0.95', { memoryLowerFactor: 0.95 }],
  ['mem: no decrease in 1st day', { memoryLearnMs: DAY }],
  ['mem: decrease from the start', { memoryLearnMs: 0 }],
  ['mem: OOM bump held 1 d', { oomHoldMs: DAY }],
  ['mem: OOM bump x1.2', { oomBumpFactor: 1.2 }],
  ['mem: margin 5%', { memoryMargin: 0.05 }],
  ['mem: as before (decision 0054)', {
    memoryCheckPastGuard: false, memoryFollowMs: 3 * HOUR, memoryRecentMs: 3 * HOUR, memoryFollowTrustMs: 7 * DAY,
    memorySeasonalTrustMs: 5 * DAY, memoryLowerFactor: 0.95, memoryLearnMs: DAY, oomHoldMs: DAY,
  }],
];

function run(trace: Trace, cpuOnly: boolean): QualityFigures[] {
  const rows: QualityFigures[] = [];
  const vpa = replayTrace(trace, createReplayStrategy('vpa'));
  rows.push(summarize('vpa', vpa.containers));
  for (const [name, overrides] of VARIANTS) {
    if (cpuOnly && name.startsWith('mem:')) continue;
    const r = replayTrace(trace, tailorStrategy(overrides, name));
    rows.push(summarize(name, r.containers));
  }
  return rows;
}

const suite = generateWorkload(EVALUATION_SUITE);
console.log(`## tailor ablation on the evaluation suite (${suite.containers.length} containers, ${EVALUATION_SUITE.days} days)`);
console.log(formatTable(run(suite, false), 'vpa'));

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const azure = await readTraceFile(realTracePath(repoRoot, AZURE_TRACE));
console.log(`\n## tailor ablation on the Azure V1 CPU traces (${azure.containers.length} VMs, CPU only)`);
console.log(formatTable(run(azure, true), 'vpa'));
