/**
 * `npm run render:dashboard`: the pictures of the Grafana dashboard in docs/dashboard.md, without a browser.
 * Runs the dashboard test's setup (kube-sim, Tailor in-process, a real Prometheus scraping both:
 * src/dashboard/dashboard-lab.ts) for about 100 s, runs each chosen panel's queries from
 * manifests/monitoring/grafana-dashboard.json over that range (variables resolved as Grafana does),
 * draws them with Vega-Lite (scripts/dashboard-chart.ts) and rasterizes the SVG with resvg to
 * docs/images/dashboard-*.png. Needs Prometheus (installed with apt when missing) and Debian's
 * fonts-dejavu-core.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { DASHBOARD_FILE } from '../src/dashboard/dashboard-file.ts';
import { LAB_NAMESPACE, startDashboardLab, waitForLabEvents } from '../src/dashboard/dashboard-lab.ts';
import { legendOf, panelQueries, substitute } from '../src/dashboard/panel-targets.ts';
import { labelValues, rangeQuery } from '../src/dashboard/prometheus-api.ts';
import { gridSpec, type PanelChart } from './dashboard-chart.ts';

/** A panel to draw: its title in the dashboard, the workload selected for it, the unit drawn. */
interface PanelChoice {
  title: string;
  workload?: string;
  unit: string;
}

const IMAGES: Array<{ file: string; columns: number; panels: PanelChoice[] }> = [
  {
    file: 'dashboard-workload.png',
    columns: 2,
    panels: [
      { title: 'CPU: usage, requests, limits and recommendation', workload: 'web', unit: 'cores' },
      { title: 'Memory: working set, requests, limits and recommendation', workload: 'hog', unit: 'bytes' },
      { title: 'CPU savings by workload', unit: 'cores' },
      { title: 'Memory savings by workload', unit: 'bytes' },
    ],
  },
  {
    file: 'dashboard-updater.png',
    columns: 2,
    panels: [
      { title: 'Resizes by path and outcome', unit: 'short' },
      { title: 'Evictions and fallbacks', unit: 'short' },
      { title: 'OOM kills', unit: 'short' },
      { title: 'Updater actions', unit: 'short' },
    ],
  },
  {
    file: 'dashboard-tailor.png',
    columns: 3,
    panels: [
      { title: 'Loop cycle latency', unit: 's' },
      { title: 'Prometheus queries by outcome', unit: 'short' },
      { title: 'Admission webhook requests', unit: 'short' },
      { title: 'Loop cycles and errors', unit: 'short' },
      { title: 'Leader', unit: 'none' },
      { title: 'Tracked VPAs and containers', unit: 'short' },
    ],
  },
];

const OUT_DIR = new URL('../docs/images/', import.meta.url);
const RUN_SECONDS = 100;
const STEP_SECONDS = 2;
const RATE_INTERVAL = '10s';

/** The one font used (Debian's fonts-dejavu-core), so renders do not depend on the machine's other fonts. */
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) => `/usr/share/fonts/truetype/dejavu/${f}`);

function svgToPng(svg: string): Buffer {
  const resvg = new Resvg(svg, { background: 'white', font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' } });
  return resvg.render().asPng();
}

async function main(): Promise<void> {
  const missingFonts = FONT_FILES.filter((f) => !existsSync(f));
  if (missingFonts.length > 0) throw new Error(`fonts missing: ${missingFonts.join(', ')} (apt-get install fonts-dejavu-core)`);
  const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Parameters<typeof panelQueries>[0];
  const queries = panelQueries(dashboard);
  const lab = await startDashboardLab();
  try {
    const missing = await waitForLabEvents(lab, lab.startedAt + 150_000);
    if (missing.length > 0) throw new Error(`the scenario's events did not all happen: ${missing.join(', ')}`);
    const end = lab.startedAt + RUN_SECONDS * 1000;
    if (Date.now() < end) await new Promise((r) => setTimeout(r, end - Date.now()));
    const url = lab.prometheus.url;
    const containers = await labelValues(url, 'container', `tailor_vpa_recommendation{namespace="${LAB_NAMESPACE}"}`);
    mkdirSync(OUT_DIR, { recursive: true });
    for (const image of IMAGES) {
      const charts: PanelChart[] = [];
      for (const choice of image.panels) {
        const values = { namespace: LAB_NAMESPACE, workload: choice.workload ?? '', container: containers };
        const series = [];
        for (const q of queries.filter((x) => x.panel === choice.title)) {
          const expr = substitute(q.expr, values, { __rate_interval: RATE_INTERVAL, __interval: `${STEP_SECONDS}s` });
          for (const s of await rangeQuery(url, expr, Math.floor(lab.startedAt / 1000), Math.floor(Date.now() / 1000), STEP_SECONDS)) {
            series.push({ name: legendOf(q.legendFormat, s.metric), points: s.values });
          }
        }
        if (series.length === 0) throw new Error(`panel ${choice.title} has no data`);
        charts.push({ title: choice.workload ? `${choice.title} (${LAB_NAMESPACE}/${choice.workload})` : choice.title, unit: choice.unit, series });
      }
      const spec = compile(gridSpec(charts, image.columns, image.columns === 3 ? 300 : 440, 170)).spec;
      const view = new vega.View(vega.parse(spec), { renderer: 'none' });
      const png = svgToPng(await view.toSVG());
      view.finalize();
      const file = new URL(image.file, OUT_DIR);
      writeFileSync(file, png);
      console.log(`wrote docs/images/${image.file} (${Math.round(png.length / 1024)} KiB)`);
    }
  } finally {
    await lab.stop();
  }
}

await main();
