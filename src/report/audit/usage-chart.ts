/**
 * A small inline SVG chart of one resource of one workload container: the peak usage per bucket as
 * a line (broken where there was no sample), the request as a dashed line and the recommendation as
 * a solid one, on a scale from 0 to a little above the highest of them. Pure string building; the
 * caller's numbers are the only input and every one is formatted as a plain number.
 */

export interface ChartInput {
  /** Peak usage per bucket, null where no sample fell. */
  usage: readonly (number | null)[];
  request: number | null;
  target: number | null;
  /** Accessible name, e.g. "cpu of shop/Deployment/web app" (escaped by the caller). */
  label: string;
  /** The scale's top as text, e.g. `760m` (escaped by the caller); shown in the top left corner. */
  topText?: (top: number) => string;
}

export const CHART_WIDTH = 240;
export const CHART_HEIGHT = 60;
const PAD = 2;

const fmt = (v: number) => (Math.round(v * 10) / 10).toString();

/** The SVG path data of the usage line, one `M` per run of buckets with samples. */
export function usagePath(usage: readonly (number | null)[], top: number): string {
  const n = usage.length;
  const x = (i: number) => PAD + (n <= 1 ? 0 : (i * (CHART_WIDTH - 2 * PAD)) / (n - 1));
  const y = (v: number) => CHART_HEIGHT - PAD - (top <= 0 ? 0 : (v / top) * (CHART_HEIGHT - 2 * PAD));
  const parts: string[] = [];
  let open = false;
  usage.forEach((v, i) => {
    if (v === null) {
      open = false;
      return;
    }
    parts.push(`${open ? 'L' : 'M'}${fmt(x(i))} ${fmt(y(v))}`);
    open = true;
  });
  return parts.join(' ');
}

/** The scale's top: 10% above the highest of usage, request and recommendation (1 when all are 0). */
export function chartTop(input: Pick<ChartInput, 'usage' | 'request' | 'target'>): number {
  let top = 0;
  for (const v of [...input.usage, input.request, input.target]) if (v !== null && v > top) top = v;
  return top > 0 ? top * 1.1 : 1;
}

function level(v: number | null, top: number, cls: string): string {
  if (v === null) return '';
  const y = fmt(CHART_HEIGHT - PAD - (v / top) * (CHART_HEIGHT - 2 * PAD));
  return `<line class="${cls}" x1="${PAD}" x2="${CHART_WIDTH - PAD}" y1="${y}" y2="${y}"/>`;
}

/** The `<svg>` element; `label` must already be escaped for an attribute. */
export function usageChart(input: ChartInput): string {
  const top = chartTop(input);
  const d = usagePath(input.usage, top);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" role="img" aria-label="${input.label}">` +
    `<rect class="frame" x="0.5" y="0.5" width="${CHART_WIDTH - 1}" height="${CHART_HEIGHT - 1}"/>` +
    (d === '' ? '' : `<path class="usage" d="${d}"/>`) +
    level(input.request, top, 'request') +
    level(input.target, top, 'target') +
    (input.topText ? `<text class="scale" x="4" y="10">${input.topText(top)}</text>` : '') +
    `</svg>`
  );
}
