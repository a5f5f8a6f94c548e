/**
 * A small inline SVG chart of one resource of one workload container: the peak usage per bucket as
 * a line (broken where there was no sample; a bucket alone between gaps, or the only one, is a
 * dot, since a line of one point draws nothing), the request as a dashed line and the
 * recommendation as a solid one, on a scale from 0 to a little above the highest of them. The
 * texts (the scale's top, the times under the ends) sit in strips above and below the plot, so no
 * line crosses them. It has a viewBox and no fixed size: the page's CSS sizes it to its column.
 * Pure string building; the caller's numbers are the only input and every one is formatted as a
 * plain number.
 */

export interface ChartInput {
  /** Peak usage per bucket, null where no sample fell. */
  usage: readonly (number | null)[];
  request: number | null;
  target: number | null;
  /** Accessible name, e.g. "cpu of shop/Deployment/web app" (escaped by the caller). */
  label: string;
  /** The scale's top as text, e.g. `760m` (escaped by the caller); shown above the plot, on the left. */
  topText?: (top: number) => string;
  /** Texts under the plot's left and right ends, e.g. the first and last bucket's times (escaped by the caller). */
  xLabels?: { start: string; end: string };
}

export const CHART_WIDTH = 300;
export const CHART_HEIGHT = 86;
const PAD = 2;
/** The strip above the plot (the scale's top) and the one below it (the times). */
const TOP_STRIP = 13;
const BOTTOM_STRIP = 13;
const PLOT_TOP = TOP_STRIP;
const PLOT_BOTTOM = CHART_HEIGHT - BOTTOM_STRIP;
/** Radius of the dot drawn for a bucket without neighbours. */
export const POINT_RADIUS = 2.2;

const fmt = (v: number) => (Math.round(v * 10) / 10).toString();

/** The plot's y of a value on a scale from 0 to `top`. */
function yOf(v: number, top: number): number {
  return PLOT_BOTTOM - (top <= 0 ? 0 : (v / top) * (PLOT_BOTTOM - PLOT_TOP));
}

/** The plot's x of bucket `i` of `n` (the middle when there is one). */
function xOf(i: number, n: number): number {
  return n <= 1 ? CHART_WIDTH / 2 : PAD + (i * (CHART_WIDTH - 2 * PAD)) / (n - 1);
}

/** The SVG path data of the usage line, one `M` per run of buckets with samples. */
export function usagePath(usage: readonly (number | null)[], top: number): string {
  const n = usage.length;
  const parts: string[] = [];
  let open = false;
  usage.forEach((v, i) => {
    if (v === null) {
      open = false;
      return;
    }
    parts.push(`${open ? 'L' : 'M'}${fmt(xOf(i, n))} ${fmt(yOf(v, top))}`);
    open = true;
  });
  return parts.join(' ');
}

/** Dots for the buckets with a sample whose neighbours have none: a run of one point draws no line. */
export function usagePoints(usage: readonly (number | null)[], top: number): string {
  const n = usage.length;
  const dots: string[] = [];
  usage.forEach((v, i) => {
    if (v === null || (usage[i - 1] ?? null) !== null || (usage[i + 1] ?? null) !== null) return;
    dots.push(`<circle class="usage-point" cx="${fmt(xOf(i, n))}" cy="${fmt(yOf(v, top))}" r="${POINT_RADIUS}"/>`);
  });
  return dots.join('');
}

/** The scale's top: 10% above the highest of usage, request and recommendation (1 when all are 0). */
export function chartTop(input: Pick<ChartInput, 'usage' | 'request' | 'target'>): number {
  let top = 0;
  for (const v of [...input.usage, input.request, input.target]) if (v !== null && v > top) top = v;
  return top > 0 ? top * 1.1 : 1;
}

function level(v: number | null, top: number, cls: string): string {
  if (v === null) return '';
  const y = fmt(yOf(v, top));
  return `<line class="${cls}" x1="${PAD}" x2="${CHART_WIDTH - PAD}" y1="${y}" y2="${y}"/>`;
}

/** The `<svg>` element; `label` must already be escaped for an attribute. */
export function usageChart(input: ChartInput): string {
  const top = chartTop(input);
  const d = usagePath(input.usage, top);
  const below = CHART_HEIGHT - 3;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" role="img" aria-label="${input.label}">` +
    `<rect class="frame" x="0.5" y="${PLOT_TOP - 0.5}" width="${CHART_WIDTH - 1}" height="${PLOT_BOTTOM - PLOT_TOP + 1}"/>` +
    level(input.request, top, 'request') +
    level(input.target, top, 'target') +
    (d === '' ? '' : `<path class="usage" d="${d}"/>`) +
    usagePoints(input.usage, top) +
    (input.topText ? `<text class="scale" x="1" y="${TOP_STRIP - 3}">${input.topText(top)}</text>` : '') +
    (input.xLabels
      ? `<text class="scale" x="1" y="${below}">${input.xLabels.start}</text><text class="scale end" x="${CHART_WIDTH - 1}" y="${below}" text-anchor="end">${input.xLabels.end}</text>`
      : '') +
    `</svg>`
  );
}
