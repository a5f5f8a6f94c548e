/**
 * kube-sim's API server: the composition of store, registry, request pipeline, admission,
 * authentication, RBAC, fault injection and the HTTP shell, with the extension API the cluster
 * side (kubelet simulator, scheduler, controllers, metrics endpoints) builds on. See
 * docs/kube-sim.md for what it implements.
 */
import type { AddressInfo, Socket } from 'node:net';
import type { Server } from 'node:http';
import { silentLogger, type Logger } from '../logger.ts';
import { AdmissionChain, type AdmissionPlugin } from './admission.ts';
import { TokenAuthenticator } from './authentication.ts';
import { createCertificateAuthority, type CertificateAuthority, type CertificatePair } from './certificates.ts';
import { bootstrapCluster, installCrds, readCrdManifests, startServiceAccountController } from './bootstrap.ts';
import { answerAccessReview } from './access-review.ts';
import { bindingSubresource } from './binding.ts';
import { builtinDefaulter, prepareBuiltinForCreate } from './builtin-defaults.ts';
import { DisruptionController } from './disruption-controller.ts';
import { evictionSubresource } from './eviction.ts';
import { limitRangeDefaulter, limitRangerPlugin } from './limit-ranger.ts';
import { serviceAccountPlugin } from './service-account-admission.ts';
import { podCreateAdmissionPlugin } from './pod-create-admission.ts';
import { tokenRequestSubresource } from './token-request.ts';
import { webhookAdmissionPlugins } from './webhook-admission.ts';
import type { ServiceResolver } from './webhook-client.ts';
import { customResourceDefaulter, customResourceValidator, startCrdController } from './crd-controller.ts';
import { crdValidator } from './crd-validation.ts';
import { eventValidator } from './event-validation.ts';
import type { ServerVersionInfo } from './discovery.ts';
import { FaultInjector, type FaultRule } from './fault-injection.ts';
import { createHttpShell, type RouteHandler } from './http-server.ts';
import { renderKubeconfig, writeKubeconfig } from './kubeconfig.ts';
import { ObjectStore } from './object-store.ts';
import { builtinValidator } from './object-validation.ts';
import { RbacAuthorizer, allowAll, type Authorizer } from './rbac-authorizer.ts';
import { RequestMetrics } from './request-metrics.ts';
import { SYSTEM_USER, type ApiRequest, type ApiResponse, type UserInfo } from './request.ts';
import { RequestPipeline } from './request-pipeline.ts';
import type { Defaulter, ObjectValidator } from './object-hooks.ts';
import { ResourceRegistry } from './resource-registry.ts';
import type { SubresourceHandler } from './subresource.ts';
import { SubresourceRegistry } from './subresource.ts';
import type { KubeObject } from './types.ts';

/** Kubernetes versions whose resize behaviour the sim can follow. */
export type SimServerVersion = '1.32' | '1.33' | '1.34' | '1.35' | '1.36' | '1.37';

/** Options of {@link KubeSimApiServer}. */
export interface ApiServerOptions {
  /** Port on 127.0.0.1 (0 = any free port; default 0). */
  port?: number;
  /** Reported and enforced Kubernetes version (default 1.33). */
  serverVersion?: SimServerVersion;
  /** Clock in ms since epoch (default: the wall clock). */
  now?: () => number;
  logger?: Logger;
  /** Reject requests without a known bearer token with 401 (default false: anonymous = admin). */
  authentication?: boolean;
  /** Authorize requests from the RBAC objects in the store (default false). */
  authorization?: boolean;
  /** Watch events kept per resource for resumption (default 10,000). */
  historyCapacity?: number;
  /** BOOKMARK interval for watches that allow bookmarks (default 5,000 ms). */
  bookmarkIntervalMs?: number;
  /** Random source for fault injection (default Math.random). */
  random?: () => number;
  /**
   * Delete pods bound to a node gracefully (default false): the API marks them with
   * deletionTimestamp and the kubelet simulator removes them with `store.delete` once stopped.
   */
  gracefulPodDeletion?: boolean;
  /**
   * Pod creation adds what the real server's admission adds (token volume and mounts, NoExecute
   * tolerations, preemptionPolicy; pod-create-admission.ts). Off by default for now: two of
   * Tailor's Prometheus end-to-end tests fail with it on (docs/kube-sim-fidelity.md).
   */
  podCreateDefaults?: boolean;
  /**
   * A write without `fieldManager` is recorded under its user agent's prefix, as on the real server.
   * Off by default for now: one of Tailor's updater end-to-end tests fails with it on
   * (docs/kube-sim-fidelity.md).
   */
  userAgentManagers?: boolean;
  /** CRD YAML files, or directories of them, to install at start (default none). */
  crdManifests?: readonly string[];
  /**
   * Serve HTTPS (default true) with a certificate from this CA (default: one CA per process, made
   * on first use), or plain HTTP when false. client-node refuses plain HTTP unless TLS checks are
   * skipped, so HTTPS is what clients expect.
   */
  tls?: boolean | CertificateAuthority;
}

let sharedCa: { ca: CertificateAuthority; serving: CertificatePair } | undefined;

function processCa(): { ca: CertificateAuthority; serving: CertificatePair } {
  if (!sharedCa) {
    const ca = createCertificateAuthority('kube-sim-ca');
    sharedCa = { ca, serving: ca.issueServerCertificate('kube-apiserver', ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc']) };
  }
  return sharedCa;
}

/** The API server. Create, `start()`, use, `close()`. */
export class KubeSimApiServer {
  readonly store: ObjectStore;
  readonly registry = new ResourceRegistry();
  readonly subresources = new SubresourceRegistry();
  readonly admission = new AdmissionChain();
  readonly faults: FaultInjector;
  readonly authenticator = new TokenAuthenticator();
  /** Counts of the HTTP requests served (also at `/metrics` as apiserver_request_total). */
  readonly requests = new RequestMetrics();
  readonly pipeline: RequestPipeline;
  readonly serverVersion: SimServerVersion;
  readonly logger: Logger;
  /** Switches that may be flipped at run time. */
  readonly settings: {
    authentication: boolean;
    authorization: boolean;
    bookmarkIntervalMs: number;
    gracefulPodDeletion: boolean;
    podCreateDefaults: boolean;
    userAgentManagers: boolean;
  };
  private readonly validators: ObjectValidator[] = [];
  private readonly defaulters: Defaulter[] = [];
  private readonly routes = new Map<string, RouteHandler>();
  private readonly options: ApiServerOptions;
  private readonly now: () => number;
  private authorizer: Authorizer;
  /** Keeps PodDisruptionBudget status current. */
  readonly disruption: DisruptionController;
  private server: Server | undefined;
  private closeWatches: (() => void) | undefined;
  /** Every raw socket, TLS handshakes included: `closeAllConnections()` only knows HTTP ones. */
  private readonly sockets = new Set<Socket>();
  private stoppers: (() => void)[] = [];
  private listenPort = 0;
  private serviceResolver: ServiceResolver = () => undefined;
  private readonly tls: { ca: CertificateAuthority; serving: CertificatePair } | undefined;

  constructor(options: ApiServerOptions = {}) {
    this.options = options;
    this.now = options.now ?? (() => Date.now());
    this.serverVersion = options.serverVersion ?? '1.33';
    this.logger = options.logger ?? silentLogger();
    const storeLog = this.logger.child({ component: 'kube-sim-store' });
    this.store = new ObjectStore({
      now: this.now,
      historyCapacity: options.historyCapacity ?? 10_000,
      // 1.32 API servers leave a pod's generation unset (KEP-5067 came in 1.33).
      ...(this.serverVersion === '1.32' ? { untrackedGeneration: new Set(['pods']) } : {}),
      onListenerError: (err, event) => storeLog.error({ err, resource: event.resource, name: event.object.metadata.name }, 'store listener failed'),
    });
    this.faults = new FaultInjector(options.random);
    this.settings = {
      authentication: options.authentication ?? false,
      authorization: options.authorization ?? false,
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 5_000,
      gracefulPodDeletion: options.gracefulPodDeletion ?? false,
      podCreateDefaults: options.podCreateDefaults ?? false,
      userAgentManagers: options.userAgentManagers ?? false,
    };
    this.authorizer = new RbacAuthorizer(this.store);
    const tls = options.tls ?? true;
    if (tls === true) this.tls = processCa();
    else if (tls !== false)
      this.tls = { ca: tls, serving: tls.issueServerCertificate('kube-apiserver', ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc']) };
    this.defaulters.push(builtinDefaulter, limitRangeDefaulter, customResourceDefaulter);
    this.validators.push(builtinValidator({ resizeThroughPodUpdate: this.serverVersion === '1.32' }), crdValidator, eventValidator, customResourceValidator);
    this.pipeline = new RequestPipeline({
      store: this.store,
      registry: this.registry,
      subresources: this.subresources,
      admission: this.admission,
      validators: this.validators,
      defaulters: this.defaulters,
      now: this.now,
      preparers: [prepareBuiltinForCreate],
      gracefulPodDeletion: () => this.settings.gracefulPodDeletion,
      userAgentManagers: () => this.settings.userAgentManagers,
      virtualCreates: new Map([
        ['selfsubjectaccessreviews.authorization.k8s.io', (r) => answerAccessReview(r, this.currentAuthorizer(), true)],
        ['subjectaccessreviews.authorization.k8s.io', (r) => answerAccessReview(r, this.currentAuthorizer(), false)],
      ]),
    });
    this.disruption = new DisruptionController(this.store, this.now);
    this.subresources.register(
      'pods',
      'eviction',
      evictionSubresource({
        store: this.store,
        admission: this.admission,
        disruption: this.disruption,
        gracefulPodDeletion: () => this.settings.gracefulPodDeletion,
      }),
    );
    this.subresources.register('pods', 'binding', bindingSubresource);
    this.admission.add(limitRangerPlugin(this.store), -100);
    this.admission.add(serviceAccountPlugin(this.store), -90);
    this.admission.add(
      podCreateAdmissionPlugin(this.store, () => this.settings.podCreateDefaults),
      -80,
    );
    const webhooks = webhookAdmissionPlugins(this.store, () => this.serviceResolver);
    this.admission.add(webhooks.mutating, 1000);
    this.admission.add(webhooks.validating, 1000);
    this.subresources.register('serviceaccounts', 'token', tokenRequestSubresource(this.authenticator));
  }

  private currentAuthorizer(): Authorizer {
    return this.settings.authorization ? this.authorizer : allowAll;
  }

  /** `{major, minor}` of the server version. */
  get versionInfo(): ServerVersionInfo {
    const [major, minor] = this.serverVersion.split('.') as [string, string];
    return { major, minor };
  }

  /** Base URL, e.g. `https://127.0.0.1:41234` (after start). */
  get url(): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.listenPort}`;
  }

  /** The CA that signed the serving certificate (undefined for plain HTTP). */
  get certificateAuthority(): CertificateAuthority | undefined {
    return this.tls?.ca;
  }

  /** The listening port (after start). */
  get port(): number {
    return this.listenPort;
  }

  /** The admin bearer token (system:masters). */
  get adminToken(): string {
    return this.authenticator.adminToken;
  }

  /** Bootstraps the cluster state, installs CRDs and starts listening on 127.0.0.1. */
  async start(): Promise<string> {
    this.stoppers.push(startCrdController(this.store, this.registry, this.now));
    this.stoppers.push(startServiceAccountController(this.store));
    this.disruption.start();
    this.stoppers.push(() => this.disruption.stop());
    await bootstrapCluster(this.pipeline);
    if (this.options.crdManifests?.length) await installCrds(this.pipeline, await readCrdManifests(this.options.crdManifests));
    const shell = createHttpShell({
      store: this.store,
      registry: this.registry,
      subresources: this.subresources,
      pipeline: this.pipeline,
      authenticator: this.authenticator,
      faults: this.faults,
      logger: this.logger,
      version: this.versionInfo,
      settings: () => this.settings,
      authorizer: () => this.currentAuthorizer(),
      routes: this.routes,
      serverAddress: () => `127.0.0.1:${this.listenPort}`,
      now: this.now,
      metrics: this.requests,
      ...(this.tls ? { tls: this.tls.serving } : {}),
    });
    this.server = shell.server;
    this.closeWatches = shell.closeWatches;
    shell.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      shell.server.once('error', reject);
      shell.server.listen(this.options.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.listenPort = (shell.server.address() as AddressInfo).port;
    return this.url;
  }

  /** Ends every open watch stream now (as an API server restart would); clients resume or re-list. */
  endWatches(): void {
    this.closeWatches?.();
  }

  /** Stops listening, ends all watches and in-process controllers. */
  async close(): Promise<void> {
    for (const stop of this.stoppers) stop();
    this.stoppers = [];
    this.closeWatches?.();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    // A client that reconnects while we close (a watch cache restarting its watch, a request held
    // by injected latency, a TLS handshake under way) would keep server.close() waiting for ever:
    // stop listening, then destroy every socket until the server reports closed.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const destroyAll = () => {
      this.closeWatches?.();
      server.closeAllConnections();
      for (const socket of this.sockets) socket.destroy();
    };
    destroyAll();
    const sweeper = setInterval(destroyAll, 50);
    try {
      await closed;
    } finally {
      clearInterval(sweeper);
    }
  }

  // ---- extension API -------------------------------------------------------------------

  /**
   * Registers a subresource handler, e.g. `registerSubresource('pods', 'resize', handler)`.
   * The subresource appears in discovery; RBAC sees it as `pods/resize`.
   */
  registerSubresource(resourceKey: string, subresource: string, handler: SubresourceHandler): () => void {
    return this.subresources.register(resourceKey, subresource, handler);
  }

  /** Adds an in-process admission plugin (runs before webhooks unless `order` >= 1000). */
  addAdmissionPlugin(plugin: AdmissionPlugin, order = 0): () => void {
    return this.admission.add(plugin, order);
  }

  /** Adds an object validator (422 Invalid with its causes), run after mutating admission. */
  addValidator(validator: ObjectValidator): () => void {
    this.validators.push(validator);
    return () => {
      const i = this.validators.indexOf(validator);
      if (i >= 0) this.validators.splice(i, 1);
    };
  }

  /** Adds a defaulter, run before admission on create and update. */
  addDefaulter(defaulter: Defaulter): () => void {
    this.defaulters.push(defaulter);
    return () => {
      const i = this.defaulters.indexOf(defaulter);
      if (i >= 0) this.defaulters.splice(i, 1);
    };
  }

  /** Serves an extra path (exact match, no authentication), e.g. `/metrics/cadvisor`. */
  addRoute(path: string, handler: RouteHandler): () => void {
    this.routes.set(path, handler);
    return () => this.routes.delete(path);
  }

  /** Adds a fault rule for HTTP clients; returns a function that removes it. */
  addFault(rule: FaultRule): () => void {
    return this.faults.add(rule);
  }

  /** Runs a request in-process through defaulting, admission and validation (no auth, no faults). */
  async execute(request: Omit<ApiRequest, 'user' | 'query'> & { user?: UserInfo; query?: Record<string, string> }): Promise<ApiResponse> {
    return this.pipeline.execute({ ...request, user: request.user ?? SYSTEM_USER, query: request.query ?? {} });
  }

  /** Creates an object in-process through the pipeline (admission included). Returns the stored object. */
  async create(obj: KubeObject): Promise<KubeObject> {
    const [group, version] = splitApiVersion(String(obj.apiVersion ?? 'v1'));
    const type = this.registry.lookupKind(group, String(obj.kind));
    if (!type) throw new Error(`kind ${String(obj.kind)} in ${String(obj.apiVersion)} is not served`);
    const request: Omit<ApiRequest, 'user' | 'query'> = { verb: 'create', group, version, resource: type.plural, body: obj };
    if (type.namespaced) request.namespace = obj.metadata.namespace ?? 'default';
    return (await this.execute(request)).body as KubeObject;
  }

  /**
   * Sets how webhook `clientConfig.service` references reach a server, e.g.
   * `(ns, name, port) => ns === 'tailor' ? { host: '127.0.0.1', port: 9443 } : undefined`.
   * The TLS server name checked is `<name>.<namespace>.svc`.
   */
  setServiceResolver(resolver: ServiceResolver): void {
    this.serviceResolver = resolver;
  }

  /** Switches bearer-token authentication on or off. */
  setAuthentication(enabled: boolean): void {
    this.settings.authentication = enabled;
  }

  /** Switches RBAC authorization on or off. */
  setAuthorization(enabled: boolean): void {
    this.settings.authorization = enabled;
  }

  /** Issues a bearer token for a service account (it need not exist yet). */
  issueServiceAccountToken(namespace: string, name: string): string {
    const sa = this.store.get('serviceaccounts', namespace, name);
    return this.authenticator.issueServiceAccountToken(namespace, name, sa?.metadata.uid);
  }

  /** The kubeconfig YAML for this server (admin token unless another is given). */
  kubeconfig(token: string = this.adminToken, namespace = 'default'): string {
    return renderKubeconfig(this.kubeconfigOptions(token, namespace));
  }

  /** Writes the kubeconfig to a file (mode 0600). */
  async writeKubeconfig(path: string, token: string = this.adminToken, namespace = 'default'): Promise<void> {
    await writeKubeconfig(path, this.kubeconfigOptions(token, namespace));
  }

  private kubeconfigOptions(token: string, namespace: string): Parameters<typeof renderKubeconfig>[0] {
    const options: Parameters<typeof renderKubeconfig>[0] = { server: this.url, token, namespace };
    if (this.tls) options.certificateAuthorityData = this.tls.ca.caBundle;
    return options;
  }
}

function splitApiVersion(apiVersion: string): [string, string] {
  const i = apiVersion.indexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}
