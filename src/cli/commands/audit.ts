/**
 * `tailor audit`: the periodic report of over- and under-provisioned workloads (docs/audit.md,
 * decision 0230). Reads the history like `tailor recommend`, then writes one self-contained HTML
 * page with a chart per workload container and the same data as versioned JSON, with the trend
 * since the previous report (`--previous FILE`, or the summary kept in `--store`). The scheduled
 * form is the CronJob under manifests/audit. This file declares the options; the work
 * (audit-action.ts) is loaded when the command runs (decision 0244).
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseStoreSpec, StoreLocationError, type StoreSpec } from '../../report/audit/store-spec.ts';
import type { AuditNotes } from './audit-action.ts';
import { AUDIT_FORMATS, type AuditOptions } from './audit-options.ts';
import { OUTLINE_POINTS } from '../../report/audit/usage-outline.ts';
import { formatOption, logLevelOption, noProgressOption, outputOption } from '../common-options.ts';
import { addPrometheusAndNamespaceOptions, addRecommendSourceOptions } from '../recommend-source-options.ts';
import { addPriceOptions } from '../price-options.ts';

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

function pointsOption(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 2 || n > 1000) throw new InvalidArgumentError('expected a whole number from 2 to 1000');
  return n;
}

/** Declares `tailor audit`; `notes` takes the line saying where the files went (default: standard error). */
export function registerAudit(program: Command, notes?: AuditNotes): void {
  const cmd = program
    .command('audit')
    .description('Periodic report of over- and under-provisioned workloads: HTML with charts and JSON, with the trend since the last report');
  addPrometheusAndNamespaceOptions(cmd)
    .addOption(formatOption(AUDIT_FORMATS, 'html'))
    .addOption(outputOption())
    .option(
      '--output-dir <dir>',
      'write both audit-<time>.html and audit-<time>.json here, and copy them to latest.html and latest.json (instead of --format/--output)',
    )
    .addOption(
      new Option('--keep-reports <n>', "with --output-dir: keep the newest n audits' files, remove older audit-<time>.* files (default: keep all)").argParser(
        keepOption,
      ),
    )
    .option('--previous <file>', 'the previous report (its JSON, or a stored summary) for the trend; default: the one in --store')
    .addOption(new Option('--store <location>', "keep the summary for the next audit's trend: configmap:NAMESPACE/NAME or dir:PATH").argParser(storeOption))
    .addOption(
      new Option('--chart-points <n>', 'points per usage chart (the window cut into this many buckets)').argParser(pointsOption).default(OUTLINE_POINTS),
    );
  addPriceOptions(addRecommendSourceOptions(cmd))
    .addOption(noProgressOption())
    .addOption(logLevelOption('warn'))
    // The implementation is loaded when the command runs, not at every start of the CLI.
    .action(async (o: AuditOptions) => (await import('./audit-action.ts')).runAuditCommand(o, notes));
}
