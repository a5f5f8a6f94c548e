/**
 * The audit page's parts for a report over several clusters (audit-clusters.ts): a table of each
 * cluster's counts, waste and shortfall (and monthly saving with prices), the clusters that could
 * not be read with their reason, and a heading row opening each cluster's group of workload
 * entries. A single-cluster report has none of them. Every text is escaped.
 */
import escapeHtml from 'escape-html';
import { cpuText, memoryHuman } from '../report-quantities.ts';
import { moneyText } from '../money.ts';
import type { ClusterAudit } from './audit-clusters.ts';
import type { AuditReport } from './audit-report.ts';

const esc = (v: string | number | null | undefined) => escapeHtml(v === null || v === undefined ? '-' : String(v));
const cpu = (v: number) => cpuText(Math.round(v));

/** The counts of a cluster: `2 under · 1 over · 0 fit · 0 unknown`. */
const counts = (c: ClusterAudit) => `${c.workloads.under} under · ${c.workloads.over} over · ${c.workloads.fit} fit · ${c.workloads.unknown} unknown`;

/** The section of the clusters' totals and of those left out; empty for a single-cluster report. */
export function clustersSection(report: Pick<AuditReport, 'clusters' | 'clustersNotReported' | 'prices'>): string {
  if (report.clusters === undefined) return '';
  const money = report.prices ? `<th>saving ${esc(report.prices.currency)}/month</th>` : '';
  const head = `<tr><th>cluster</th><th>workload containers</th><th>CPU waste</th><th>CPU shortfall</th><th>memory waste</th><th>memory shortfall</th>${money}</tr>`;
  const rows = report.clusters.map(
    (c) =>
      `<tr data-cluster="${esc(c.name)}"><th>${esc(c.name)}</th><td>${esc(counts(c))}</td><td>${esc(cpu(c.cpu.waste))}</td><td>${esc(cpu(c.cpu.shortfall))}</td>` +
      `<td>${esc(memoryHuman(c.memory.waste))}</td><td>${esc(memoryHuman(c.memory.shortfall))}</td>${report.prices ? `<td>${esc(moneyText(c.monthlySaving?.total ?? null))}</td>` : ''}</tr>`,
  );
  const missing = report.clustersNotReported ?? [];
  const left =
    missing.length === 0
      ? ''
      : `<ul id="not-reported" class="under">${missing.map((m) => `<li data-cluster="${esc(m.name)}">cluster ${esc(m.name)}: not reported: ${esc(m.reason)}</li>`).join('')}</ul>`;
  return `<h2>Clusters</h2><p class="muted">Each cluster's rows of normal confidence, as the totals above.</p><div class="scroll"><table id="clusters">${head}${rows.join('')}</table></div>${left}`;
}

/** The heading row opening the entries of `cluster`: its name and counts, across the table's `columns`. */
export function clusterHeading(report: Pick<AuditReport, 'clusters'>, cluster: string, columns: number): string {
  const c = report.clusters?.find((x) => x.name === cluster);
  return `<tbody class="cluster-group" data-cluster="${esc(cluster)}"><tr><th class="name" colspan="${columns}">cluster ${esc(cluster)}${c ? ` <span class="muted">· ${esc(counts(c))}</span>` : ''}</th></tr></tbody>`;
}
