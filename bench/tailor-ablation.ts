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
import { tailorStrategy } from '../src/replay/strategies/tailor/tailor-strategy.ts';
import type { TailorOptions } from '../src/replay/strategies/tailor/options.ts';
import { readTraceFile } from '../src/replay/trace-reader.ts';
import { locateSharedTrace } from '../src/replay/shared-traces.ts';
import type { Trace } from '../src/replay/trace.ts';

const DAY = 86_400_000;
const NEVER = 1e15;

/** Each variant: a short name and the options it changes. */
const VARIANTS: Array<[string, Partial<TailorOptions>]> = [
  ['tailor', {}],
  ['cpu: all-hours model only', { cpuSeasonal: false }],
  ['cpu: no reach floor', { cpuReachFloor: false }],
  ['cpu: no surge raise', { cpuSurge: false }],
  ['cpu: p85', { cpuQuantile: 0.85 }],
  ['cpu: p95', { cpuQuantile: 0.95 }],
  ['mem: 7-day peak only', { memorySeasonal: false }],
  ['mem: follow trusted after 3 d', { memoryFollowTrustMs: 3 * DAY }],
  ['mem: follow rule off', { memoryFollowTrustMs: NEVER }],
  ['mem: hour-of-day trusted after 3 d', { memorySeasonalTrustMs: 3 * DAY }],
  ['mem: OOM bump held 7 d', { oomHoldMs: 7 * DAY }],
  ['mem: OOM bump x1.2', { oomBumpFactor: 1.2 }],
  ['mem: decrease from the start', { memoryLearnMs: 0 }],
  ['mem: margin 5%', { memoryMargin: 0.05 }],
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
const azure = await readTraceFile(locateSharedTrace(repoRoot));
console.log(`\n## tailor ablation on the Azure V1 CPU traces (${azure.containers.length} VMs, CPU only)`);
console.log(formatTable(run(azure, true), 'vpa'));
