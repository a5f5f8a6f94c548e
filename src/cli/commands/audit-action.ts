/**
 * The work of `tailor audit` (its options are declared in audit.ts): reads the history, builds the
 * report with its trend, writes it and keeps the summary. Loaded only when the command runs.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { coreApi } from '../../kube/kube-apis.ts';
import { connectKube } from '../../kube/kube-connection.ts';
import type { AuditReport } from '../../report/audit/audit-report.ts';
import { renderAuditHtml } from '../../report/audit/audit-html.ts';
import { completeAudit } from '../../report/audit/audit-run.ts';
import { prepareOutputDir, removeIfCreatedAndEmpty } from '../../report/audit/output-dir.ts';
import { ConfigMapStore, DirectoryStore, type StoreSpec, type SummaryStore } from '../../report/audit/summary-store.ts';
import { reportBaseName, reportsToPrune } from '../../report/audit/report-files.ts';
import { writeResult } from '../common-options.ts';
import { UsageError } from '../exit-codes.ts';
import { readClusters } from '../recommend-clusters.ts';
import { notReportedError } from '../partial-report.ts';
import { sourceSettings } from '../recommend-source-settings.ts';
import { loadPrices } from '../price-options.ts';
import type { AuditOptions } from './audit-options.ts';

/**
 * Writes the HTML and JSON into `dir` (made ready before the history was read: audit-output-dir
 * below) as stamped and latest files, removes the stamped ones beyond the newest `keep`, and
 * returns the stamped base name.
 */
async function writeReportFiles(dir: string, report: AuditReport, keep: number | undefined): Promise<string> {
  const html = renderAuditHtml(report);
  const data = json(report);
  const base = reportBaseName(report.generatedAt);
  for (const [name, text] of [
    [`${base}.html`, html],
    [`${base}.json`, data],
    ['latest.html', html],
    ['latest.json', data],
  ] as const)
    await writeResult(text, join(dir, name));
  if (keep !== undefined) {
    for (const name of reportsToPrune(await readdir(dir), keep)) {
      try {
        await rm(join(dir, name));
      } catch (err) {
        throw new Error(`cannot remove the old report ${join(dir, name)}`, { cause: err });
      }
    }
  }
  return base;
}

/** The JSON document, 2-space indented. */
const json = (report: AuditReport) => `${JSON.stringify(report, null, 2)}\n`;

function openStore(spec: StoreSpec, o: AuditOptions, context: string | undefined): SummaryStore {
  if (spec.kind === 'dir') return new DirectoryStore(spec.path);
  // In a pod: the service account; elsewhere --kubeconfig, $KUBECONFIG or ~/.kube/config (over
  // several clusters: its current context).
  const kube = connectKube({ kubeconfig: o.kubeconfig, context, env: process.env });
  return new ConfigMapStore(coreApi(kube.kubeConfig), spec.namespace, spec.name);
}

async function readPreviousFile(file: string, warn: (line: string) => void): Promise<{ text: string; source: string } | undefined> {
  try {
    return { text: await readFile(file, 'utf8'), source: file };
  } catch (err) {
    warn(
      `the previous report ${file} cannot be read: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : err instanceof Error ? err.message : String(err)}; this report has no trend`,
    );
    return undefined;
  }
}

/** Where the audit's notes go (the line saying where the files went): standard error by default. */
export type AuditNotes = (line: string) => void;

/**
 * Runs one audit with the parsed options. The folders it writes to (`--output-dir`, `--store
 * dir:`) are made ready first, so a bad one fails at once, not after the history was read; a
 * folder it created is removed again when the audit fails before writing in it.
 */
export async function runAuditCommand(o: AuditOptions, notes: AuditNotes = (line) => void process.stderr.write(`${line}\n`)): Promise<void> {
  const problems: string[] = [];
  if (o.outputDir !== undefined && o.output !== undefined) problems.push('--output and --output-dir cannot be used together');
  if (o.keepReports !== undefined && o.outputDir === undefined) problems.push('--keep-reports needs --output-dir');
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  const settings = sourceSettings(o);
  const prices = await loadPrices(o);
  const warn = (line: string) => process.stderr.write(`tailor: warning: ${line}\n`);
  const prepared: Array<{ dir: string; created: boolean }> = [];
  try {
    if (o.outputDir !== undefined) prepared.push({ dir: o.outputDir, ...(await prepareOutputDir(o.outputDir, '--output-dir')) });
    if (o.store?.kind === 'dir') prepared.push({ dir: o.store.path, ...(await prepareOutputDir(o.store.path, '--store dir:')) });
    const store = o.store ? openStore(o.store, o, settings.kubeContext) : undefined;
    const run = await readClusters(settings, { outlinePoints: o.chartPoints });
    const previousFile = o.previous === undefined ? undefined : await readPreviousFile(o.previous, warn);
    let written: string | undefined;
    await completeAudit({
      rows: run.rows,
      ...(run.outlines ? { outlines: run.outlines } : {}),
      now: run.now,
      historyMs: run.historyMs,
      strategy: run.strategy,
      ...(previousFile ? { previousFile } : {}),
      ...(store ? { store } : {}),
      ...(prices ? { prices } : {}),
      ...(run.failures.length > 0 ? { failures: run.failures } : {}),
      warn,
      emit: async (report) => {
        if (o.outputDir === undefined) {
          await writeResult(o.format === 'html' ? renderAuditHtml(report) : json(report), o.output);
          return;
        }
        written = await writeReportFiles(o.outputDir, report, o.keepReports);
      },
    });
    if (o.outputDir !== undefined && written !== undefined) {
      const created = prepared[0]?.created ? ` (the folder ${o.outputDir} was created)` : '';
      notes(`tailor audit: wrote ${join(o.outputDir, written)}.html and .json, and copied them to latest.html and latest.json${created}`);
    }
    // Written, with the clusters that could not be read named in it: exit code 3 names them too.
    if (run.failures.length > 0) throw notReportedError(run.failures, run.rows);
  } catch (err) {
    for (const p of prepared.reverse()) await removeIfCreatedAndEmpty(p.dir, p);
    throw err;
  }
}
