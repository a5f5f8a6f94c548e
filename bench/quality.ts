/**
 * `npm run bench:quality`: replays the evaluation suite (216 generated containers x 10 days at
 * 1-minute samples) and the real traces in traces/ (Azure: CPU; Bitbrains and Google 2011: CPU and
 * memory) under every strategy, and prints one row per strategy with its ratio to `vpa`, the issue 5
 * targets for `tailor`, and the wall times.
 * Flags: --by-archetype adds one table per archetype of the suite; --per-archetype N generates a
 * smaller suite of N containers per archetype (same seed and archetypes, other draws: a quicker
 * check while iterating, 6 is a quarter of the work; the published figures are the whole suite's);
 * --no-real (or --no-azure) skips the real traces in traces/; --trace FILE (repeatable) replays another
 * trace file too.
 * At equal risk (issue 33): after each trace's table, vpa is replayed at every setting of upstream's
 * flags that bench/vpa-sweep.ts sweeps, and the default strategy and oracle-rules are set against
 * vpa's slack-versus-risk frontier at their own risk (bench/risk-report.ts), with paired-bootstrap
 * intervals over containers. --no-risk skips the sweep; --no-suite skips the suite; --real NAME
 * (azure, bitbrains or google-2011, repeatable) replays only those real traces (quicker while
 * iterating); --seed N generates the suite from another seed (the published one is 20240505);
 * --write-docs (the full run only) saves the figures to docs/images/quality-risk.json and writes the curves and
 * the "At equal risk" section of docs/quality.md from them.
 * Single-threaded on purpose: the replay target is "under a minute on one core".
 */
import { fileURLToPath } from 'node:url';
import { basename, dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateWorkload, EVALUATION_SUITE } from '../src/replay/workload/generator.ts';
import { ARCHETYPE_NAMES } from '../src/replay/workload/archetypes.ts';
import { replayTrace, type StrategyRun } from '../src/replay/replay-engine.ts';
import { summarize, type QualityFigures } from '../src/replay/quality-tally.ts';
import { formatTable } from '../src/replay/quality-report.ts';
import { createReplayStrategy } from '../src/replay/replay-strategies.ts';
import { readTraceFile } from '../src/replay/trace-reader.ts';
import { AZURE_TRACE, BITBRAINS_TRACE, GOOGLE_2011_TRACE, realTracePath } from '../src/replay/real-traces.ts';
import { describeResampling } from '../src/replay/resample.ts';
import type { Trace } from '../src/replay/trace.ts';
import type { QualityTally } from '../src/replay/quality-tally.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { isDefaultSetting, settingLabel, VPA_SWEEP, vpaSweepStrategy } from './vpa-sweep.ts';
import { bootstrapIntervals } from './risk-frontier.ts';
import {
  AT_DEFAULTS_HEADERS,
  atDefaultsRows,
  COMPARED,
  DEFAULT_FIGURES,
  DEFAULT_STRATEGY,
  EQUAL_RISK_HEADERS,
  lossContainers,
  equalRiskRows,
  pointFigures,
  QUALITY_PAGE,
  RISK_FIGURES,
  riskNotes,
  riskOutputs,
  riskStatistics,
  textTable,
  type PointFigures,
  type RiskRun,
  type TraceRisk,
} from './risk-report.ts';

const STRATEGIES = ['vpa', 'krr', 'oracle', 'oracle-rules', 'tailor', 'tailor-low-churn'];
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const byArchetype = process.argv.includes('--by-archetype');
const skipAzure = process.argv.includes('--no-azure') || process.argv.includes('--no-real');
const perArchetypeAt = process.argv.indexOf('--per-archetype');
const perArchetype = perArchetypeAt >= 0 ? Number(process.argv[perArchetypeAt + 1]) : EVALUATION_SUITE.perArchetype;
if (!Number.isInteger(perArchetype) || perArchetype < 1) throw new Error('--per-archetype needs a whole number >= 1');
const seedAt = process.argv.indexOf('--seed');
const seed = seedAt >= 0 ? Number(process.argv[seedAt + 1]) : EVALUATION_SUITE.seed;
if (!Number.isInteger(seed)) throw new Error('--seed needs a whole number');
const SPEC = { ...EVALUATION_SUITE, perArchetype, seed };
const extraTraces = process.argv.flatMap((arg, i) => (arg === '--trace' ? [process.argv[i + 1]] : []));
if (extraTraces.some((file) => file === undefined || file.startsWith('--'))) throw new Error('--trace needs a file');
const skipSuite = process.argv.includes('--no-suite');
const withRisk = !process.argv.includes('--no-risk');
const onlyReal = process.argv.flatMap((arg, i) => (arg === '--real' ? [process.argv[i + 1] ?? ''] : []));
const REAL_IDS = ['azure', 'bitbrains', 'google-2011'];
for (const name of onlyReal) if (!REAL_IDS.includes(name)) throw new Error(`--real takes ${REAL_IDS.join(', ')}, not "${name}"`);
const writeDocs = process.argv.includes('--write-docs');
const RESAMPLES = 1000;
if (
  writeDocs &&
  (skipSuite ||
    skipAzure ||
    !withRisk ||
    onlyReal.length > 0 ||
    extraTraces.length > 0 ||
    perArchetype !== EVALUATION_SUITE.perArchetype ||
    seed !== EVALUATION_SUITE.seed)
) {
  throw new Error('--write-docs writes the published figures: run it without --no-suite, --no-real, --no-risk, --real, --trace, --per-archetype and --seed');
}
const riskTraces: TraceRisk[] = [];

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function replayAll(trace: Trace): { runs: StrategyRun[]; times: Map<string, number>; cpuMs: number } {
  const runs: StrategyRun[] = [];
  const times = new Map<string, number>();
  const cpuStart = process.cpuUsage();
  for (const name of STRATEGIES) {
    const start = performance.now();
    runs.push(replayTrace(trace, createReplayStrategy(name)));
    times.set(name, performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  return { runs, times, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function samplesOf(trace: Trace): number {
  return trace.containers.reduce((sum, c) => sum + c.length, 0);
}

function printRuns(title: string, trace: Trace, { runs, times, cpuMs }: ReturnType<typeof replayAll>): QualityFigures[] {
  const rows = runs.map((r) => summarize(r.strategy, r.containers));
  const total = [...times.values()].reduce((a, b) => a + b, 0);
  console.log(`\n## ${title}: ${trace.containers.length} containers, ${samplesOf(trace).toLocaleString('en')} samples`);
  console.log(formatTable(rows, 'vpa'));
  console.log(
    `replay wall time: ${seconds(total)} for ${STRATEGIES.length} strategies (${STRATEGIES.map((s) => `${s} ${seconds(times.get(s) ?? 0)}`).join(', ')}); CPU time ${seconds(cpuMs)}`,
  );
  return rows;
}

/** One line per issue 15 target of `tailor`, and per bound of the default `tailor-low-churn`: the figure, the bound and whether it holds. */
function printTargets(rows: QualityFigures[]): void {
  const get = (name: string) => rows.find((r) => r.name === name);
  const tailor = get('tailor');
  const vpa = get('vpa');
  const oracle = get('oracle');
  if (!tailor || !vpa || !oracle) return;
  const checks: Array<[string, number | null, number | null, (a: number, b: number) => boolean]> = [
    ['memory slack <= 0.75 x vpa', tailor.memory.slackPct, vpa.memory.slackPct === null ? null : vpa.memory.slackPct * 0.75, (a, b) => a <= b],
    ['CPU slack <= 0.75 x vpa', tailor.cpu.slackPct, vpa.cpu.slackPct === null ? null : vpa.cpu.slackPct * 0.75, (a, b) => a <= b],
    ['OOM kills <= vpa', tailor.memory.ooms, vpa.memory.ooms, (a, b) => a <= b],
    ['CPU shortfall <= vpa', tailor.cpu.shortfallPct, vpa.cpu.shortfallPct, (a, b) => a <= b],
    ['memory slack <= 1.5 x oracle', tailor.memory.slackPct, oracle.memory.slackPct === null ? null : oracle.memory.slackPct * 1.5, (a, b) => a <= b],
    ['CPU slack <= 1.5 x oracle', tailor.cpu.slackPct, oracle.cpu.slackPct === null ? null : oracle.cpu.slackPct * 1.5, (a, b) => a <= b],
  ];
  checks.push(['changes a day <= 2 x vpa', tailor.changesPerDay, 2 * vpa.changesPerDay, (a, b) => a <= b]);
  printChecks('targets for tailor (issue 15)', checks);
  const lowChurn = get('tailor-low-churn');
  if (!lowChurn) return;
  const atMost = (a: number, b: number) => a <= b;
  printChecks("tailor-low-churn, the default of `tailor run` (decision 0276): within 2x vpa's changes, no worse than vpa", [
    ['changes a day <= 2 x vpa', lowChurn.changesPerDay, 2 * vpa.changesPerDay, atMost],
    ['CPU slack <= vpa', lowChurn.cpu.slackPct, vpa.cpu.slackPct, atMost],
    ['CPU shortfall <= vpa', lowChurn.cpu.shortfallPct, vpa.cpu.shortfallPct, atMost],
    ['memory slack <= vpa', lowChurn.memory.slackPct, vpa.memory.slackPct, atMost],
    ['OOM kills <= vpa', lowChurn.memory.ooms, vpa.memory.ooms, atMost],
  ]);
}

function printChecks(title: string, checks: Array<[string, number | null, number | null, (a: number, b: number) => boolean]>): void {
  console.log(`\n${title}:`);
  for (const [label, value, bound, holds] of checks) {
    if (value === null || bound === null) continue;
    console.log(`  ${holds(value, bound) ? 'met    ' : 'NOT MET'}  ${label}: ${value.toFixed(2)} vs ${bound.toFixed(2)}`);
  }
}

/**
 * Replays `trace` under vpa at every swept setting (upstream's defaults: the run already made),
 * prints the comparison at equal risk and at vpa's defaults, and keeps the figures for --write-docs.
 */
function riskMatched(id: string, title: string, trace: Trace, runs: readonly StrategyRun[]): void {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const byName = new Map(runs.map((r) => [r.strategy, r.containers]));
  const sweepTallies: Array<{ label: string; isDefault: boolean; tallies: QualityTally[] }> = VPA_SWEEP.map((setting) => ({
    label: settingLabel(setting),
    isDefault: isDefaultSetting(setting),
    tallies: isDefaultSetting(setting) ? (byName.get('vpa') ?? []) : replayTrace(trace, vpaSweepStrategy(setting)).containers,
  }));
  const sweepMs = performance.now() - start;
  const compared = COMPARED.flatMap((name) => {
    const tallies = byName.get(name);
    return tallies === undefined ? [] : [[name, tallies] as const];
  });
  const figuresOn = (pick: (tallies: QualityTally[]) => QualityTally[]) => ({
    sweep: sweepTallies.map((s) => ({ label: s.label, isDefault: s.isDefault, figures: pointFigures(summarize(s.label, pick(s.tallies))) })),
    strategies: Object.fromEntries(compared.map(([name, tallies]) => [name, pointFigures(summarize(name, pick(tallies)))])) as Record<string, PointFigures>,
  });
  const whole = figuresOn((t) => t);
  const intervals = bootstrapIntervals(
    trace.containers.length,
    (indices) => {
      const { sweep, strategies } = figuresOn((t) => indices.map((i) => t[i]!));
      return riskStatistics(sweep, strategies);
    },
    RESAMPLES,
  );
  const cpu = process.cpuUsage(cpuStart);
  const own = byName.get(DEFAULT_STRATEGY);
  const vpa = byName.get('vpa');
  const losses =
    own === undefined || vpa === undefined
      ? []
      : DEFAULT_FIGURES.flatMap(([figure]) => ((intervals.get(`defaults:${figure}`)?.low ?? 0) > 0 ? [lossContainers(figure, own, vpa)] : []));
  const result: TraceRisk = { id, title, containers: trace.containers.length, ...whole, intervals: Object.fromEntries(intervals), losses };
  riskTraces.push(result);
  const run: RiskRun = { command: 'npm run bench:quality', resamples: RESAMPLES, traces: [result] };
  console.log(
    `\nat equal risk (vpa swept over ${VPA_SWEEP.length} settings of upstream's flags in ${seconds(sweepMs)}, CPU time with the bootstrap ${seconds((cpu.user + cpu.system) / 1000)}):`,
  );
  console.log(
    textTable(
      EQUAL_RISK_HEADERS.slice(1),
      equalRiskRows(run).map((r) => r.slice(1)),
    ),
  );
  console.log(`\nagainst vpa at upstream's defaults (95% paired-bootstrap intervals over containers, ${RESAMPLES} resamples):`);
  console.log(
    textTable(
      AT_DEFAULTS_HEADERS.slice(1),
      atDefaultsRows(run).map((r) => r.slice(1)),
    ),
  );
  for (const note of riskNotes(run)) console.log(`  ${note}`);
}

const benchStart = performance.now();
let start = performance.now();
if (!skipSuite) {
  const suite = generateWorkload(SPEC);
  console.log(`# Recommendation quality (seed ${seed}; suite generated in ${seconds(performance.now() - start)})`);
  const suiteResult = replayAll(suite);
  const published = perArchetype === EVALUATION_SUITE.perArchetype && seed === EVALUATION_SUITE.seed;
  const suiteTitle = published ? 'Evaluation suite' : `Other suite (${perArchetype} per archetype, seed ${seed}: NOT the published suite)`;
  const suiteRows = printRuns(`${suiteTitle} (${EVALUATION_SUITE.days} days, ${EVALUATION_SUITE.intervalSeconds} s samples)`, suite, suiteResult);
  printTargets(suiteRows);
  if (byArchetype) {
    for (const archetype of ARCHETYPE_NAMES) {
      const rows = suiteResult.runs.map((r) =>
        summarize(
          r.strategy,
          r.containers.filter((c) => c.name.startsWith(`${archetype}-`)),
        ),
      );
      console.log(`\n### ${archetype}\n${formatTable(rows, 'vpa')}`);
    }
  }
  if (withRisk) riskMatched('suite', published ? 'Evaluation suite' : 'Other suite', suite, suiteResult.runs);
}

if (!skipAzure) {
  const REAL_TRACES: Array<[string, string, string, string]> = [
    ['azure', 'Azure', AZURE_TRACE, 'Azure V1 CPU traces (real, CPU only, 5 min samples'],
    ['bitbrains', 'Bitbrains', BITBRAINS_TRACE, 'Bitbrains GWA-T-12 Rnd 2013-07 (real, CPU and memory, 5 min samples, raw'],
    [
      'google-2011',
      'Google 2011',
      GOOGLE_2011_TRACE,
      'Google cluster trace 2011 per job (real, CPU and memory, 5 min samples, whole days missing, scale assumed',
    ],
  ];
  for (const [id, short, file, title] of REAL_TRACES) {
    if (onlyReal.length > 0 && !onlyReal.includes(id)) continue;
    start = performance.now();
    const trace = await readTraceFile(realTracePath(repoRoot, file));
    const readMs = performance.now() - start;
    const note = trace.resampling && describeResampling(file, trace.resampling);
    const result = replayAll(trace);
    const rows = printRuns(`${title}; read in ${seconds(readMs)})`, trace, result);
    printTargets(rows);
    if (note) console.log(`resampled: ${note}`);
    if (withRisk) riskMatched(id, short, trace, result.runs);
  }
}
for (const file of extraTraces as string[]) {
  start = performance.now();
  const trace = await readTraceFile(file);
  const readMs = performance.now() - start;
  const note = trace.resampling && describeResampling(file, trace.resampling);
  const result = replayAll(trace);
  const rows = printRuns(`${basename(file)} (read in ${seconds(readMs)})`, trace, result);
  printTargets(rows);
  if (note) console.log(`resampled: ${note}`);
  const id = basename(file).replace(/\..*$/, '');
  if (withRisk) riskMatched(id, id, trace, result.runs);
}
console.log(`\nwhole bench: ${seconds(performance.now() - benchStart)} wall time`);

if (writeDocs) {
  const run: RiskRun = { command: 'npm run bench:quality', resamples: RESAMPLES, traces: riskTraces };
  await writeFile(resolve(repoRoot, RISK_FIGURES), `${JSON.stringify(run, null, 1)}\n`);
  const page = await readFile(resolve(repoRoot, QUALITY_PAGE), 'utf8');
  for (const [path, text] of riskOutputs(run, page)) await writeFile(resolve(repoRoot, path), text);
  console.log(`wrote ${RISK_FIGURES}, the curves in docs/images/ and the "At equal risk" section of ${QUALITY_PAGE}`);
}
