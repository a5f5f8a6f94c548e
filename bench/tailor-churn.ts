/**
 * `node --import tsx bench/tailor-churn.ts [--per-archetype N] [--only suite,azure,bitbrains,google-2011]
 * [--variant 'name={"option":value}']...`: where `tailor`'s changes come from. Replays `vpa` and
 * `tailor` (plus each --variant: tailor with those options) on the suite and the real traces, and
 * prints per trace each run's figures as multiples of vpa's and its changes per container-day by
 * cause (the updater's reason and which resources moved which way).
 */
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { generateWorkload, EVALUATION_SUITE } from '../src/replay/workload/generator.ts';
import { replayTrace, type StrategyRun } from '../src/replay/replay-engine.ts';
import { summarize, type QualityFigures } from '../src/replay/quality-tally.ts';
import { createReplayStrategy } from '../src/replay/replay-strategies.ts';
import { readTraceFile } from '../src/replay/trace-reader.ts';
import { AZURE_TRACE, BITBRAINS_TRACE, GOOGLE_2011_TRACE, realTracePath } from '../src/replay/real-traces.ts';
import type { Trace } from '../src/replay/trace.ts';
import { tailorVariants, tailorVariantStrategy } from './bench-args.ts';

const argv = process.argv;
const at = argv.indexOf('--per-archetype');
const perArchetype = at >= 0 ? Number(argv[at + 1]) : EVALUATION_SUITE.perArchetype;
const onlyAt = argv.indexOf('--only');
const only = new Set((onlyAt >= 0 ? argv[onlyAt + 1]! : 'suite,azure,bitbrains').split(','));
const variants = tailorVariants(argv);
const showCauses = argv.includes('--causes');

function ratio(a: number | null, b: number | null): string {
  return a === null || b === null || b === 0 ? '-' : (a / b).toFixed(3);
}

function causes(run: StrategyRun, containerDays: number): string {
  const sum = new Map<string, number>();
  for (const t of run.containers) for (const [k, v] of t.changeCauses) sum.set(k, (sum.get(k) ?? 0) + v);
  return [...sum.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, v]) => `${k} ${(v / containerDays).toFixed(2)}`)
    .join(' | ');
}

function report(title: string, trace: Trace): void {
  const vpaRun = replayTrace(trace, createReplayStrategy('vpa'));
  const vpa = summarize('vpa', vpaRun.containers);
  console.log(
    `\n## ${title} (${trace.containers.length} containers) vpa: cpu slack ${vpa.cpu.slackPct?.toFixed(1)} short ${vpa.cpu.shortfallPct?.toFixed(2)} mem slack ${vpa.memory.slackPct?.toFixed(1) ?? '-'} ooms ${vpa.memory.ooms} changes/d ${vpa.changesPerDay.toFixed(2)}`,
  );
  if (showCauses) console.log(`   vpa causes: ${causes(vpaRun, vpa.containerDays)}`);
  console.log('variant | cpuSlack x | cpuShort x | memSlack x | ooms (vpa) | changes x (per day)');
  for (const [name, overrides] of variants) {
    const run = replayTrace(trace, tailorVariantStrategy(overrides, name));
    const f: QualityFigures = summarize(name, run.containers);
    console.log(
      `${name} | ${ratio(f.cpu.slackPct, vpa.cpu.slackPct)} | ${ratio(f.cpu.shortfallPct, vpa.cpu.shortfallPct)} | ${ratio(f.memory.slackPct, vpa.memory.slackPct)} | ${f.memory.ooms} (${vpa.memory.ooms}) | ${ratio(f.changesPerDay, vpa.changesPerDay)} (${f.changesPerDay.toFixed(2)})`,
    );
    if (showCauses) console.log(`   causes: ${causes(run, f.containerDays)}`);
    if (argv.includes('--by-archetype')) {
      const groups = new Map<string, StrategyRun['containers']>();
      for (const t of run.containers) {
        const key = t.name.replace(/-[^-]*$/, '');
        groups.set(key, [...(groups.get(key) ?? []), t]);
      }
      for (const [key, tallies] of groups) {
        const g = summarize(key, tallies);
        console.log(`     ${key}: ${g.changesPerDay.toFixed(2)}/d: ${causes({ strategy: name, containers: tallies }, g.containerDays)}`);
      }
    }
  }
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (only.has('suite')) report(`suite, ${perArchetype} per archetype`, generateWorkload({ ...EVALUATION_SUITE, perArchetype }));
if (only.has('azure')) report('Azure', await readTraceFile(realTracePath(repoRoot, AZURE_TRACE)));
if (only.has('bitbrains')) report('Bitbrains', await readTraceFile(realTracePath(repoRoot, BITBRAINS_TRACE)));
if (only.has('google-2011')) report('Google 2011', await readTraceFile(realTracePath(repoRoot, GOOGLE_2011_TRACE)));
