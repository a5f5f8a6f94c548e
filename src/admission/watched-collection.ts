/**
 * One collection of objects kept current by a list and a watch (client-node's ListWatch), started
 * by hand: after an error (list refused, watch dropped by a non-410 error) it restarts with a
 * backoff of 1 s doubling to 30 s; a 410 Gone makes ListWatch list again by itself. `synced` turns
 * true after the first successful list.
 */
import { ListWatch, Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from '../observability/logger.ts';

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

export class WatchedCollection<T extends KubernetesObject> {
  private readonly listWatch: ListWatch<T>;
  private timer: NodeJS.Timeout | undefined;
  private backoff = FIRST_BACKOFF_MS;
  private stopped = true;
  private everSynced = false;

  constructor(
    readonly name: string,
    kubeConfig: KubeConfig,
    path: string,
    list: () => Promise<KubernetesListObject<T>>,
    private readonly logger: Logger,
  ) {
    this.listWatch = new ListWatch<T>(path, new Watch(kubeConfig), list, false);
    this.listWatch.on('error', (err: unknown) => this.restartLater(err));
  }

  /** True once a list has succeeded. */
  get synced(): boolean {
    return this.everSynced;
  }

  /** Lists and starts watching; resolves after the first attempt (synced or not). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.listWatch.stop();
  }

  get(name: string, namespace: string): T | undefined {
    return this.listWatch.get(name, namespace);
  }

  list(namespace?: string): readonly T[] {
    return this.listWatch.list(namespace);
  }

  private async attempt(): Promise<void> {
    try {
      await this.listWatch.start();
    } catch (err) {
      this.restartLater(err);
      return;
    }
    if (this.listWatch.latestResourceVersion() !== '') {
      this.everSynced = true;
      this.backoff = FIRST_BACKOFF_MS;
    }
  }

  private restartLater(err: unknown): void {
    if (this.stopped || this.timer) return;
    this.logger.warn({ err, collection: this.name, retryInMs: this.backoff }, 'watch failed; restarting');
    const delay = this.backoff;
    this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) void this.attempt();
    }, delay);
    this.timer.unref();
  }
}
