/**
 * The audit as one self-contained HTML page: no external script, style sheet, font or image (one
 * small inline script only for the copy buttons; the page reads the same without it). A header
 * with the history the data actually covered, the totals and their change since the previous
 * report, then one entry per workload container (under-provisioned first, then over-provisioned by
 * waste): a table row of requests, recommendations, waste and shortfall with their trend, and
 * below it two inline SVG charts (CPU and memory: peak usage against the request and the
 * recommendation), the notes, and the workload's recommended resources as YAML to copy. With
 * prices, a last column gives each row's monthly saving (negative: a cost) and the totals its sum.
 *
 * Responsive without fixed widths: at a laptop's 1280 px the table fits the page (eleven columns,
 * the trend under each figure rather than in columns of its own), on a phone each entry becomes a
 * stacked card with the column's name before each figure. Every text from the cluster is escaped.
 * Over several clusters each cluster's entries follow a heading row, each entry names its cluster,
 * and a table gives each cluster's totals and the clusters not reported (audit-html-clusters.ts).
 */
import escapeHtml from 'escape-html';
import { cpuText, memoryHuman, signed } from '../report-quantities.ts';
import { moneyText, pricesText } from '../money.ts';
import { strategyChangeNote, type AuditReport, type ResourceAudit, type ResourceTrend, type Totals, type WorkloadAudit } from './audit-report.ts';
import { usageChart } from './usage-chart.ts';
import { applyHint, hasRecommendation, workloadYaml, type WorkloadContainers } from './workload-yaml.ts';
import { clusterHeading, clustersSection } from './audit-html-clusters.ts';

const esc = (v: string | number | null | undefined) => escapeHtml(v === null || v === undefined ? '-' : String(v));

type Resource = 'cpu' | 'memory';
const quantity = (r: Resource, v: number | null) => (v === null ? null : r === 'cpu' ? cpuText(Math.round(v)) : memoryHuman(v));
const change = (r: Resource, v: number | null) => (v === null ? null : signed(r === 'cpu' ? Math.round(v) : v, (x) => quantity(r, x)));
const RESOURCE_NAME: Record<Resource, string> = { cpu: 'CPU', memory: 'memory' };

/** Below this width (px) the table becomes stacked cards. */
export const STACK_BELOW_PX = 1000;

const STYLE = `*{box-sizing:border-box}
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:1rem 1.25rem;color:#1f2328;max-width:1500px}
h1{font-size:1.5rem;margin:0 0 .3rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
p{margin:.4rem 0}.muted{color:#57606a}
.chips{display:flex;flex-wrap:wrap;gap:.4rem;margin:.6rem 0}
.not-comparable{color:#a40e26}
.chip{border-radius:1em;padding:.1em .7em;background:#eef0f2;white-space:nowrap}
.under{color:#a40e26}.over{color:#7d4e00}.fit{color:#1a7f37}.unknown,.low{color:#57606a}
.chip.under{background:#ffebe9}.chip.over{background:#fff1d6}.chip.fit{background:#dafbe1}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse}
#totals td,#totals th{border:1px solid #d0d7de;padding:2px 8px;text-align:right}
#totals th{background:#f6f8fa;text-align:left;font-weight:600}
#workloads{width:100%;font-size:13px}
#workloads th{background:#f6f8fa;font-weight:600;padding:4px 6px;border-bottom:1px solid #d0d7de;text-align:right;vertical-align:bottom}
#workloads th.name,#workloads th.group{text-align:left}#workloads th.group{border-bottom:none;padding-bottom:0}
#workloads td{padding:4px 6px;text-align:right;vertical-align:top}
#workloads td.num{white-space:nowrap;font-variant-numeric:tabular-nums}
#workloads td.name{text-align:left;overflow-wrap:anywhere;min-width:12em}
#workloads tbody{border-top:1px solid #d0d7de}
#workloads tr.numbers td{padding-top:.6rem}
#workloads tbody.cluster-group th{text-align:left;font-size:14px;padding:.9rem 6px .3rem}
.workload{font-weight:600;display:block}.where{color:#57606a;display:block}
td.verdict{font-weight:600}td.verdict small{display:block;font-weight:400}
.d{display:block;font-size:11px;color:#57606a}
tr.detail td{padding:.2rem 6px .9rem}
.detail-grid{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:flex-start;text-align:left}
figure{margin:0;flex:1 1 240px;max-width:380px;min-width:0}
figure svg{display:block;width:100%;height:auto}
.side{flex:1 1 260px;min-width:0}
svg .frame{fill:#fafbfc;stroke:#d8dee4}svg .usage{fill:none;stroke:#0969da;stroke-width:1.4;stroke-linejoin:round}
svg .usage-point{fill:#0969da}svg .request{stroke:#6e7781;stroke-dasharray:4 3;stroke-width:1.2}
svg .target{stroke:#1a7f37;stroke-width:1.6}svg .scale{font:9px system-ui,sans-serif;fill:#57606a}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem}
.swatch{display:inline-block;width:1.6em;height:0;vertical-align:middle;margin-right:.3em}
details.yaml summary{cursor:pointer;color:#0969da}
.code{margin-top:.3rem}.hint{display:flex;gap:.6rem;align-items:flex-start;justify-content:space-between;font-size:12px;color:#57606a;overflow-wrap:anywhere}
pre{margin:0;padding:.6rem .8rem;white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;overflow-x:auto;font-size:12px;line-height:1.35}
button.copy{flex:none;font:inherit;font-size:12px;padding:.1rem .6rem;border:1px solid #d0d7de;border-radius:6px;background:#fff;cursor:pointer}
@media (max-width:${STACK_BELOW_PX - 0.02}px){
body{padding:.75rem}
#workloads thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
#workloads,#workloads tbody,#workloads tr,#workloads td{display:block;width:auto}
#workloads tbody{border:1px solid #d0d7de;border-radius:8px;margin:0 0 .9rem;padding:.3rem 0}
#workloads tr.numbers{display:grid;grid-template-columns:1fr 1fr;column-gap:.75rem}
#workloads tr.numbers td{padding:.2rem .6rem;text-align:left;white-space:normal}
#workloads td.name{grid-column:1/-1;font-size:14px}
#workloads td[data-label]::before{content:attr(data-label);display:block;font-size:11px;color:#57606a}
#workloads td.name::before{display:none!important}
figure{max-width:none}
}
@media (min-width:600px) and (max-width:${STACK_BELOW_PX - 0.02}px){
#workloads tr.numbers{grid-template-columns:repeat(4,1fr)}
#workloads tr.numbers td.verdict,#workloads tr.numbers td[data-label=pods]{grid-column:span 2}
figure{max-width:380px}
}`;

/** The copy buttons: the clipboard API where the page may use it, else select the text and copy. */
const SCRIPT = `for(const b of document.querySelectorAll('button.copy'))b.hidden=false;
document.addEventListener('click',(e)=>{const b=e.target.closest&&e.target.closest('button.copy');if(!b)return;
const pre=document.getElementById(b.dataset.copy);const say=(ok)=>{b.textContent=ok?'Copied':'Select and copy';setTimeout(()=>{b.textContent='Copy'},1500)};
const select=()=>{const r=document.createRange();r.selectNodeContents(pre);const s=getSelection();s.removeAllRanges();s.addRange(r);try{return document.execCommand('copy')}catch{return false}};
if(navigator.clipboard&&window.isSecureContext)navigator.clipboard.writeText(pre.textContent).then(()=>say(true),()=>say(select()));else say(select());});`;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `2026-01-09 06:00 UTC`. */
export function timeText(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())} UTC`;
}

/** `01-09 06:00`, for the charts' ends. */
function shortTime(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

/** A duration for people: `40 s`, `27 min`, `5.5 h`, `8 days`. */
export function spanText(ms: number): string {
  const one = (v: number) => (v < 10 ? String(Math.round(v * 10) / 10) : String(Math.round(v)));
  if (ms < 90_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 90 * 60_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 36 * 3600_000) return `${one(ms / 3600_000)} h`;
  return `${one(ms / 86_400_000)} days`;
}

/** The header's history: what the data covered, and what was asked for when the data covers less. */
export function historyText(report: Pick<AuditReport, 'window' | 'data'>): string {
  const asked = Date.parse(report.window.end) - Date.parse(report.window.start);
  if (report.data === null) return `history: no usage samples read (${spanText(asked)} asked for)`;
  const covered = Date.parse(report.data.end) - Date.parse(report.data.start);
  const short = covered < asked * 0.9 ? ` (${spanText(asked)} asked for; Prometheus holds no older samples)` : '';
  return `history: ${spanText(covered)} of data, ${timeText(report.data.start)} to ${timeText(report.data.end)}${short}`;
}

function totalsTable(report: AuditReport): string {
  const t = report.totals;
  const row = (r: Resource, k: keyof Totals) => {
    const delta = t.trend ? `<td class="trend">${esc(change(r, t.trend[r][k]))}</td>` : '';
    return `<tr><th>${RESOURCE_NAME[r]} ${k}</th><td>${esc(quantity(r, t[r][k]))}</td>${delta}</tr>`;
  };
  const changed = strategyChangeNote(report);
  const since = `since ${esc(timeText(report.previous?.generatedAt ?? ''))}${changed ? `<br><span class="not-comparable">${esc(changed)}</span>` : ''}`;
  const head = `<tr><th></th><th>now</th>${t.trend ? `<th>${since}</th>` : ''}</tr>`;
  const money = t.monthlySaving
    ? `<tr class="money"><th>monthly saving, ${esc(t.monthlySaving.currency)}</th><td>${esc(moneyText(t.monthlySaving.total))}</td>${t.trend ? `<td class="trend">${esc(signedMoney(t.trend.monthlySaving?.total ?? null))}</td>` : ''}</tr>`
    : '';
  return `<div class="scroll"><table id="totals">${head}${row('cpu', 'waste')}${row('cpu', 'shortfall')}${row('memory', 'waste')}${row('memory', 'shortfall')}${money}</table></div>`;
}

/** A change of money: `+4.38`, `-13.14`, `0.00`; `-` when unknown. */
const signedMoney = (v: number | null) => (v === null ? '-' : v > 0 ? `+${moneyText(v)}` : moneyText(v));

/** The money cell of a row (with prices): the monthly saving, and under it its change since the previous report. */
function moneyCell(w: WorkloadAudit, label: string, withTrend: boolean): string {
  const d = withTrend
    ? `<span class="d" data-label="Δ ${esc(label)}" title="change since the previous report">Δ ${esc(signedMoney(w.trend?.monthlySaving?.total ?? null))}</span>`
    : '';
  return `<td class="num money" data-label="${esc(label)}"><span class="v">${esc(moneyText(w.monthlySaving?.total ?? null))}</span>${d}</td>`;
}

/** One figure's cell: the value, and under it its change since the previous report (when there is one). */
function cell(r: Resource, label: string, value: number | null, delta: number | null | undefined): string {
  const d =
    delta === undefined
      ? ''
      : `<span class="d" data-label="${RESOURCE_NAME[r]} Δ ${label}" title="change since the previous report">Δ ${esc(change(r, delta))}</span>`;
  return `<td class="num" data-label="${RESOURCE_NAME[r]} ${label}"><span class="v">${esc(quantity(r, value))}</span>${d}</td>`;
}

/** With a trend (a previous report) and not new since: the changes under the figures. */
function cells(r: Resource, a: ResourceAudit, trend: ResourceTrend | null, withTrend: boolean): string {
  const t = (k: keyof ResourceTrend) => (withTrend ? (trend?.[k] ?? null) : undefined);
  return (
    cell(r, 'request', a.request, undefined) +
    cell(r, 'recommended', a.target, t('target')) +
    cell(r, 'waste', a.waste, t('waste')) +
    cell(r, 'shortfall', a.shortfall, t('shortfall'))
  );
}

/** The verdict's cell: coloured for normal confidence; neutral, and saying so, for low confidence. */
function verdictCell(w: WorkloadAudit): string {
  if (w.confidence === 'low') return `<td class="verdict low" data-label="verdict">${w.verdict}<small>low confidence</small></td>`;
  return `<td class="verdict ${w.verdict}" data-label="verdict">${w.verdict}</td>`;
}

/** The index of the first bucket with a sample in either series (0 when none has one). */
function firstSample(usage: NonNullable<WorkloadAudit['usage']>): number {
  const first = (xs: readonly (number | null)[]) => {
    const i = xs.findIndex((v) => v !== null);
    return i < 0 ? Infinity : i;
  };
  const i = Math.min(first(usage.cpu), first(usage.memory));
  return Number.isFinite(i) ? i : 0;
}

function charts(w: WorkloadAudit, name: string): string {
  const usage = w.usage;
  const from = usage ? firstSample(usage) : 0;
  const startMs = usage ? Date.parse(usage.start) : 0;
  const xLabels = usage
    ? { start: esc(shortTime(startMs + from * usage.bucketSeconds * 1000)), end: esc(shortTime(startMs + usage.cpu.length * usage.bucketSeconds * 1000)) }
    : undefined;
  const chart = (r: Resource) =>
    `<figure class="chart" data-label="${RESOURCE_NAME[r]} usage">` +
    usageChart({
      // The chart starts at the first sample: a workload younger than the window fills the width.
      usage: (usage?.[r] ?? []).slice(from),
      request: w[r].request,
      target: w[r].target,
      label: esc(`${RESOURCE_NAME[r]} of ${name}`),
      topText: (top) => esc(`${RESOURCE_NAME[r]}, scale to ${quantity(r, top)}`),
      ...(xLabels ? { xLabels } : {}),
    }) +
    `</figure>`;
  return chart('cpu') + chart('memory');
}

const workloadKey = (w: Pick<WorkloadAudit, 'cluster' | 'namespace' | 'workload'>) =>
  `${w.cluster === undefined ? '' : `${w.cluster}/`}${w.namespace}/${w.workload.kind}/${w.workload.name}`;

function yamlBlock(group: WorkloadContainers, id: string): string {
  if (!hasRecommendation(group)) return '<p class="muted">No recommendation yet: nothing to copy.</p>';
  return (
    `<details class="yaml"><summary>Recommended resources as YAML</summary>` +
    `<div class="code"><p class="hint"><span>${esc(applyHint(group))}</span><button type="button" class="copy" data-copy="${id}" hidden>Copy</button></p><pre id="${id}">${esc(workloadYaml(group))}</pre></div></details>`
  );
}

/**
 * How much to trust the row: its history and the risk its recommendation takes on it
 * (usage-risk.ts), e.g. "8 days of history, 11520 CPU samples: at the recommendation, 0.4% of the
 * CPU used goes uncovered and memory peaked above it on 0 of 9 calendar days (UTC)" (8 days from
 * 06:00 touch 9 calendar days).
 */
function trustLine(w: WorkloadAudit): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const h = w.historyHours;
  const history = h >= 24 ? plural(Math.round(h / 24), 'day') : h >= 1 ? plural(Math.round(h), 'hour') : plural(Math.round(h * 60), 'minute');
  const cpu = w.risk.cpuShortfallPct === null ? undefined : `${w.risk.cpuShortfallPct.toFixed(1)}% of the CPU used goes uncovered`;
  const memory =
    w.risk.memoryDaysOverTarget === null
      ? undefined
      : `memory peaked above it on ${w.risk.memoryDaysOverTarget} of ${plural(w.risk.memoryDays, 'calendar day')} (UTC)`;
  const risk = [cpu, memory].filter((p) => p !== undefined);
  return `${history} of history, ${plural(w.samples.cpu, 'CPU sample')}${risk.length > 0 ? `: at the recommendation, ${risk.join(' and ')}` : ''}.`;
}

function workloadEntry(w: WorkloadAudit, withTrend: boolean, columns: number, yaml: string, moneyLabel: string | undefined): string {
  const name = `${w.cluster === undefined ? '' : `${w.cluster}: `}${w.namespace}/${w.workload.kind}/${w.workload.name} ${w.container}`;
  const notes = [
    ...(w.trend?.new ? ['new since the previous report'] : []),
    ...(w.confidence === 'low' && !w.notes.some((n) => n.startsWith('low confidence')) ? ['low confidence'] : []),
    ...w.notes,
  ];
  return (
    `<tbody class="entry" data-workload="${esc(`${workloadKey(w)}/${w.container}`)}" data-verdict="${w.verdict}" data-confidence="${w.confidence}">` +
    `<tr class="numbers"><td class="name"><span class="workload">${esc(`${w.workload.kind}/${w.workload.name}`)}</span> <span class="where">${w.cluster === undefined ? '' : `cluster ${esc(w.cluster)} · `}${esc(w.namespace)} · container ${esc(w.container)}</span></td>` +
    `<td class="num" data-label="pods">${w.pods}</td>${verdictCell(w)}` +
    cells('cpu', w.cpu, w.trend?.cpu ?? null, withTrend && !w.trend?.new) +
    cells('memory', w.memory, w.trend?.memory ?? null, withTrend && !w.trend?.new) +
    (moneyLabel === undefined ? '' : moneyCell(w, moneyLabel, withTrend && !w.trend?.new)) +
    `</tr><tr class="detail"><td colspan="${columns}"><div class="detail-grid">${charts(w, name)}` +
    `<div class="side"><p class="notes">${notes.length > 0 ? esc(notes.join('; ')) : ''}</p><p class="trust muted">${esc(trustLine(w))}</p>${yaml}</div></div></td></tr></tbody>`
  );
}

/** The page. */
export function renderAuditHtml(report: AuditReport): string {
  const withTrend = report.previous !== null;
  const per = ['request', 'recommended', 'waste', 'shortfall'];
  const moneyLabel = report.prices ? `saving ${report.prices.currency}/month` : undefined;
  const columns = 3 + 2 * per.length + (moneyLabel === undefined ? 0 : 1);
  const counts = report.totals.workloads;
  const low = report.workloads.filter((w) => w.confidence === 'low').length;
  const changed = strategyChangeNote(report);
  const since = report.previous
    ? `Δ: the change since the report of ${esc(timeText(report.previous.generatedAt))} (${esc(report.previous.source)}).${changed ? ` <strong class="not-comparable">${esc(changed)}</strong> (a Δ mixes the change of strategy with the change of the workloads).` : ''}`
    : 'No previous report: no trend this time.';
  const gone =
    report.gone.length === 0
      ? ''
      : `<h2>Gone since the previous report</h2><ul id="gone">${report.gone.map((g) => `<li>${esc(`${g.cluster === undefined ? '' : `${g.cluster}: `}${g.namespace}/${g.workload.kind}/${g.workload.name} ${g.container}`)}</li>`).join('')}</ul>`;

  // One YAML block per workload, under its first row; its other containers' rows point to it.
  const groups = new Map<string, WorkloadContainers & { containers: WorkloadAudit[] }>();
  for (const w of report.workloads) {
    const g = groups.get(workloadKey(w)) ?? { namespace: w.namespace, workload: w.workload, containers: [] };
    g.containers.push(w);
    groups.set(workloadKey(w), g);
  }
  const ids = new Map([...groups.keys()].map((k, i) => [k, `yaml-${i + 1}`]));
  const shown = new Set<string>();
  let previousCluster: string | undefined;
  const entries = report.workloads.map((w) => {
    const key = workloadKey(w);
    const id = ids.get(key)!;
    let yaml: string;
    if (!shown.has(key)) {
      shown.add(key);
      yaml = yamlBlock(groups.get(key)!, id);
    } else
      yaml = `<p class="muted">YAML for all of ${esc(`${w.workload.kind}/${w.workload.name}`)}'s containers: <a href="#${id}">with its first container</a>.</p>`;
    const entry = workloadEntry(w, withTrend, columns, yaml, moneyLabel);
    // Over several clusters (sorted by cluster) a heading row opens each cluster's entries.
    const opens = w.cluster !== undefined && w.cluster !== previousCluster;
    previousCluster = w.cluster;
    return opens ? `${clusterHeading(report, w.cluster!, columns)}\n${entry}` : entry;
  });

  // A count of 0 is not a warning: grey, whatever its verdict.
  const chip = (cls: string, n: number, what: string) => `<span class="chip ${n > 0 ? cls : 'none'}">${n} ${what}</span>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Tailor audit ${esc(timeText(report.generatedAt))}</title>
<style>${STYLE}</style></head>
<body><header><h1>Tailor audit</h1>
<p id="summary">${esc(timeText(report.generatedAt))} · <span id="history">${esc(historyText(report))}</span> · strategy ${esc(report.strategy)}</p>
<p class="chips" id="counts">${chip('under', counts.under, 'under-provisioned')}${chip('over', counts.over, 'over-provisioned')}${chip('fit', counts.fit, 'fit')}${chip('unknown', counts.unknown, 'without a request or recommendation')}${low > 0 ? chip('low', low, 'of low confidence (not in the totals)') : ''}</p></header>
<p class="muted">Waste is the request above the recommendation times the pods; shortfall the recommendation above the request times the pods. Totals leave out rows of low confidence. ${report.prices ? `Monthly saving: request minus recommendation, times the pods, at ${esc(pricesText(report.prices))}, ${report.prices.hoursPerMonth} h a month; negative is a cost (requests only: not limits, node packing or discounts). ` : ''}${since}</p>
${totalsTable(report)}${clustersSection(report)}
<h2>Workload containers</h2>
<p class="legend muted"><span><i class="swatch" style="border-top:2px solid #0969da"></i>peak usage</span><span><i class="swatch" style="border-top:2px dashed #6e7781"></i>request</span><span><i class="swatch" style="border-top:2px solid #1a7f37"></i>recommendation</span></p>
<div class="scroll"><table id="workloads"><thead>
<tr><th class="name" rowspan="2">workload</th><th rowspan="2">pods</th><th rowspan="2">verdict</th><th class="group" colspan="${per.length}">CPU</th><th class="group" colspan="${per.length}">memory</th>${moneyLabel === undefined ? '' : `<th rowspan="2">${esc(moneyLabel)}</th>`}</tr>
<tr>${[...per, ...per].map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
${entries.join('\n')}
</table></div>
${gone}
<script>${SCRIPT}</script>
</body></html>
`;
}
