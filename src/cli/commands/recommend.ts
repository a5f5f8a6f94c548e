/**
 * `tailor recommend`: the one-shot report from Prometheus alone. Per workload and container: the
 * current requests and limits (kube-state-metrics, or the cluster with --kubeconfig / $KUBECONFIG), the recommendation with bounds, the difference
 * and the estimated savings, as a table, JSON, YAML, CSV or HTML. This file only parses options
 * and wires the parts: the implementation (recommend-action.ts) is loaded when the command runs;
 * the work is in src/report/ and src/metrics/.
 */
import type { Command } from 'commander';
import { REPORT_FORMATS } from '../../report/report-formats.ts';
import { formatOption, logLevelOption, noProgressOption, outputOption } from '../common-options.ts';
import type { RecommendOptions } from './recommend-action.ts';

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerRecommend(program: Command): void {
  program
    .command('recommend')
    .description('One-shot report from Prometheus: current requests and limits, recommendations with bounds, savings')
    .requiredOption('--prometheus-url <url>', 'PromQL HTTP API (Prometheus, Thanos, Mimir, VictoriaMetrics)')
    .option('--namespace <ns>', 'only this namespace (repeatable; default: all with usage)', collect, [])
    .addOption(formatOption(REPORT_FORMATS, 'table'))
    .addOption(outputOption())
    .option('--history <duration>', 'history window', '8d')
    .option('--step <duration>', 'resolution of the usage samples', '1m')
    .option('--scrape-interval <duration>', 'how often the CPU counter is scraped; the CPU rate window is 4 of these, at least the step (default: read from the data)')
    .option('--strategy <name>', 'recommendation strategy: tailor (the best on the quality suite) or vpa (upstream)', 'tailor')
    .option('--selector <matchers>', 'label matchers added to every query, e.g. cluster="prod"', '')
    .option('--at <time>', 'evaluate as of this time (ISO or ms since the epoch; default now)')
    .option('--timeout <duration>', 'per-request timeout', '30s')
    .option('--retries <n>', 'retries of a failed request (jittered exponential backoff)', '3')
    .option('--bearer-token <token>', 'bearer token')
    .option('--bearer-token-file <path>', 'file holding a bearer token (re-read when it changes)')
    .option('--basic-auth <user:password>', 'HTTP basic auth')
    .option('--header <header>', 'extra header "Name: value", e.g. "X-Scope-OrgID: team-a" (repeatable)', collect, [])
    .option('--ca-file <path>', 'CA certificate (PEM) for an https URL')
    .option('--insecure-skip-verify', 'do not verify the server certificate')
    .option('--metric <name=value>', 'override a metric name, e.g. cpuUsageSeconds=my_cpu_total (repeatable)', collect, [])
    .option('--label <name=value>', 'override a label name, e.g. pod=pod_name (repeatable)', collect, [])
    .option('--max-points-per-query <n>', 'points (series x steps) per answer at most', '250000')
    .option('--memory-budget <quantity>', 'memory this command may use, e.g. 512Mi: answers are sized so those in flight stay within a quarter of it (default: the container\'s memory limit, when it has one)')
    .option('--kubeconfig <path>', 'read current requests, limits and owners from this cluster (default: $KUBECONFIG when set; else kube-state-metrics)')
    .option('--kube-context <name>', 'context of the kubeconfig (default: its current context)')
    .addOption(noProgressOption())
    .addOption(logLevelOption('warn'))
    // The implementation is loaded when the command runs, not at every start of the CLI.
    .action(async (o: RecommendOptions) => (await import('./recommend-action.ts')).runRecommendCommand(o));
}
