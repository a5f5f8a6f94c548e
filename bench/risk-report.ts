/**
 * The "at equal risk" report of `bench:quality` (issue 33): per trace, vpa's swept settings
 * (bench/vpa-sweep.ts), the default strategy and `oracle-rules` as figures; from them the
 * comparison at equal risk (bench/risk-frontier.ts), a text for the console, the section of
 * docs/quality.md and one SVG per trace and resource. Everything here is a pure function of the
 * saved figures (docs/images/quality-risk.json), so `npm run docs:quality-curves` redraws the page
 * from a run's figures and a test checks the page against them.
 */
import type { QualityFigures, QualityTally } from '../src/replay/quality-tally.ts';
import { lowerFrontier, slackAtRisk, type Interval, type RiskPoint, type SlackAtRisk } from './risk-frontier.ts';

/** The strategy the README's claims are about: the default of every command (decision 0276). */
export const DEFAULT_STRATEGY = 'tailor-low-churn';
/** The strategies set against vpa's curve. */
export const COMPARED = [DEFAULT_STRATEGY, 'oracle-rules'] as const;

/** The figures a risk comparison needs; null where the trace has no such figure (no memory). */
export interface PointFigures {
  cpuSlack: number | null;
  cpuShortfall: number | null;
  memSlack: number | null;
  ooms: number | null;
  /** Container-days with an OOM kill, % (100 - OOM-free days %). */
  oomDays: number | null;
}

export function pointFigures(f: QualityFigures): PointFigures {
  const memory = f.memory.slackPct !== null;
  return {
    cpuSlack: f.cpu.slackPct,
    cpuShortfall: f.cpu.shortfallPct,
    memSlack: f.memory.slackPct,
    ooms: memory ? f.memory.ooms : null,
    oomDays: f.memory.oomFreeDaysPct === null ? null : 100 - f.memory.oomFreeDaysPct,
  };
}

/** A slack-versus-risk plane. */
export interface Axis {
  id: 'cpu' | 'memory' | 'memory-days';
  resource: string;
  riskName: string;
  slackName: string;
  risk(f: PointFigures): number | null;
  slack(f: PointFigures): number | null;
  /** Draw risk on a log(1 + x) scale (OOM kills span orders of magnitude). */
  logRisk: boolean;
  /** Digits of a risk figure. */
  riskDigits: number;
}

// One row per line, read as a table:
// prettier-ignore
export const AXES: readonly Axis[] = [
  { id: 'cpu', resource: 'CPU', riskName: 'CPU shortfall %', slackName: 'CPU slack %', risk: (f) => f.cpuShortfall, slack: (f) => f.cpuSlack, logRisk: false, riskDigits: 2 },
  { id: 'memory', resource: 'memory', riskName: 'OOM kills', slackName: 'memory slack %', risk: (f) => f.ooms, slack: (f) => f.memSlack, logRisk: true, riskDigits: 0 },
  { id: 'memory-days', resource: 'memory', riskName: 'days with an OOM kill %', slackName: 'memory slack %', risk: (f) => f.oomDays, slack: (f) => f.memSlack, logRisk: false, riskDigits: 2 },
];

/** The figures of vpa against which the default is compared "at vpa's defaults". */
export const DEFAULT_FIGURES: ReadonlyArray<[keyof PointFigures, string, number]> = [
  ['cpuSlack', 'CPU slack %', 1],
  ['cpuShortfall', 'CPU shortfall %', 2],
  ['memSlack', 'memory slack %', 1],
  ['ooms', 'OOM kills', 0],
  ['oomDays', 'days with an OOM kill %', 2],
];

/** One trace's figures, as the bench saves them. */
export interface TraceRisk {
  id: string;
  title: string;
  containers: number;
  /** vpa at each swept setting; `isDefault` marks upstream's defaults. */
  sweep: Array<{ label: string; isDefault: boolean; figures: PointFigures }>;
  /** The compared strategies' figures, by name. */
  strategies: Record<string, PointFigures>;
  /**
   * Paired-bootstrap intervals over containers: `<strategy>:<axis>` for the slack difference at
   * equal risk, `defaults:<figure>` for the default minus vpa at upstream's defaults.
   */
  intervals: Record<string, Interval | null>;
  /** The figures where the default is worse than vpa at upstream's defaults beyond the noise, and the containers behind them. */
  losses: Loss[];
}

/** Where the default loses against vpa at upstream's defaults: the containers behind a figure that is worse beyond the noise. */
export interface Loss {
  figure: keyof PointFigures;
  /** The containers that add most to the difference, largest first, with their share of the sum of the increases. */
  containers: Array<{ name: string; share: number }>;
}

/** The per-container sum behind each figure (the numerator: what the default adds to it). */
const PER_CONTAINER: Record<keyof PointFigures, (t: QualityTally) => number> = {
  cpuSlack: (t) => t.cpuSlackSum,
  cpuShortfall: (t) => t.cpuShortfallSum,
  memSlack: (t) => t.memorySlackSum,
  ooms: (t) => t.ooms,
  oomDays: (t) => t.oomDaySlots,
};

/**
 * The containers where the default adds most to `figure` over vpa (`own` and `vpa` in the same
 * container order): each container's increase of the figure's sum as a share of all increases, the
 * `top` largest. Worked number: increases 30, 10, and a decrease elsewhere give 75% and 25%.
 */
export function lossContainers(figure: keyof PointFigures, own: readonly QualityTally[], vpa: readonly QualityTally[], top = 5): Loss {
  const sum = PER_CONTAINER[figure];
  const up = own.map((t, i) => ({ name: t.name, more: sum(t) - sum(vpa[i]!) })).filter((c) => c.more > 0);
  const total = up.reduce((a, c) => a + c.more, 0);
  up.sort((a, b) => b.more - a.more);
  return { figure, containers: up.slice(0, top).map((c) => ({ name: c.name, share: c.more / total })) };
}

/** The whole saved run. */
export interface RiskRun {
  /** How the figures were made (the command and the bootstrap), for the page. */
  command: string;
  resamples: number;
  traces: TraceRisk[];
}

/** vpa's points on `axis`. */
export function vpaPoints(sweep: TraceRisk['sweep'], axis: Axis): RiskPoint[] {
  return sweep.flatMap((s) => {
    const risk = axis.risk(s.figures);
    const slack = axis.slack(s.figures);
    return risk === null || slack === null ? [] : [{ risk, slack, label: s.label }];
  });
}

/** A strategy against vpa's curve on one axis. */
export interface Comparison {
  risk: number;
  slack: number;
  vpa: SlackAtRisk;
  /** slack - vpa's slack at the same risk, percentage points; null outside the swept range. */
  difference: number | null;
}

/** `f` against vpa's swept points on `axis`; null when the trace has no such figures. */
export function compareAtRisk(sweep: TraceRisk['sweep'], f: PointFigures, axis: Axis): Comparison | null {
  const risk = axis.risk(f);
  const slack = axis.slack(f);
  const points = vpaPoints(sweep, axis);
  if (risk === null || slack === null || points.length === 0) return null;
  const vpa = slackAtRisk(points, risk);
  return { risk, slack, vpa, difference: vpa.kind === 'outside' ? null : slack - vpa.slack };
}

/** True when `c` takes less risk than every vpa setting and has less slack than vpa's least-risk one: it beats that setting on both. */
export function beatsLeastRisk(c: Comparison): boolean {
  return c.vpa.kind === 'outside' && c.vpa.side === 'below' && c.vpa.least !== undefined && c.slack < c.vpa.least.slack;
}

/** The statistics the bootstrap resamples (keys as in {@link TraceRisk.intervals}). */
export function riskStatistics(sweep: TraceRisk['sweep'], strategies: Record<string, PointFigures>): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const name of COMPARED) {
    const f = strategies[name];
    if (f === undefined) continue;
    for (const axis of AXES) out.set(`${name}:${axis.id}`, compareAtRisk(sweep, f, axis)?.difference ?? null);
  }
  const own = strategies[DEFAULT_STRATEGY];
  const vpa = sweep.find((s) => s.isDefault)?.figures;
  if (own !== undefined && vpa !== undefined) {
    for (const [key] of DEFAULT_FIGURES) {
      const a = own[key];
      const b = vpa[key];
      out.set(`defaults:${key}`, a === null || b === null ? null : a - b);
    }
  }
  return out;
}

function fixed(v: number | null, digits: number): string {
  return v === null ? '-' : v.toFixed(digits);
}

function signed(v: number, digits: number): string {
  return `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(digits)}`;
}

function interval(i: Interval | null | undefined, digits: number): string {
  if (i === null || i === undefined) return 'n/a';
  return `[${signed(i.low, digits)}, ${signed(i.high, digits)}]`;
}

/** What vpa's cell says: its interpolated slack and the settings either side, or why there is none. */
function vpaCell(c: Comparison, axis: Axis): string {
  const v = c.vpa;
  if (v.kind === 'outside') {
    const range = `outside the sweep (${v.side === 'below' ? 'less risk than any' : 'more risk than every'} vpa setting: ${fixed(v.min, axis.riskDigits)}-${fixed(v.max, axis.riskDigits)})`;
    const least = v.least;
    return beatsLeastRisk(c) && least !== undefined ? `${range}; vpa's least-risk setting ${least.label} has ${least.slack.toFixed(1)}` : range;
  }
  const between = v.below === v.above ? `at ${v.below.label}` : `between ${v.below.label} and ${v.above.label}`;
  return `${v.slack.toFixed(1)} (${v.kind === 'flat' ? `${v.below.label}, which takes less risk` : between})`;
}

/** One row per trace, axis and strategy (vpa's defaults first), for the page and the console. */
export function equalRiskRows(run: RiskRun): string[][] {
  const rows: string[][] = [];
  for (const trace of run.traces) {
    const vpaDefault = trace.sweep.find((s) => s.isDefault);
    for (const axis of AXES) {
      if (vpaDefault === undefined || axis.risk(vpaDefault.figures) === null) continue;
      rows.push([
        trace.title,
        axis.resource,
        axis.riskName,
        'vpa (upstream defaults)',
        fixed(axis.risk(vpaDefault.figures), axis.riskDigits),
        fixed(axis.slack(vpaDefault.figures), 1),
        '',
        '',
        '',
      ]);
      for (const name of COMPARED) {
        const f = trace.strategies[name];
        const c = f === undefined ? null : compareAtRisk(trace.sweep, f, axis);
        if (c === null) continue;
        const key = `${name}:${axis.id}`;
        const strategy = name === DEFAULT_STRATEGY ? `**${name}** (default)` : name;
        rows.push([
          '',
          '',
          '',
          strategy,
          c.risk.toFixed(axis.riskDigits),
          c.slack.toFixed(1),
          vpaCell(c, axis),
          c.difference === null ? '-' : signed(c.difference, 1),
          c.difference === null ? '-' : interval(trace.intervals[key], 1),
        ]);
      }
    }
  }
  return rows;
}

export const EQUAL_RISK_HEADERS = [
  'trace',
  'resource',
  'risk measure',
  'strategy',
  'risk',
  'slack %',
  "vpa's slack % at that risk",
  'difference (pp)',
  '95% interval',
];

/** One row per trace and figure: the default against vpa at upstream's defaults, with the interval. */
export function atDefaultsRows(run: RiskRun): string[][] {
  const rows: string[][] = [];
  for (const trace of run.traces) {
    const vpa = trace.sweep.find((s) => s.isDefault)?.figures;
    const own = trace.strategies[DEFAULT_STRATEGY];
    if (vpa === undefined || own === undefined) continue;
    let first = true;
    for (const [key, label, digits] of DEFAULT_FIGURES) {
      const a = own[key];
      const b = vpa[key];
      if (a === null || b === null) continue;
      const i = trace.intervals[`defaults:${key}`];
      // Less is better for every figure here: an interval above 0 is a loss beyond the noise.
      const verdict = i === null || i === undefined ? '' : i.low > 0 ? ' worse' : i.high < 0 ? ' better' : ' within the noise';
      rows.push([first ? trace.title : '', label, b.toFixed(digits), a.toFixed(digits), signed(a - b, digits), `${interval(i, digits)}${verdict}`]);
      first = false;
    }
  }
  return rows;
}

export const AT_DEFAULTS_HEADERS = ['trace', 'figure', 'vpa (upstream defaults)', `${DEFAULT_STRATEGY} (default)`, 'difference', '95% interval'];

/** A Markdown table. */
export function markdownTable(headers: readonly string[], rows: readonly string[][]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A fixed-width text table (bold marks dropped). */
export function textTable(headers: readonly string[], rows: readonly string[][]): string {
  const lines = [headers, ...rows].map((r) => r.map((c) => c.replaceAll('**', '')));
  const widths = headers.map((_, c) => Math.max(...lines.map((l) => (l[c] ?? '').length)));
  return lines
    .map((l) =>
      l
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The file name of a trace's picture on one axis, in docs/images/. */
export function curveFileName(trace: TraceRisk, axis: Axis): string {
  return `quality-risk-${trace.id}-${axis.id}.svg`;
}

/** The axes drawn for a trace: CPU and memory against OOM kills, where the trace has them. */
export function drawnAxes(trace: TraceRisk): Axis[] {
  return AXES.filter((a) => a.id !== 'memory-days' && vpaPoints(trace.sweep, a).length > 0);
}

/** Round tick values for [min, max]: steps of 1, 2 or 5 x 10^k, about `count` of them. Worked number: 0-48 gives 0, 10, ..., 40. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function esc(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * One SVG: vpa's swept points (grey), their lower frontier (blue line), vpa at upstream's defaults
 * (ringed), the default strategy (red square) and oracle-rules (green triangle); risk across,
 * slack up. Plain SVG text, the same bytes for the same figures.
 */
export function curveSvg(trace: TraceRisk, axis: Axis): string {
  const W = 640,
    H = 460,
    L = 64,
    R = 20,
    T = 40,
    B = 96;
  const points = vpaPoints(trace.sweep, axis);
  const frontier = lowerFrontier(points);
  const others = COMPARED.flatMap((name) => {
    const f = trace.strategies[name];
    const risk = f === undefined ? null : axis.risk(f);
    const slack = f === undefined ? null : axis.slack(f);
    return risk === null || slack === null ? [] : [{ name, risk, slack }];
  });
  const all = [...points, ...others];
  const tx = (v: number) => (axis.logRisk ? Math.log10(1 + v) : v);
  const maxRisk = Math.max(...all.map((p) => p.risk));
  const xMax = tx(maxRisk) * 1.05 || 1;
  const slacks = all.map((p) => p.slack);
  const yMin = Math.max(0, Math.floor((Math.min(...slacks) - 5) / 10) * 10);
  const yMax = Math.min(100, Math.ceil((Math.max(...slacks) + 5) / 10) * 10);
  const x = (risk: number) => L + (tx(risk) / xMax) * (W - L - R);
  const y = (slack: number) => T + (1 - (slack - yMin) / (yMax - yMin)) * (H - T - B);
  const n = (v: number) => v.toFixed(1);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="${L}" y="22" font-size="14" font-weight="bold">${esc(`${trace.title}: ${axis.slackName} against ${axis.riskName}`)}</text>`);
  const xTicks = axis.logRisk ? [0, 1, 10, 100, 1000, 10000, 100000].filter((v) => tx(v) <= xMax) : niceTicks(0, maxRisk * 1.05);
  for (const v of xTicks) {
    out.push(`<line x1="${n(x(v))}" y1="${T}" x2="${n(x(v))}" y2="${H - B}" stroke="#eee"/>`);
    out.push(`<text x="${n(x(v))}" y="${H - B + 16}" text-anchor="middle">${v}</text>`);
  }
  for (const v of niceTicks(yMin, yMax)) {
    out.push(`<line x1="${L}" y1="${n(y(v))}" x2="${W - R}" y2="${n(y(v))}" stroke="#eee"/>`);
    out.push(`<text x="${L - 6}" y="${n(y(v) + 4)}" text-anchor="end">${v}</text>`);
  }
  out.push(`<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#888"/>`);
  out.push(`<text x="${(L + W - R) / 2}" y="${H - B + 34}" text-anchor="middle">${esc(axis.riskName)}${axis.logRisk ? ' (log scale)' : ''}</text>`);
  out.push(`<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">${esc(axis.slackName)}</text>`);
  // The line is the interpolation the comparison uses: linear in risk, so on a log axis each segment is drawn as the curve it is.
  const line = frontier.flatMap((p, i) => {
    const next = frontier[i + 1];
    if (next === undefined || !axis.logRisk) return [p];
    return Array.from({ length: 16 }, (_, k) => ({ risk: p.risk + ((next.risk - p.risk) * k) / 16, slack: p.slack + ((next.slack - p.slack) * k) / 16 }));
  });
  if (frontier.length > 1)
    out.push(`<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${line.map((p) => `${n(x(p.risk))},${n(y(p.slack))}`).join(' ')}"/>`);
  for (const p of points)
    out.push(
      `<circle cx="${n(x(p.risk))}" cy="${n(y(p.slack))}" r="3.5" fill="#999"><title>${esc(`vpa ${p.label}: ${p.risk.toFixed(axis.riskDigits)}, ${p.slack.toFixed(1)}`)}</title></circle>`,
    );
  const vpaDefault = trace.sweep.find((s) => s.isDefault);
  const dr = vpaDefault === undefined ? null : axis.risk(vpaDefault.figures);
  const ds = vpaDefault === undefined ? null : axis.slack(vpaDefault.figures);
  if (dr !== null && ds !== null) out.push(`<circle cx="${n(x(dr))}" cy="${n(y(ds))}" r="7" fill="none" stroke="#333" stroke-width="1.5"/>`);
  for (const o of others) {
    const cx = x(o.risk),
      cy = y(o.slack);
    const shape =
      o.name === DEFAULT_STRATEGY
        ? `<rect x="${n(cx - 5)}" y="${n(cy - 5)}" width="10" height="10" fill="#d62728">`
        : `<polygon points="${n(cx)},${n(cy - 6)} ${n(cx - 6)},${n(cy + 5)} ${n(cx + 6)},${n(cy + 5)}" fill="#2ca02c">`;
    out.push(
      `${shape}<title>${esc(`${o.name}: ${o.risk.toFixed(axis.riskDigits)}, ${o.slack.toFixed(1)}`)}</title>${o.name === DEFAULT_STRATEGY ? '</rect>' : '</polygon>'}`,
    );
  }
  const legend: Array<[string, string]> = [
    ['<circle cx="6" cy="-4" r="3.5" fill="#999"/>', 'vpa, swept settings'],
    ['<line x1="0" y1="-4" x2="12" y2="-4" stroke="#1f77b4" stroke-width="2"/>', "vpa's lower frontier"],
    ['<circle cx="6" cy="-4" r="7" fill="none" stroke="#333" stroke-width="1.5"/>', 'vpa, upstream defaults'],
    ['<rect x="1" y="-9" width="10" height="10" fill="#d62728"/>', `${DEFAULT_STRATEGY} (default)`],
    ['<polygon points="6,-10 0,1 12,1" fill="#2ca02c"/>', 'oracle-rules'],
  ];
  // Under the plot, out of the data's way: vpa's three marks on one row, the compared strategies on the next.
  legend.forEach(([mark, text], i) => {
    const row = i < 3 ? 0 : 1;
    const col = i < 3 ? i : i - 3;
    out.push(`<g transform="translate(${L + col * 190} ${H - 32 + row * 20})">${mark}<text x="18" y="0">${esc(text)}</text></g>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** The page of the figures. */
export const QUALITY_PAGE = 'docs/quality.md';
/** Where the bench saves the figures and the pictures go. */
export const RISK_FIGURES = 'docs/images/quality-risk.json';
export const IMAGES_DIR = 'docs/images';
const START =
  '<!-- at-equal-risk:start (generated by npm run bench:quality -- --write-docs from docs/images/quality-risk.json; npm run docs:quality-curves redraws it; do not edit by hand) -->';
const END = '<!-- at-equal-risk:end -->';

/** Notes on the comparison, read off the figures: where the default's risk is outside vpa's sweep, and where it has more slack. */
export function riskNotes(run: RiskRun): string[] {
  const notes: string[] = [];
  for (const trace of run.traces) {
    for (const loss of trace.losses) {
      const label = DEFAULT_FIGURES.find(([key]) => key === loss.figure)?.[1] ?? loss.figure;
      const who = loss.containers.map((c) => `${c.name} ${(100 * c.share).toFixed(0)}%`).join(', ');
      notes.push(
        `${trace.title}: the default's ${label} is worse than vpa's at upstream's defaults beyond the noise; the containers that add most to it (share of the increase): ${who}.`,
      );
    }
    const f = trace.strategies[DEFAULT_STRATEGY];
    if (f === undefined) continue;
    for (const axis of AXES) {
      const c = compareAtRisk(trace.sweep, f, axis);
      if (c === null) continue;
      if (c.difference === null && beatsLeastRisk(c) && c.vpa.kind === 'outside' && c.vpa.least !== undefined) {
        const least = c.vpa.least;
        notes.push(
          `${trace.title}, ${axis.resource} against ${axis.riskName}: the default takes less risk (${c.risk.toFixed(axis.riskDigits)}) than any swept vpa setting, so there is no vpa figure at equal risk (no extrapolation); it has less slack (${c.slack.toFixed(1)}%) than even vpa's least-risk setting, ${least.label} (${least.risk.toFixed(axis.riskDigits)}, ${least.slack.toFixed(1)}%): it beats that setting on both.`,
        );
      } else if (c.difference === null)
        notes.push(
          `${trace.title}, ${axis.resource} against ${axis.riskName}: the default's risk (${c.risk.toFixed(axis.riskDigits)}) is outside vpa's swept range, so there is no vpa figure at equal risk (no extrapolation).`,
        );
      else if (c.difference > 0) {
        const i = trace.intervals[`${DEFAULT_STRATEGY}:${axis.id}`];
        const noise = i === null || i === undefined ? '' : i.low > 0 ? ', beyond the noise' : ', within the noise';
        notes.push(
          `${trace.title}, ${axis.resource} against ${axis.riskName}: the default has ${c.difference.toFixed(1)} points more slack than vpa at equal risk${noise}.`,
        );
      }
    }
  }
  return notes;
}

/** The block between the page's markers. */
export function riskSection(run: RiskRun): string {
  const images = run.traces.flatMap((t) => drawnAxes(t).map((a) => `![${t.title}: ${a.slackName} against ${a.riskName}](images/${curveFileName(t, a)})`));
  const notes = riskNotes(run);
  return [
    `Generated from one run of \`${run.command}\`. vpa is replayed at each of its swept settings (target percentile`,
    'p, safety margin m, OOM bump: bench/vpa-sweep.ts); its lower frontier is the least slack it reached at each risk;',
    '"vpa\'s slack at that risk" is the frontier interpolated linearly at the strategy\'s own risk, between the two swept',
    "settings either side (past the frontier's riskiest point, that point: more risk bought vpa no less slack there). A",
    'risk outside the swept range gets no vpa figure. A negative difference is less slack than vpa at the same risk.',
    `The 95% intervals are a paired bootstrap over containers (${run.resamples} resamples, the same containers for every`,
    'strategy and setting): the replay is deterministic, so the only noise is which containers a trace happens to hold.',
    '',
    markdownTable(EQUAL_RISK_HEADERS, equalRiskRows(run)),
    '',
    "Against vpa at upstream's defaults (a negative difference is less of the figure; for every figure here less is better):",
    '',
    markdownTable(AT_DEFAULTS_HEADERS, atDefaultsRows(run)),
    '',
    ...(notes.length === 0 ? ['The default has no more slack than vpa at equal risk on any trace where the risks overlap.'] : notes.map((n) => `- ${n}`)),
    '',
    ...images.flatMap((i) => [i, '']),
  ]
    .join('\n')
    .trimEnd();
}

/** `page` with `block` between its markers; an error when the page has none. */
export function withRiskSection(page: string, block: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${QUALITY_PAGE} has no ${START} ... ${END} markers`);
  return `${page.slice(0, start)}${START}\n${block}\n${page.slice(end)}`;
}

/** Every generated file: path from the repository's root and contents (the page is given, to fill in). */
export function riskOutputs(run: RiskRun, page: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const trace of run.traces) for (const axis of drawnAxes(trace)) files.set(`${IMAGES_DIR}/${curveFileName(trace, axis)}`, curveSvg(trace, axis));
  files.set(QUALITY_PAGE, withRiskSection(page, riskSection(run)));
  return files;
}
