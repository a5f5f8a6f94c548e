/**
 * `tailor recommend`: the one-shot report from Prometheus alone. Per workload and container: the
 * current requests and limits (kube-state-metrics, or the cluster with --kubeconfig / $KUBECONFIG), the recommendation with bounds, the difference
 * and the estimated savings (in money too with --cpu-hour-price and --memory-gib-hour-price), as a
 * table, JSON, YAML, CSV or HTML. This file only declares the
 * options: the work (recommend-action.ts, which reads through ../recommend-source.ts) is loaded
 * when the command runs (decision 0244).
 */
import type { Command } from 'commander';
import { REPORT_FORMATS } from '../../report/report-formats.ts';
import { formatOption, logLevelOption, noProgressOption, outputOption } from '../common-options.ts';
import { addPrometheusAndNamespaceOptions, addRecommendSourceOptions } from '../recommend-source-options.ts';
import { addPriceOptions } from '../price-options.ts';
import type { RecommendOptions } from './recommend-action.ts';

export function registerRecommend(program: Command): void {
  const cmd = program.command('recommend').description('One-shot report from Prometheus: current requests and limits, recommendations with bounds, savings');
  addPrometheusAndNamespaceOptions(cmd).addOption(formatOption(REPORT_FORMATS, 'table')).addOption(outputOption());
  addPriceOptions(addRecommendSourceOptions(cmd))
    .addOption(noProgressOption())
    .addOption(logLevelOption('warn'))
    // The implementation is loaded when the command runs, not at every start of the CLI.
    .action(async (o: RecommendOptions) => (await import('./recommend-action.ts')).runRecommendCommand(o));
}
