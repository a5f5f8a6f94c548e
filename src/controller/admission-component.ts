/**
 * `tailor run --components admission`: the webhook as a server component of the controller
 * runtime (every replica serves; no leader election). Maps the run configuration to
 * {@link AdmissionOptions} (the status Lease in --admission-status-lease-namespace, held by
 * the pod's name); its health joins /healthz (server listening) and /readyz (watches
 * synced too).
 */
import type { ComponentContext, ServerComponent } from './component.ts';
import type { RunConfig } from './run-config.ts';
import { AdmissionWebhook, type AdmissionOptions, type TlsSource } from '../admission/admission-webhook.ts';
import { defaultConfigurationName, type WebhookEndpoint } from '../admission/webhook-configurations.ts';
import { admissionStatusNamespace } from '../admission/admission-options.ts';
import { hostname } from 'node:os';

/** The webhook's options from the run configuration. */
export function admissionOptions(config: RunConfig, now: () => number): AdmissionOptions {
  const tls: TlsSource =
    config.admissionCertFile && config.admissionKeyFile
      ? {
          mode: 'files',
          certFile: config.admissionCertFile,
          keyFile: config.admissionKeyFile,
          caFile: config.admissionCaFile,
          pollIntervalMs: config.admissionCertPollInterval,
        }
      : { mode: 'self-signed', caSecretName: config.admissionCaSecret };
  const endpoint: WebhookEndpoint = config.admissionWebhookUrl
    ? { url: config.admissionWebhookUrl }
    : { service: { namespace: config.admissionNamespace, name: config.admissionServiceName, port: config.admissionServicePort } };
  return {
    host: config.admissionAddress,
    port: config.admissionPort,
    tls,
    register: config.admissionRegisterWebhooks,
    layout: config.admissionWebhookLayout,
    configurationName: config.admissionWebhookConfigName ?? defaultConfigurationName(config.admissionWebhookLayout),
    endpoint,
    namespace: config.admissionNamespace,
    namespaces: config.namespace,
    ignoreNamespaces: config.ignoreNamespace,
    timeoutSeconds: config.admissionTimeout / 1000,
    failurePolicy: config.admissionFailurePolicy,
    fieldManager: 'tailor-admission',
    now,
    status: {
      namespace: admissionStatusNamespace(config),
      name: config.admissionStatusLeaseName,
      identity: config.leaderIdentity ?? hostname(),
      intervalMs: config.admissionStatusInterval,
    },
  };
}

/** The component factory registered for `admission`. */
export function createAdmissionComponent(context: ComponentContext): ServerComponent {
  const webhook = new AdmissionWebhook(context.kubeConfig, context.logger, context.metrics.registry, admissionOptions(context.config, context.clock));
  return {
    kind: 'server',
    name: 'admission',
    start: () => webhook.start(),
    stop: () => webhook.stop(),
    health: { name: 'admission', live: () => webhook.live(), ready: () => webhook.ready() },
  };
}
