/**
 * `tailor recommend`: the one-shot report from Prometheus alone. Per workload and container: the
 * current requests and limits (kube-state-metrics, or the cluster with --kubeconfig / $KUBECONFIG), the recommendation with bounds, the difference
 * and the estimated savings, as a table, JSON, YAML, CSV or HTML. This file only parses options
 * and wires the parts; the work is in src/report/ and src/metrics/ (the shared options and the
 * read in ../recommend-source.ts).
 */
import type { Command } from 'commander';
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../../report/report-format.ts';
import { formatOption, logLevelOption, noProgressOption, outputOption, writeResult } from '../common-options.ts';
import { addPrometheusAndNamespaceOptions, addRecommendSourceOptions, readRecommendations, type RecommendSourceOptions } from '../recommend-source.ts';

interface RecommendOptions extends RecommendSourceOptions {
  format: ReportFormat;
  output?: string;
}

export function registerRecommend(program: Command): void {
  const cmd = program.command('recommend').description('One-shot report from Prometheus: current requests and limits, recommendations with bounds, savings');
  addPrometheusAndNamespaceOptions(cmd).addOption(formatOption(REPORT_FORMATS, 'table')).addOption(outputOption());
  addRecommendSourceOptions(cmd)
    .addOption(noProgressOption())
    .addOption(logLevelOption('warn'))
    .action(async (o: RecommendOptions) => {
      const { rows } = await readRecommendations(o);
      await writeResult(renderReport(rows, o.format), o.output);
    });
}
