/**
 * The work of `tailor recommend` (its options are declared in recommend.ts): checks the options
 * (../recommend-source-settings.ts), reads the history of each cluster (../recommend-clusters.ts,
 * ../recommend-source.ts), runs the strategy and writes the report. Loaded only when the command runs.
 */
import { renderReport, type ReportFormat } from '../../report/report-format.ts';
import { writeResult } from '../common-options.ts';
import { readClusters } from '../recommend-clusters.ts';
import { notReportedError } from '../partial-report.ts';
import { sourceSettings } from '../recommend-source-settings.ts';
import type { RecommendSourceOptions } from '../recommend-source-options.ts';
import { loadPrices, type PriceOptions } from '../price-options.ts';

/** The parsed options of `tailor recommend`. */
export interface RecommendOptions extends RecommendSourceOptions, PriceOptions {
  format: ReportFormat;
  output?: string;
}

/** Reads, recommends and writes the report in the chosen format. */
export async function runRecommendCommand(o: RecommendOptions): Promise<void> {
  const settings = sourceSettings(o);
  const prices = await loadPrices(o);
  const { rows, failures } = await readClusters(settings);
  // The table fits a terminal; written to a file or a pipe it is whole.
  const width = o.output === undefined && process.stdout.isTTY ? process.stdout.columns : undefined;
  await writeResult(renderReport(rows, o.format, width, prices, failures), o.output);
  // The report holds the clusters that could be read; those that could not end the command with exit code 3.
  if (failures.length > 0) throw notReportedError(failures, rows);
}
