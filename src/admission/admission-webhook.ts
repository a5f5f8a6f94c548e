/**
 * The admission webhook as one unit: serving credentials (files reloaded on change, or a
 * self-signed CA shared through a Secret and a serving certificate issued at start-up), the
 * watch-fed cluster view, the HTTPS server, and the webhook configurations kept pointing at it
 * with a current caBundle, and the status Lease the updater reads before evicting (status-keeper.ts).
 * Needs only a KubeConfig, a logger, a prom-client registry and
 * {@link AdmissionOptions}; `tailor run --components admission` wraps it (admission-component.ts).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { coordinationApi, coreApi } from '../kube/kube-apis.ts';
import { realSleep, type Sleep } from '../kube/clock.ts';
import { StatusKeeper } from './status-keeper.ts';
import type { Registry } from 'prom-client';
import type { Logger } from '../observability/logger.ts';
import { AdmissionMetrics } from './admission-metrics.ts';
import { CertificateFiles, type LoadedCertificates } from './certificate-files.ts';
import { ClusterView } from './cluster-view.ts';
import { reviewPod } from './pod-review.ts';
import { registerWebhooks } from './register-webhooks.ts';
import { issueServingCertificate, serviceDnsNames } from 'kube-basics/self-signed-certificates';
import type { ServingCredentials } from './serving-credentials.ts';
import { ensureSharedCa } from './shared-ca.ts';
import { reviewVpa } from './vpa-admission.ts';
import { webhookConfigurations, type WebhookEndpoint, type WebhookLayout } from './webhook-configurations.ts';
import { WebhookServer } from './webhook-server.ts';

/** Where the serving certificate comes from. */
export type TlsSource =
  { mode: 'files'; certFile: string; keyFile: string; caFile?: string; pollIntervalMs: number } | { mode: 'self-signed'; caSecretName: string };

export interface AdmissionOptions {
  host: string;
  /** 0 = a free port (tests). */
  port: number;
  tls: TlsSource;
  /** Create/replace the webhook configurations (needs a CA: self-signed, or `caFile`). */
  register: boolean;
  /** Tailor's configurations or upstream's (webhook-configurations.ts); default `tailor`. */
  layout?: WebhookLayout;
  configurationName: string;
  /** The endpoint, or a function of the bound port (a URL endpoint on a port chosen at start). */
  endpoint: WebhookEndpoint | ((port: number) => WebhookEndpoint);
  /** Tailor's namespace: excluded from the pod webhook, holds the CA Secret. */
  namespace: string;
  namespaces: readonly string[];
  ignoreNamespaces: readonly string[];
  timeoutSeconds: number;
  failurePolicy: 'Ignore' | 'Fail';
  /** Field manager of every write. */
  fieldManager: string;
  /** Time source for certificate validity and the status Lease (ms). */
  now: () => number;
  /**
   * The status Lease renewed while the webhook is ready (status-keeper.ts), which the updater
   * reads before it evicts; omitted = none kept.
   */
  status?: { namespace: string; name: string; identity: string; intervalMs: number };
  /** Waits between renewals (tests inject one); default a timer. */
  sleep?: Sleep;
}

/** A configuration problem found at start-up. */
export class AdmissionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdmissionConfigError';
  }
}

export class AdmissionWebhook {
  readonly view: ClusterView;
  readonly metrics: AdmissionMetrics;
  private server: WebhookServer | undefined;
  private files: CertificateFiles | undefined;
  private statusKeeper: StatusKeeper | undefined;
  private caPem: string | undefined;
  private boundPort: number | undefined;

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly logger: Logger,
    registry: Registry,
    private readonly options: AdmissionOptions,
  ) {
    if (options.register && options.tls.mode === 'files' && !options.tls.caFile) {
      throw new AdmissionConfigError(
        'registering the webhook configurations needs the CA of the serving certificate: give a CA file, or let cert-manager (or manifests) own the configurations',
      );
    }
    this.view = new ClusterView(kubeConfig, logger);
    this.metrics = new AdmissionMetrics(registry);
  }

  /** The port the server listens on (after start). */
  get port(): number | undefined {
    return this.boundPort;
  }

  /** Loads credentials, starts the watches and the server, and registers the configurations. */
  async start(): Promise<void> {
    const credentials = await this.credentials();
    const server = new WebhookServer({
      credentials,
      logger: this.logger,
      metrics: this.metrics,
      mutatePods: (request) => reviewPod(request, this.view),
      validateVpa: (request) => {
        const result = reviewVpa(request);
        const fields = { vpa: `${request.namespace ?? ''}/${request.name ?? ''}`, operation: request.operation };
        return {
          response: result.response,
          outcome: result.outcome,
          log:
            result.outcome === 'denied'
              ? { level: 'info', fields, message: `VPA rejected: ${result.problems}` }
              : { level: 'debug', fields, message: 'VPA allowed' },
        };
      },
    });
    this.server = server;
    await this.view.start();
    this.boundPort = await server.listen(this.options.port, this.options.host);
    this.logger.info({ host: this.options.host, port: this.boundPort, tls: this.options.tls.mode }, 'admission webhook listening');
    this.files?.start();
    if (this.options.register) await this.register();
    const status = this.options.status;
    if (status) {
      this.statusKeeper = new StatusKeeper({
        api: coordinationApi(this.kubeConfig),
        ...status,
        ready: () => this.ready(),
        clock: this.options.now,
        sleep: this.options.sleep ?? realSleep,
        logger: this.logger,
        fieldManager: this.options.fieldManager,
      });
      this.statusKeeper.start();
      this.logger.info({ lease: this.statusKeeper.where, intervalMs: status.intervalMs }, 'keeping the admission status Lease');
    }
  }

  async stop(): Promise<void> {
    await this.statusKeeper?.stop();
    this.files?.stop();
    await this.server?.close();
    await this.view.stop();
  }

  /** Live while the server listens; ready once the watches have listed too. */
  live(): string | undefined {
    return this.server?.listening ? undefined : 'admission: the webhook server is not listening';
  }

  ready(): string | undefined {
    const live = this.live();
    if (live) return live;
    const missing = this.view.notSynced();
    return missing.length === 0 ? undefined : `admission: watches not synced yet (${missing.join(', ')})`;
  }

  private async credentials(): Promise<ServingCredentials> {
    const tls = this.options.tls;
    if (tls.mode === 'files') {
      this.files = new CertificateFiles(
        tls,
        (loaded) => this.reloaded(loaded),
        this.logger,
        (outcome) => this.metrics.certificateReloads.inc({ outcome }),
      );
      this.caPem = this.files.loaded.caPem;
      return this.files.loaded.credentials;
    }
    const now = this.options.now();
    const core = coreApi(this.kubeConfig);
    const ca = await ensureSharedCa(core, this.options.namespace, tls.caSecretName, now, this.options.fieldManager);
    if (ca.replaced) this.logger.warn({ reason: ca.replaced }, 'replaced the webhook CA with one the API server can read');
    this.caPem = ca.cert;
    return issueServingCertificate(ca, this.servingNames(), now);
  }

  /** The names the serving certificate must carry for the configured endpoint. */
  private servingNames(): string[] {
    const endpoint = this.endpoint(0);
    if ('url' in endpoint) return [new URL(endpoint.url).hostname.replace(/^\[|\]$/g, '')];
    return serviceDnsNames(endpoint.service.name, endpoint.service.namespace);
  }

  private endpoint(port: number): WebhookEndpoint {
    const e = this.options.endpoint;
    return typeof e === 'function' ? e(port) : e;
  }

  private reloaded(loaded: LoadedCertificates): void {
    this.server?.setCredentials(loaded.credentials);
    if (loaded.caPem === this.caPem) return;
    this.caPem = loaded.caPem;
    if (this.options.register) {
      this.register().catch((err: unknown) => this.logger.error({ err }, 'updating the webhook configurations with the new CA failed'));
    }
  }

  private async register(): Promise<void> {
    const configurations = webhookConfigurations({
      name: this.options.configurationName,
      layout: this.options.layout ?? 'tailor',
      endpoint: this.endpoint(this.boundPort ?? this.options.port),
      caPem: this.caPem,
      timeoutSeconds: this.options.timeoutSeconds,
      failurePolicy: this.options.failurePolicy,
      ownNamespace: this.options.namespace,
      namespaces: this.options.namespaces,
      ignoreNamespaces: this.options.ignoreNamespaces,
    });
    await registerWebhooks(this.kubeConfig, configurations, this.options.fieldManager);
    this.logger.info({ name: this.options.configurationName, layout: this.options.layout ?? 'tailor' }, 'webhook configurations written');
  }
}
