/**
 * Keeps the admission controller's status Lease (kube/admission-status-lease.ts) renewed while the
 * webhook can set resources: at start and then every interval (10 s), but only while the webhook
 * is ready (serving, watches synced): a webhook that admits pods unchanged must not let the
 * updater evict. Every replica renews the same Lease; a 409 (another replica renewed first) or an
 * AlreadyExists is fine. Failures are logged, never thrown: the updater then sees the Lease go
 * stale after its timeout (1 min) and holds evictions. Clock and sleep are injected.
 */
import type { V1Lease } from '@kubernetes/client-node';
import type { CoordinationApi } from '../kube/kube-apis.ts';
import { renewedStatusLease } from '../kube/admission-status-lease.ts';
import { classifyApiError } from '../kube/errors.ts';
import type { Clock, Sleep } from '../kube/clock.ts';
import type { Logger } from '../observability/logger.ts';

/** Where and how the Lease is kept. */
export interface StatusKeeperOptions {
  api: Pick<CoordinationApi, 'readNamespacedLease' | 'createNamespacedLease' | 'replaceNamespacedLease'>;
  namespace: string;
  name: string;
  /** This replica (its pod name). */
  identity: string;
  intervalMs: number;
  /** Undefined when the webhook can set resources; else why not. */
  ready: () => string | undefined;
  clock: Clock;
  sleep: Sleep;
  logger: Logger;
  fieldManager: string;
}

/** How one renewal ended. */
export type RenewOutcome = 'created' | 'renewed' | 'not-ready' | 'raced' | 'failed';

export class StatusKeeper {
  private abort: AbortController | undefined;
  private running: Promise<void> | undefined;
  private lastOutcome: RenewOutcome | undefined;

  constructor(private readonly o: StatusKeeperOptions) {}

  /** `namespace/name`, for logs. */
  get where(): string {
    return `${this.o.namespace}/${this.o.name}`;
  }

  /** Renews now, then every interval until {@link stop}. */
  start(): void {
    if (this.running) return;
    const abort = new AbortController();
    this.abort = abort;
    this.running = (async () => {
      while (!abort.signal.aborted) {
        await this.renewOnce();
        try {
          await this.o.sleep(this.o.intervalMs, abort.signal);
        } catch {
          return;
        }
      }
    })();
  }

  /** Stops renewing (the Lease is left to go stale, so the updater stops evicting within the timeout). */
  async stop(): Promise<void> {
    this.abort?.abort();
    await this.running;
    this.running = undefined;
  }

  /** One renewal. Never throws. */
  async renewOnce(): Promise<RenewOutcome> {
    const outcome = await this.renew();
    if (
      outcome !== this.lastOutcome &&
      (outcome === 'created' || outcome === 'renewed') &&
      (this.lastOutcome === 'failed' || this.lastOutcome === 'not-ready')
    ) {
      this.o.logger.info({ lease: this.where }, 'admission status Lease renewed again: the updater may evict');
    }
    this.lastOutcome = outcome;
    return outcome;
  }

  private async renew(): Promise<RenewOutcome> {
    const { o } = this;
    const notReady = o.ready();
    if (notReady) {
      if (this.lastOutcome !== 'not-ready')
        o.logger.warn({ lease: this.where, reason: notReady }, 'admission status Lease not renewed while the webhook is not ready');
      return 'not-ready';
    }
    const target = { namespace: o.namespace, name: o.name, identity: o.identity, intervalMs: o.intervalMs };
    let current: V1Lease | undefined;
    try {
      current = await o.api.readNamespacedLease({ namespace: o.namespace, name: o.name });
    } catch (err) {
      if (classifyApiError(err).kind !== 'notFound') return this.failed('read', err);
    }
    const body = renewedStatusLease(current, target, o.clock());
    try {
      if (current) await o.api.replaceNamespacedLease({ namespace: o.namespace, name: o.name, body, fieldManager: o.fieldManager });
      else await o.api.createNamespacedLease({ namespace: o.namespace, body, fieldManager: o.fieldManager });
      return current ? 'renewed' : 'created';
    } catch (err) {
      const kind = classifyApiError(err).kind;
      if (kind === 'conflict' || kind === 'alreadyExists') return 'raced';
      return this.failed(current ? 'replace' : 'create', err);
    }
  }

  private failed(what: string, err: unknown): RenewOutcome {
    this.o.logger.warn({ err, lease: this.where }, `admission status Lease: ${what} failed; the updater holds evictions once it is a minute old`);
    return 'failed';
  }
}
