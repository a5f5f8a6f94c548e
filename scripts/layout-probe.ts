/**
 * Measuring a page's layout at a given width in a headless browser without a debugging protocol:
 * the page goes into an iframe of that width (`srcdoc`, so the frame is the parent's origin and
 * its media queries see the frame's width; a headless window is at least 500 px wide, a phone is
 * not), a script in the parent measures it once loaded and writes the numbers into an element,
 * `chromium --dump-dom` prints the DOM, and {@link measuredLayout} reads them back.
 */
import escapeHtml from 'escape-html';

/** What the probe measures, in CSS px. */
export interface Layout {
  /** The frame's width, the page's viewport. */
  clientWidth: number;
  /** The document's full width: above `clientWidth` when the page scrolls sideways. */
  scrollWidth: number;
  /** The workload table's width. */
  tableWidth: number;
  /** The `display` of the table's first numbers row: `table-row` side by side, `grid` stacked. */
  rowDisplay: string;
  /** The widest chart's width. */
  chartWidth: number;
  /** How far the widest of the page's own scrolling boxes (`.scroll`, around the tables) overflows (0: none scrolls). */
  boxOverflow: number;
}

/** A page that shows `html` in a frame `width` px wide and measures it. */
export function layoutProbe(html: string, width: number): string {
  return `<!doctype html><html><body style="margin:0">
<iframe id="page" style="width:${width}px;height:1000px;border:0" srcdoc="${escapeHtml(html)}"></iframe>
<pre id="layout-probe"></pre>
<script>document.getElementById('page').addEventListener('load',(e)=>{const doc=e.target.contentDocument;const d=doc.documentElement;
const t=doc.getElementById('workloads');const r=doc.querySelector('#workloads tr.numbers');
const charts=[...doc.querySelectorAll('figure svg')].map((s)=>s.getBoundingClientRect().width);
const boxes=[...doc.querySelectorAll('.scroll')].map((b)=>b.scrollWidth-b.clientWidth);
document.getElementById('layout-probe').textContent=JSON.stringify({clientWidth:d.clientWidth,scrollWidth:d.scrollWidth,
tableWidth:t?Math.round(t.getBoundingClientRect().width):0,rowDisplay:r?doc.defaultView.getComputedStyle(r).display:'',chartWidth:Math.round(Math.max(0,...charts)),boxOverflow:Math.max(0,...boxes)});});</script>
</body></html>`;
}

/** The probe's numbers from the dumped DOM. */
export function measuredLayout(dom: string): Layout {
  const m = /<pre id="layout-probe">([^<]+)<\/pre>/.exec(dom);
  if (!m) throw new Error('the layout probe wrote nothing (did the page load?)');
  return JSON.parse(m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as Layout;
}
