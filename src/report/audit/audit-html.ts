/**
 * The audit as one self-contained HTML page: no script, no external style sheet, font or image.
 * A summary of the totals and their change since the previous report, a table of the workload
 * containers (under-provisioned first, then over-provisioned by waste) with requests,
 * recommendations, waste, shortfall and their trend, and per workload container two inline SVG
 * charts (CPU and memory: peak usage against the request and the recommendation over the window).
 * Every text from the cluster is escaped with escape-html.
 */
import escapeHtml from 'escape-html';
import { cpuText, memoryHuman, signed } from '../report-quantities.ts';
import { strategyChangeNote, type AuditReport, type ResourceAudit, type ResourceTrend, type Totals, type WorkloadAudit } from './audit-report.ts';
import { usageChart } from './usage-chart.ts';

const esc = (v: string | number | null | undefined) => escapeHtml(v === null || v === undefined ? '-' : String(v));

type Resource = 'cpu' | 'memory';
const quantity = (r: Resource, v: number | null) => (v === null ? null : r === 'cpu' ? cpuText(Math.round(v)) : memoryHuman(v));
const change = (r: Resource, v: number | null) => (v === null ? null : signed(r === 'cpu' ? Math.round(v) : v, (x) => quantity(r, x)));

const STYLE = `body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right;vertical-align:top}
th{background:#f3f3f3}td.name{text-align:left}.under{color:#b00020}.over{color:#8a5a00}.fit{color:#2e7d32}
svg .frame{fill:#fafafa;stroke:#ddd}svg .usage{fill:none;stroke:#1565c0;stroke-width:1.2}
svg .request{stroke:#555;stroke-dasharray:4 3}svg .scale{font-size:9px;fill:#777}svg .target{stroke:#2e7d32;stroke-width:1.5}
.not-comparable{color:#b00020}.legend span{margin-right:1.2em}.swatch{display:inline-block;width:1.6em;height:0;vertical-align:middle;margin-right:.3em}`;

function totalsTable(report: AuditReport): string {
  const t = report.totals;
  const row = (r: Resource, k: keyof Totals) => {
    const delta = t.trend ? `<td class="trend">${esc(change(r, t.trend[r][k]))}</td>` : '';
    return `<tr><th>${r} ${k}</th><td>${esc(quantity(r, t[r][k]))}</td>${delta}</tr>`;
  };
  const changed = strategyChangeNote(report);
  const since = `since ${esc(report.previous?.generatedAt)}${changed ? `<br><span class="not-comparable">${esc(changed)}</span>` : ''}`;
  const head = `<tr><th></th><th>now</th>${t.trend ? `<th>${since}</th>` : ''}</tr>`;
  return `<table id="totals">${head}${row('cpu', 'waste')}${row('cpu', 'shortfall')}${row('memory', 'waste')}${row('memory', 'shortfall')}</table>`;
}

function cells(r: Resource, a: ResourceAudit, trend: ResourceTrend | null, withTrend: boolean): string {
  const out = [quantity(r, a.request), quantity(r, a.target), quantity(r, a.waste), quantity(r, a.shortfall)].map((v) => `<td>${esc(v)}</td>`);
  if (withTrend) out.push(...[trend?.waste ?? null, trend?.shortfall ?? null, trend?.target ?? null].map((v) => `<td class="trend">${esc(change(r, v))}</td>`));
  return out.join('');
}

function workloadRow(w: WorkloadAudit, withTrend: boolean): string {
  const name = `${w.namespace}/${w.workload.kind}/${w.workload.name} ${w.container}`;
  const notes = [...(w.trend?.new ? ['new since the previous report'] : []), ...(w.confidence === 'low' ? ['low confidence'] : []), ...w.notes.filter((n) => !n.startsWith('low confidence'))];
  const chart = (r: Resource) => usageChart({ usage: w.usage?.[r] ?? [], request: w[r].request, target: w[r].target, label: esc(`${r} of ${name}`), topText: (top) => esc(quantity(r, top)) });
  return (
    `<tr data-workload="${esc(`${w.namespace}/${w.workload.kind}/${w.workload.name}/${w.container}`)}" data-verdict="${w.verdict}">` +
    `<td class="name">${esc(w.namespace)}</td><td class="name">${esc(`${w.workload.kind}/${w.workload.name}`)}</td><td class="name">${esc(w.container)}</td>` +
    `<td>${w.pods}</td><td class="${w.verdict}">${w.verdict}</td>` +
    cells('cpu', w.cpu, w.trend?.cpu ?? null, withTrend) +
    cells('memory', w.memory, w.trend?.memory ?? null, withTrend) +
    `<td class="chart">${chart('cpu')}</td><td class="chart">${chart('memory')}</td>` +
    `<td class="name">${esc(notes.join('; ') || null)}</td></tr>`
  );
}

/** The page. */
export function renderAuditHtml(report: AuditReport): string {
  const withTrend = report.previous !== null;
  const per = ['request', 'recommendation', 'waste', 'shortfall', ...(withTrend ? ['Δ waste', 'Δ shortfall', 'Δ recommendation'] : [])];
  const head = ['namespace', 'workload', 'container', 'pods', 'verdict', ...per.map((h) => `cpu ${h}`), ...per.map((h) => `memory ${h}`), 'cpu usage', 'memory usage', 'notes'];
  const counts = report.totals.workloads;
  const changed = strategyChangeNote(report);
  const since = report.previous
    ? `Changes (Δ) are since the report of ${esc(report.previous.generatedAt)} (${esc(report.previous.source)}).${changed ? ` <strong class="not-comparable">${esc(changed)}</strong> (a Δ mixes the change of strategy with the change of the workloads).` : ''}`
    : 'No previous report: no trend this time.';
  const gone = report.gone.length === 0 ? '' : `<h2>Gone since the previous report</h2><ul id="gone">${report.gone.map((g) => `<li>${esc(`${g.namespace}/${g.workload.kind}/${g.workload.name} ${g.container}`)}</li>`).join('')}</ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tailor audit ${esc(report.generatedAt)}</title>
<style>${STYLE}</style></head>
<body><h1>Tailor audit</h1>
<p id="summary">${esc(report.generatedAt)}: history ${esc(report.window.start)} to ${esc(report.window.end)}, strategy ${esc(report.strategy)}.
${counts.under} under-provisioned, ${counts.over} over-provisioned, ${counts.fit} fit, ${counts.unknown} without a request or recommendation. ${since}</p>
<p>Waste is the request above the recommendation times the pods; shortfall the recommendation above the request times the pods. Totals leave out rows of low confidence.</p>
${totalsTable(report)}
<p class="legend"><span><i class="swatch" style="border-top:2px solid #1565c0"></i>peak usage</span><span><i class="swatch" style="border-top:2px dashed #555"></i>request</span><span><i class="swatch" style="border-top:2px solid #2e7d32"></i>recommendation</span></p>
<table id="workloads"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${report.workloads.map((w) => workloadRow(w, withTrend)).join('\n')}
</tbody></table>
${gone}
</body></html>
`;
}
