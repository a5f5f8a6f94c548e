/**
 * The configuration table of `tailor run`: every row of every component, merged (a flag or
 * variable defined twice is refused), plus the rules that relate options to each other. Adding an
 * option = adding a row to one of the merged tables (or a new table here); the command line,
 * environment parsing, validation and docs/configuration.md follow from it.
 */
import type { ConfigOf, ConfigRule } from '../config/option-spec.ts';
import { mergeOptionTables } from '../config/option-spec.ts';
import { ADMISSION_OPTIONS } from '../admission/admission-options.ts';
import { CONTROLLER_OPTIONS } from './controller-options.ts';
import { PROMETHEUS_OPTIONS, PROMETHEUS_RULES } from '../metrics/prometheus-options.ts';
import { RECOMMENDER_OPTIONS } from '../recommender/recommender-options.ts';
import { UPDATER_OPTIONS } from '../updater/updater-options.ts';
import { formatDuration } from '../config/option-types.ts';
import { requiredWhen, resolveConfig, type CommandLineValues, type Environment, type Resolved } from '../config/resolve-config.ts';
import { scheduleFor } from './schedule.ts';

export const RUN_OPTIONS = mergeOptionTables(
  mergeOptionTables(CONTROLLER_OPTIONS, RECOMMENDER_OPTIONS, PROMETHEUS_OPTIONS, UPDATER_OPTIONS),
  ADMISSION_OPTIONS,
);

export type RunConfig = ConfigOf<typeof RUN_OPTIONS>;

const fmt = formatDuration;

/** Relations between options, checked after each option parsed on its own. */
export const RUN_RULES: readonly ConfigRule<RunConfig>[] = [
  requiredWhen<RunConfig>('prometheusUrl', 'by the recommender', (c) => c.components.includes('recommender')),
  {
    options: ['admissionCertFile', 'admissionKeyFile'],
    check: (c) =>
      (c.admissionCertFile === undefined) !== (c.admissionKeyFile === undefined)
        ? 'give both the certificate and the key file, or neither (self-signed)'
        : undefined,
  },
  {
    options: ['admissionCaFile', 'admissionCertFile'],
    check: (c) => (c.admissionCaFile !== undefined && c.admissionCertFile === undefined ? 'a CA file goes with a certificate file' : undefined),
  },
  {
    options: ['admissionRegisterWebhooks', 'admissionCaFile'],
    check: (c) =>
      c.admissionRegisterWebhooks && c.admissionCertFile !== undefined && c.admissionCaFile === undefined
        ? 'registering the webhook configurations with certificate files needs the CA file for their caBundle (or --no-admission-register-webhooks when cert-manager injects it)'
        : undefined,
  },
  {
    options: ['admissionWebhookUrl'],
    check: (c) =>
      c.admissionWebhookUrl !== undefined && !c.admissionWebhookUrl.startsWith('https://') ? 'the API server calls webhooks over https only' : undefined,
  },
  {
    options: ['namespace', 'ignoreNamespace'],
    check: (c) => (c.namespace.length > 0 && c.ignoreNamespace.length > 0 ? 'give either the namespaces to watch or those to ignore, not both' : undefined),
  },
  {
    options: ['renewDeadline', 'leaseDuration'],
    check: (c) =>
      c.renewDeadline < c.leaseDuration
        ? undefined
        : `the renew deadline (${fmt(c.renewDeadline)}) must be shorter than the lease duration (${fmt(c.leaseDuration)})`,
  },
  {
    options: ['retryPeriod', 'renewDeadline'],
    check: (c) =>
      c.retryPeriod < c.renewDeadline
        ? undefined
        : `the retry period (${fmt(c.retryPeriod)}) must be shorter than the renew deadline (${fmt(c.renewDeadline)})`,
  },
  {
    options: ['interval'],
    check: (c) => {
      if (c.schedule !== undefined) return undefined;
      const s = scheduleFor(c.interval);
      return 'error' in s ? s.error : undefined;
    },
  },
  {
    options: ['admissionStatusInterval', 'admissionStatusTimeout'],
    check: (c) =>
      c.admissionStatusInterval < c.admissionStatusTimeout
        ? undefined
        : `the status Lease is renewed every ${fmt(c.admissionStatusInterval)}, so a timeout of ${fmt(c.admissionStatusTimeout)} would find it stale between renewals`,
  },
  ...PROMETHEUS_RULES,
];

/** Resolves `tailor run`'s configuration from the command line and the environment; throws listing every problem. */
export function resolveRunConfig(cli: CommandLineValues, env: Environment): Resolved<typeof RUN_OPTIONS> {
  return resolveConfig(RUN_OPTIONS, cli, env, RUN_RULES);
}
