/**
 * `node --import tsx bench/tailor-memory-jumps.ts [--trace FILE]`: can any per-container rule
 * bring `tailor`'s memory slack on the Bitbrains trace to 0.75 x vpa's? Three answers, printed:
 *  1. Bounds: the memory slack if some VMs were managed exactly as the rule-obeying oracle
 *     (`oracle-rules`, clairvoyant under the updater's rules) manages them — the four jumpy VMs,
 *     and the fewest VMs that would reach 0.75 x vpa.
 *  2. A refractory period: after a container's high samples (>= half its 7-day peak) have been
 *     quiet for M hours, the next comes no sooner than G (the shortest such gap, in hindsight, or
 *     learned online). The hours the limit could then sit at the quiet level — after the descent
 *     (the updater's 1-hour peak floor, then x0.5 per 15 min) and before the climb back (x2 per 15
 *     min) — and the slack that would save at most.
 *  3. Precursors with the lead a climb needs: CPU in the hour before an episode starts, and the
 *     hour of day (did the same hour on the last 7 days see an episode start?).
 * docs/tailor-strategy.md ("Bitbrains memory: is there a refractory period?") quotes its output.
 */
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { replayTrace } from '../src/replay/replay-engine.ts';
import { createReplayStrategy } from '../src/replay/replay-strategies.ts';
import { tailorStrategy } from '../src/model/tailor/tailor-strategy.ts';
import { readTraceFile } from '../src/replay/trace-reader.ts';
import { BITBRAINS_TRACE, realTracePath } from '../src/replay/real-traces.ts';
import type { QualityTally } from '../src/replay/quality-tally.ts';
import type { ContainerSeries } from '../src/replay/trace.ts';
import { DEFAULT_UPDATER_OPTIONS } from '../src/policy/update-thresholds.ts';

const H = 3600;
const GB = 2 ** 30;
/** The updater's cooldown, and its memory-safety floor's window (no decrease below that window's peak), in hours. */
const COOLDOWN_H = DEFAULT_UPDATER_OPTIONS.podCooldownMs / (H * 1000);
const PEAK_FLOOR_H = DEFAULT_UPDATER_OPTIONS.memoryPeakWindowMs / (H * 1000);
/** A high sample: at least this fraction of the container's 7-day peak (and at least 1 GiB). */
const HIGH_FRACTION = 0.5;
const MERGE_HOURS = [1, 2, 4, 8, 12];

const argv = process.argv;
const traceAt = argv.indexOf('--trace');
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const trace = await readTraceFile(traceAt >= 0 ? argv[traceAt + 1]! : realTracePath(repoRoot, BITBRAINS_TRACE));
const vpa = replayTrace(trace, createReplayStrategy('vpa')).containers;
const tailor = replayTrace(trace, tailorStrategy()).containers;
const oracle = replayTrace(trace, createReplayStrategy('oracle-rules')).containers;
const short = (name: string): string => name.replace(/^.*-/, '');

function slackPct(tallies: Array<{ memoryLimitSum: number; memorySlackSum: number }>): number {
  let limit = 0;
  let slack = 0;
  for (const t of tallies) {
    limit += t.memoryLimitSum;
    slack += t.memorySlackSum;
  }
  return (100 * slack) / limit;
}
const vpaPct = slackPct(vpa);
const ratio = (tallies: Array<{ memoryLimitSum: number; memorySlackSum: number }>): string => (slackPct(tallies) / vpaPct).toFixed(3);

// 1. Bounds.
console.log(`## 1. Bounds (memory slack x vpa; vpa ${vpaPct.toFixed(1)}%)`);
console.log(`tailor ${ratio(tailor)}, oracle-rules ${ratio(oracle)}`);
// Slack % = slack / limit with limit = slack + usage: 0.75 x vpa caps the summed limit at usage / (1 - that slack).
const sums = (tallies: QualityTally[]): [number, number] => tallies.reduce(([l, s], t) => [l + t.memoryLimitSum, s + t.memorySlackSum], [0, 0]);
const [tailorLimit, tailorSlack] = sums(tailor);
const [oracleLimit] = sums(oracle);
const allowedLimit = (tailorLimit - tailorSlack) / (1 - (0.75 * vpaPct) / 100);
const gib = (x: number): string => `${Math.round(x / GB / 1000)}k`;
console.log(
  `summed limits (GiB x samples): tailor ${gib(tailorLimit)}, oracle-rules ${gib(oracleLimit)}, at 0.75 x vpa at most ${gib(allowedLimit)} (${(allowedLimit / oracleLimit).toFixed(2)} x oracle-rules'; tailor's is ${(tailorLimit / oracleLimit).toFixed(2)} x)`,
);
const byGain = tailor.map((t, i) => [i, t.memorySlackSum - oracle[i]!.memorySlackSum] as const).sort((a, b) => b[1] - a[1]);
const atOracle = new Set<number>();
const mixed = (): QualityTally[] => tailor.map((t, i) => (atOracle.has(i) ? oracle[i]! : t));
const steps: string[] = [];
for (const [i] of byGain) {
  atOracle.add(i);
  steps.push(`${short(trace.containers[i]!.name)} ${ratio(mixed())}`);
  if (atOracle.size === 4) console.log(`the 4 VMs with the most slack above oracle-rules' managed as oracle-rules: ${ratio(mixed())}`);
  if (slackPct(mixed()) / vpaPct <= 0.75) break;
}
console.log(`VMs managed as oracle-rules, one more at a time, until 0.75x: ${steps.join(', ')} (${atOracle.size} VMs)`);
for (const f of [0.5, 0.7, 0.8, 0.9]) {
  const part = tailor.map((t, i) => ({
    memoryLimitSum: t.memoryLimitSum + f * (oracle[i]!.memoryLimitSum - t.memoryLimitSum),
    memorySlackSum: t.memorySlackSum + f * (oracle[i]!.memorySlackSum - t.memorySlackSum),
  }));
  console.log(`every VM ${f} of the way from tailor to oracle-rules: ${ratio(part)}`);
}

// 2. Refractory period, per container with jumps.
interface Jumps {
  series: ContainerSeries;
  index: number;
  /** Times (s) of the high samples. */
  highs: number[];
  quiet: number;
  peak: number;
}

function jumpsOf(series: ContainerSeries, index: number): Jumps {
  const highs: number[] = [];
  const window: Array<[number, number]> = [];
  const values: number[] = [];
  for (let i = 0; i < series.length; i++) {
    const m = series.memory[i] ?? NaN;
    const t = series.times[i] ?? 0;
    if (Number.isNaN(m)) continue;
    values.push(m);
    while (window.length > 0 && window[0]![0] < t - 7 * 24 * H) window.shift();
    let peak7 = 0;
    for (const [, v] of window) peak7 = Math.max(peak7, v);
    if (peak7 > 0 && m >= HIGH_FRACTION * peak7 && m >= GB) highs.push(t);
    window.push([t, m]);
  }
  values.sort((a, b) => a - b);
  return { series, index, highs, quiet: values[Math.floor(values.length * 0.5)] ?? 0, peak: values[values.length - 1] ?? 0 };
}

console.log('\n## 2. Refractory period (high = >= half the 7-day peak and >= 1 GiB)');
console.log(
  'Per VM and merge window M (gaps shorter than M are one episode): episodes, the shortest gap > M, the median gap, and the hours the limit could sit at the quiet level: with G = the shortest gap in hindsight / learned online (G = shortest gap seen, trusted after 3 gaps, a gap shorter than G is a miss: distrusted for the next 3). Descent and climb take the updater 1 h + (k-1) x 15 min and (k-1) x 15 min, k = log2(peak / quiet) changes.',
);
const candidates = byGain.slice(0, 8).map(([i]) => jumpsOf(trace.containers[i]!, i));
let upperSaved = 0;
const savedByVm = new Map<number, number>();
for (const j of candidates) {
  const k = Math.max(1, Math.ceil(Math.log2(Math.max(1, j.peak / Math.max(j.quiet, 1)))));
  const climb = (k - 1) * COOLDOWN_H;
  const descent = PEAK_FLOOR_H + (k - 1) * COOLDOWN_H;
  const span = ((j.series.times[j.series.length - 1] ?? 0) - (j.series.times[0] ?? 0)) / H;
  const cells: string[] = [];
  let best = 0;
  for (const M of MERGE_HOURS) {
    const gaps: number[] = [];
    for (let n = 1; n < j.highs.length; n++) {
      const gap = (j.highs[n]! - j.highs[n - 1]!) / H;
      if (gap > M) gaps.push(gap);
    }
    const sorted = [...gaps].sort((a, b) => a - b);
    const hindsightG = sorted[0] ?? 0;
    const lowFrom = Math.max(M, descent);
    const hindsight = gaps.reduce((sum, L) => sum + Math.max(0, Math.min(L, hindsightG) - climb - lowFrom), 0);
    // Online: G = shortest gap seen so far; trusted after 3 gaps; a gap below G is a miss (the limit
    // was low when the jump came) and costs trust for the next 3 gaps.
    let learned = Infinity;
    let seen = 0;
    let distrustLeft = 0;
    let online = 0;
    let misses = 0;
    for (const L of gaps) {
      const trusted = seen >= 3 && distrustLeft === 0;
      if (trusted) {
        const low = Math.max(0, Math.min(L, learned) - climb - lowFrom);
        online += low;
        if (L < learned - climb && low > 0) misses++;
        if (L < learned) distrustLeft = 3;
      } else if (distrustLeft > 0) distrustLeft--;
      learned = Math.min(learned, L);
      seen++;
    }
    best = Math.max(best, hindsight);
    cells.push(
      `M ${M} h: ${gaps.length} ep., shortest ${hindsightG.toFixed(1)} h, median ${(sorted[sorted.length >> 1] ?? 0).toFixed(1)} h, low ${hindsight.toFixed(0)} / ${online.toFixed(0)} h${misses > 0 ? ` (${misses} misses)` : ''}`,
    );
  }
  savedByVm.set(j.index, best);
  upperSaved += best;
  console.log(
    `${short(j.series.name)} (quiet ${(j.quiet / GB).toFixed(2)} GB, peak ${(j.peak / GB).toFixed(1)} GB, ${span.toFixed(0)} h, climb ${climb.toFixed(2)} h): ${cells.join(' | ')}`,
  );
}
// The slack those hours could save at most: each hour low saves at most (peak - quiet) x 1.12 per sample.
const withRefractory = tailor.map((t, i) => {
  const hours = savedByVm.get(i) ?? 0;
  if (hours === 0) return t;
  const series = trace.containers[i]!;
  const j = candidates.find((c) => c.index === i)!;
  const perSample = Math.max(0, (j.peak - j.quiet) * 1.12);
  const saved = Math.min(t.memorySlackSum, (hours * H * perSample) / series.intervalSeconds);
  return { memoryLimitSum: t.memoryLimitSum - saved, memorySlackSum: t.memorySlackSum - saved };
});
console.log(
  `at most ${upperSaved.toFixed(0)} hours low over these VMs (the best M for each, in hindsight): memory slack ${ratio(withRefractory)} x vpa at best`,
);

// 3. Precursors: the CPU in the hour before an episode starts (>= 4 h quiet before it), against the
// hours that are not followed by an episode; the hour of day.
console.log('\n## 3. Precursors of an episode start (a high sample after >= 4 h without one)');
const precursorVms = new Set<number>();
for (const j of candidates) {
  const { series } = j;
  const starts: number[] = [];
  for (let n = 0; n < j.highs.length; n++) if (n === 0 || j.highs[n]! - j.highs[n - 1]! >= 4 * H) starts.push(j.highs[n]!);
  const cpuAt = (from: number, to: number): number => {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < series.length; i++) {
      const t = series.times[i] ?? 0;
      if (t >= from && t < to) {
        sum += series.cpu[i] ?? 0;
        count++;
      }
    }
    return count > 0 ? sum / count : NaN;
  };
  // CPU of the hour before each start, as a multiple of the CPU of the 23 hours before that.
  const before = starts.map((s) => cpuAt(s - H, s) / cpuAt(s - 24 * H, s - H)).filter((x) => Number.isFinite(x));
  const hits = before.filter((x) => x >= 2).length;
  // How often a quiet hour (no high sample in it or the next 4 h) shows the same CPU rise.
  let quietHours = 0;
  let alarms = 0;
  const t0 = series.times[0] ?? 0;
  const t1 = series.times[series.length - 1] ?? 0;
  for (let s = t0 + 24 * H; s + 5 * H < t1; s += H) {
    if (j.highs.some((h) => h >= s - H && h < s + 4 * H)) continue;
    const r = cpuAt(s - H, s) / cpuAt(s - 24 * H, s - H);
    if (!Number.isFinite(r)) continue;
    quietHours++;
    if (r >= 2) alarms++;
  }
  // Hour of day: did the same hour (+-1 h) on one of the last 7 days see an episode start?
  const hourSeen = starts.filter((s) =>
    starts.some((p) => p < s - 12 * H && s - p <= 7 * 24 * H + H && Math.abs(((((s - p) % (24 * H)) + 12 * H) % (24 * H)) - 12 * H) <= H),
  ).length;
  if (before.length > 0 && hits / before.length >= 0.7 && alarms / Math.max(1, quietHours) <= 0.05) precursorVms.add(j.index);
  console.log(
    `${short(series.name)}: ${starts.length} episode starts; CPU of the hour before >= 2x the day's: ${hits} of ${before.length}; same rise in quiet hours: ${alarms} of ${quietHours}; starts whose hour of day (+-1 h) saw a start on the last 7 days: ${hourSeen}`,
  );
}
const withPrecursor = tailor.map((t, i) => (precursorVms.has(i) ? oracle[i]! : t));
console.log(
  `VMs whose CPU warns of >= 70% of episode starts with <= 5% false alarms, managed as oracle-rules: ${[...precursorVms].map((i) => short(trace.containers[i]!.name)).join(', ') || 'none'}: memory slack ${ratio(withPrecursor)} x vpa at best`,
);
