/**
 * `tailor audit`: the periodic report of over- and under-provisioned workloads (docs/audit.md,
 * decision 0230). Reads the history like `tailor recommend`, then writes one self-contained HTML
 * page with a chart per workload container and the same data as versioned JSON, with the trend
 * since the previous report (`--previous FILE`, or the summary kept in `--store`). The scheduled
 * form is the CronJob under manifests/audit.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import * as k8s from '@kubernetes/client-node';
import { connectKube } from '../../kube/kube-connection.ts';
import type { AuditReport } from '../../report/audit/audit-report.ts';
import { renderAuditHtml } from '../../report/audit/audit-html.ts';
import { completeAudit } from '../../report/audit/audit-run.ts';
import { ConfigMapStore, DirectoryStore, parseStoreSpec, StoreLocationError, type StoreSpec, type SummaryStore } from '../../report/audit/summary-store.ts';
import { OUTLINE_POINTS } from '../../report/audit/usage-outline.ts';
import { reportBaseName, reportsToPrune } from '../../report/audit/report-files.ts';
import { formatOption, logLevelOption, noProgressOption, outputOption, writeResult } from '../common-options.ts';
import { UsageError } from '../exit-codes.ts';
import { addPrometheusAndNamespaceOptions, addRecommendSourceOptions, readRecommendations, type RecommendSourceOptions } from '../recommend-source.ts';

const AUDIT_FORMATS = ['html', 'json'] as const;

interface AuditOptions extends RecommendSourceOptions {
  format: (typeof AUDIT_FORMATS)[number];
  output?: string;
  outputDir?: string;
  previous?: string;
  store?: StoreSpec;
  chartPoints: number;
  keepReports?: number;
}

function storeOption(text: string): StoreSpec {
  try {
    return parseStoreSpec(text);
  } catch (err) {
    if (err instanceof StoreLocationError) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

function keepOption(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

/** Writes the HTML and JSON into `dir` (stamped and latest) and removes the stamped ones beyond the newest `keep`. */
async function writeReportFiles(dir: string, report: AuditReport, keep: number | undefined): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new Error(`cannot create --output-dir ${dir}`, { cause: err });
  }
  const html = renderAuditHtml(report);
  const data = json(report);
  const base = reportBaseName(report.generatedAt);
  for (const [name, text] of [[`${base}.html`, html], [`${base}.json`, data], ['latest.html', html], ['latest.json', data]] as const) await writeResult(text, join(dir, name));
  if (keep === undefined) return;
  for (const name of reportsToPrune(await readdir(dir), keep)) {
    try {
      await rm(join(dir, name));
    } catch (err) {
      throw new Error(`cannot remove the old report ${join(dir, name)}`, { cause: err });
    }
  }
}

function pointsOption(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 2 || n > 1000) throw new InvalidArgumentError('expected a whole number from 2 to 1000');
  return n;
}

/** The JSON document, 2-space indented. */
const json = (report: AuditReport) => `${JSON.stringify(report, null, 2)}\n`;


function openStore(spec: StoreSpec, o: AuditOptions): SummaryStore {
  if (spec.kind === 'dir') return new DirectoryStore(spec.path);
  // In a pod: the service account; elsewhere --kubeconfig, $KUBECONFIG or ~/.kube/config.
  const kube = connectKube({ kubeconfig: o.kubeconfig, context: o.kubeContext, env: process.env });
  return new ConfigMapStore(kube.kubeConfig.makeApiClient(k8s.CoreV1Api), spec.namespace, spec.name);
}

async function readPreviousFile(file: string, warn: (line: string) => void): Promise<{ text: string; source: string } | undefined> {
  try {
    return { text: await readFile(file, 'utf8'), source: file };
  } catch (err) {
    warn(`the previous report ${file} cannot be read: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : err instanceof Error ? err.message : String(err)}; this report has no trend`);
    return undefined;
  }
}

export function registerAudit(program: Command): void {
  const cmd = program.command('audit').description('Periodic report of over- and under-provisioned workloads: HTML with charts and JSON, with the trend since the last report');
  addPrometheusAndNamespaceOptions(cmd)
    .addOption(formatOption(AUDIT_FORMATS, 'html'))
    .addOption(outputOption())
    .option('--output-dir <dir>', 'write both audit-<time>.html and audit-<time>.json here, and copy them to latest.html and latest.json (instead of --format/--output)')
    .addOption(new Option('--keep-reports <n>', 'with --output-dir: keep the newest n audits\' files, remove older audit-<time>.* files (default: keep all)').argParser(keepOption))
    .option('--previous <file>', 'the previous report (its JSON, or a stored summary) for the trend; default: the one in --store')
    .addOption(new Option('--store <location>', 'keep the summary for the next audit\'s trend: configmap:NAMESPACE/NAME or dir:PATH').argParser(storeOption))
    .addOption(new Option('--chart-points <n>', 'points per usage chart (the window cut into this many buckets)').argParser(pointsOption).default(OUTLINE_POINTS));
  addRecommendSourceOptions(cmd)
    .addOption(noProgressOption())
    .addOption(logLevelOption('warn'))
    .action(async (o: AuditOptions) => {
      const problems: string[] = [];
      if (o.outputDir !== undefined && o.output !== undefined) problems.push('--output and --output-dir cannot be used together');
      if (o.keepReports !== undefined && o.outputDir === undefined) problems.push('--keep-reports needs --output-dir');
      if (problems.length > 0) throw new UsageError(problems.join('; '));
      const warn = (line: string) => process.stderr.write(`tailor: warning: ${line}\n`);
      const store = o.store ? openStore(o.store, o) : undefined;
      const run = await readRecommendations(o, { outlinePoints: o.chartPoints });
      const previousFile = o.previous === undefined ? undefined : await readPreviousFile(o.previous, warn);
      await completeAudit({
        rows: run.rows,
        ...(run.outlines ? { outlines: run.outlines } : {}),
        now: run.now,
        historyMs: run.historyMs,
        strategy: run.strategy,
        ...(previousFile ? { previousFile } : {}),
        ...(store ? { store } : {}),
        warn,
        emit: async (report) => {
          if (o.outputDir === undefined) {
            await writeResult(o.format === 'html' ? renderAuditHtml(report) : json(report), o.output);
            return;
          }
          await writeReportFiles(o.outputDir, report, o.keepReports);
        },
      });
    });
}
