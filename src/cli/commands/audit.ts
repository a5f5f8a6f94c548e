/**
 * `tailor audit`: the periodic report of over- and under-provisioned workloads (docs/audit.md,
 * decision 0230). Reads the history like `tailor recommend`, then writes one self-contained HTML
 * page with a chart per workload container and the same data as versioned JSON, with the trend
 * since the previous report (`--previous FILE`, or the summary kept in `--store`). The scheduled
 * form is the CronJob under manifests/audit.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import * as k8s from '@kubernetes/client-node';
import { connectKube } from '../../kube/kube-connection.ts';
import type { AuditReport } from '../../report/audit/audit-report.ts';
import { renderAuditHtml } from '../../report/audit/audit-html.ts';
import { completeAudit } from '../../report/audit/audit-run.ts';
import { ConfigMapStore, DirectoryStore, parseStoreSpec, StoreLocationError, type StoreSpec, type SummaryStore } from '../../report/audit/summary-store.ts';
import { OUTLINE_POINTS } from '../../report/audit/usage-outline.ts';
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
}

function storeOption(text: string): StoreSpec {
  try {
    return parseStoreSpec(text);
  } catch (err) {
    if (err instanceof StoreLocationError) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

function pointsOption(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 2 || n > 1000) throw new InvalidArgumentError('expected a whole number from 2 to 1000');
  return n;
}

/** The JSON document, 2-space indented. */
const json = (report: AuditReport) => `${JSON.stringify(report, null, 2)}\n`;

/** `2026-01-02T03:04:05.000Z` -> `20260102T030405Z`, for file names. */
const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

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
    .option('--previous <file>', 'the previous report (its JSON, or a stored summary) for the trend; default: the one in --store')
    .addOption(new Option('--store <location>', 'keep the summary for the next audit\'s trend: configmap:NAMESPACE/NAME or dir:PATH').argParser(storeOption))
    .addOption(new Option('--chart-points <n>', 'points per usage chart (the window cut into this many buckets)').argParser(pointsOption).default(OUTLINE_POINTS));
  addRecommendSourceOptions(cmd)
    .addOption(noProgressOption())
    .addOption(logLevelOption('warn'))
    .action(async (o: AuditOptions) => {
      if (o.outputDir !== undefined && o.output !== undefined) throw new UsageError('--output and --output-dir cannot be used together');
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
          const html = renderAuditHtml(report);
          const data = json(report);
          const base = `audit-${stamp(report.generatedAt)}`;
          try {
            await mkdir(o.outputDir, { recursive: true });
          } catch (err) {
            throw new Error(`cannot create --output-dir ${o.outputDir}`, { cause: err });
          }
          for (const [name, text] of [[`${base}.html`, html], [`${base}.json`, data], ['latest.html', html], ['latest.json', data]] as const) await writeResult(text, join(o.outputDir, name));
        },
      });
    });
}
