/**
 * The demo's closing audit: `tailor audit` itself, parsed from its own arguments as on the command
 * line, against the demo's Prometheus and cluster (kube-sim's kubeconfig: the requests Tailor left),
 * over the demo's days of history, writing audit-<time>.html/.json and latest.html/.json into the
 * folder. Lent to the demo (src/demo/run-demo.ts) by the demo command, since the demo sits below
 * the cli.
 */
import { Command } from 'commander';
import type { DemoAuditInput } from '../../demo/run-demo.ts';
import { registerAudit } from './audit.ts';

/** The arguments of the audit the demo runs. */
export function demoAuditArgs(input: DemoAuditInput): string[] {
  return [
    'audit',
    '--prometheus-url',
    input.prometheusUrl,
    '--kubeconfig',
    input.kubeconfig,
    '--namespace',
    'default',
    '--history',
    `${input.historyDays}d`,
    '--output-dir',
    input.dir,
    '--no-progress',
    '--log-level',
    'error',
  ];
}

/**
 * Runs the audit; throws when it fails (a bad option included: commander's exit is overridden).
 * The audit's own line about where the files went is left out: the demo prints its own.
 */
export async function demoAudit(input: DemoAuditInput): Promise<void> {
  const program = new Command('tailor').exitOverride();
  registerAudit(program, () => {});
  await program.parseAsync(demoAuditArgs(input), { from: 'user' });
}
