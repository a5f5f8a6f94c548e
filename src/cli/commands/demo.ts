/**
 * `tailor demo`: the product's front door. One command runs kube-sim with a few workloads, a real
 * Prometheus with days of history, and Tailor's recommender, updater and admission webhook, and
 * shows what Tailor does live (src/demo/run-demo.ts; docs/demo.md).
 */
import type { Command } from 'commander';
import { DemoOptionError, parseDemoOptions, type DemoFlags, type DemoOptions } from '../../demo/demo-options.ts';
import { UsageError } from '../exit-codes.ts';
import { logLevelOption } from '../common-options.ts';

/** The demo's options; a bad value is a usage error (exit code 2) naming its flag. */
function checkedOptions(flags: DemoFlags): DemoOptions {
  try {
    return parseDemoOptions(flags);
  } catch (err) {
    if (err instanceof DemoOptionError) throw new UsageError(err.message, { cause: err });
    throw err;
  }
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('Try Tailor on a simulated cluster: kube-sim, Prometheus with days of history, recommender, updater and admission webhook, with a live view.')
    .option('--duration <duration>', 'stop after this much running time, start-up not counted (e.g. 90s, 5m; default: until Ctrl-C)')
    .option('--port <port>', 'port of /metrics on 127.0.0.1 (0 = any free port)', '0')
    .option('--no-prometheus', 'do not start Prometheus: the recommender reads the simulator directly')
    .option('--server-version <version>', 'Kubernetes version kube-sim follows (1.32, 1.33, 1.34, 1.35; default 1.35)')
    .option('--log-file <file>', "write the components' JSON logs here (default: a temp file removed at exit)")
    .option('--audit-dir <dir>', 'at the end, write an audit report (tailor audit: HTML and JSON) here (default: a new folder under the temp directory; kept)')
    .option('--no-audit', 'no audit report at the end')
    .addOption(logLevelOption('info', 'level of those logs'))
    .addHelpText('after', '\nSee docs/demo.md for what each workload shows and how to look at it with kubectl.')
    .action(async (flags: DemoFlags) => {
      const options = checkedOptions(flags);
      const { runDemo } = await import('../../demo/run-demo.ts');
      const { demoAudit } = await import('./demo-audit.ts');
      await runDemo(options, process.stdout, { audit: demoAudit });
    });
}
