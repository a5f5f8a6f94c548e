/**
 * `tailor plan -f FILE...`: the updater's dry run on objects read from files, e.g.
 * `kubectl get pods,vpa,deploy,limitranges,hpa -n shop -o yaml > shop.yaml; tailor plan -f shop.yaml`.
 * Prints one line per pod (decision, reason, from -> to) and a summary; changes nothing anywhere.
 * With `--prometheus-url` (and the same connection options and `TAILOR_PROMETHEUS_*` variables as
 * `tailor run`) it reads the pods' recent memory as the in-cluster updater does, so memory limits
 * may go down to the observed peak + margin and the memory pressure guard can fire; without it,
 * memory limits are never lowered (the safe reading). `--format json|yaml` gives the decisions as
 * data, `--output FILE` writes them to a file. The cooldown needs to know when the updater last
 * changed a pod, which only the pod's managedFields say: `kubectl get` leaves them out unless
 * `--show-managed-fields`, and the plan says so when they are missing.
 * This file declares the command; its options are in plan-options.ts, the reading of the objects in
 * plan-input.ts, and the work (plan-action.ts) is loaded when the command runs.
 */
import { Option, type Command } from 'commander';
import { addTableOptions, commandLineValues } from '../../config/commander-options.ts';
import { formatOption, outputOption } from '../common-options.ts';
import { PLAN_FORMATS, PLAN_SERVER_VERSION, PLAN_USAGE_OPTIONS, planUsage, type PlanFlags } from './plan-options.ts';

/** Registers `tailor plan`. */
export function registerPlan(program: Command): void {
  const command = program
    .command('plan')
    .description('Dry-run the updater on Pods, VPAs, workloads, LimitRanges and HPAs read from YAML/JSON files')
    .requiredOption(
      '-f, --filename <files...>',
      'YAML or JSON files (several documents or kind: List each), e.g. from kubectl get -o yaml; - reads standard input',
    )
    .addOption(formatOption(PLAN_FORMATS, 'text'))
    .addOption(outputOption())
    .addOption(
      new Option('--server-version <major.minor>', 'Kubernetes version whose resize rules apply (as tailor sim and tailor demo)').default(PLAN_SERVER_VERSION),
    )
    .option('--feature-gate', 'InPlacePodVerticalScaling is on (1.27-1.32)', false)
    .option('--now <rfc3339>', 'plan as of this time (default: the current time)')
    .addOption(new Option('--resizes <n>', 'resizes this loop may make').default('1000'))
    .addOption(new Option('--evictions <n>', 'evictions this loop may make').default('1000'))
    .option('--allow-restart', 'allow resizes that restart containers for every VPA', false);
  addTableOptions(command, PLAN_USAGE_OPTIONS);
  command.action(async (flags: PlanFlags) => {
    // An invalid usage option is a usage error (InvalidConfigurationError): main() says so.
    const usage = await planUsage(commandLineValues(command, PLAN_USAGE_OPTIONS), process.env);
    const { planFiles } = await import('./plan-action.ts');
    await planFiles(flags, Date.now(), process.stdout, process.stderr, usage);
  });
}
