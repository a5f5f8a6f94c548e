/**
 * Where an audit keeps its summary for the next one (`--store`): a ConfigMap
 * (`configmap:NAMESPACE/NAME`, key `summary.json`) or a directory on a volume (`dir:PATH`, file
 * `summary.json`). A ConfigMap holds at most 1 MiB: a summary that would not fit is refused before
 * anything is written ({@link SummaryTooLargeError}), so the one stored before stays as it was.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { classificationOf, KubeApiError } from '../../kube/errors.ts';

export const SUMMARY_KEY = 'summary.json';
/**
 * The most summary text a ConfigMap store writes: the API server refuses a ConfigMap above
 * 1 MiB (1,048,576 bytes, data and metadata together); 48 KiB are left for the metadata.
 */
export const CONFIGMAP_SUMMARY_LIMIT = 1_000_000;

/** Reads and writes the summary text. */
export interface SummaryStore {
  /** `configmap:ns/name` or `dir:path`, for messages. */
  readonly location: string;
  /** The stored text, or undefined when nothing was stored yet. */
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
}

/** The summary is larger than the store can hold; nothing was written. */
export class SummaryTooLargeError extends Error {
  override readonly name = 'SummaryTooLargeError';
}

export { parseStoreSpec, StoreLocationError, type StoreSpec } from './store-spec.ts';

/** A directory on a volume: `summary.json`, replaced atomically (written beside it, then renamed). */
export class DirectoryStore implements SummaryStore {
  readonly location: string;
  constructor(private readonly dir: string) {
    this.location = `dir:${dir}`;
  }

  async read(): Promise<string | undefined> {
    try {
      return await readFile(join(this.dir, SUMMARY_KEY), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new Error(`reading ${join(this.dir, SUMMARY_KEY)}`, { cause: err });
    }
  }

  async write(text: string): Promise<void> {
    const file = join(this.dir, SUMMARY_KEY);
    try {
      // Not recursive: Node's recursive mkdir never returns under /proc (output-dir.ts); the
      // audit made the folder ready before it read the history.
      await mkdir(this.dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      await writeFile(`${file}.new`, text, 'utf8');
      await rename(`${file}.new`, file);
    } catch (err) {
      throw new Error(`writing ${file}`, { cause: err });
    }
  }
}

/** The calls of CoreV1Api the ConfigMap store makes. */
export type ConfigMapApi = Pick<CoreV1Api, 'readNamespacedConfigMap' | 'createNamespacedConfigMap' | 'replaceNamespacedConfigMap'>;

/**
 * One ConfigMap, key `summary.json`; other keys are kept. Created when missing (the CronJob's
 * manifest creates it, so its Role needs no `create`).
 */
export class ConfigMapStore implements SummaryStore {
  readonly location: string;
  private current: V1ConfigMap | undefined;
  private loaded = false;

  constructor(
    private readonly api: ConfigMapApi,
    private readonly namespace: string,
    private readonly name: string,
    private readonly limitBytes = CONFIGMAP_SUMMARY_LIMIT,
  ) {
    this.location = `configmap:${namespace}/${name}`;
  }

  async read(): Promise<string | undefined> {
    try {
      this.current = await this.api.readNamespacedConfigMap({ namespace: this.namespace, name: this.name });
      this.loaded = true;
    } catch (err) {
      if (classificationOf(err).kind === 'notFound') {
        this.loaded = true;
        return undefined;
      }
      throw new KubeApiError(`reading ConfigMap ${this.namespace}/${this.name}`, err);
    }
    return this.current.data?.[SUMMARY_KEY];
  }

  async write(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > this.limitBytes) {
      throw new SummaryTooLargeError(
        `the summary is ${bytes} bytes, more than ConfigMap ${this.namespace}/${this.name} can hold (${this.limitBytes} bytes; a ConfigMap is at most 1 MiB): it was not stored, the one stored before is kept; keep it on a volume with --store dir:PATH, or audit fewer namespaces`,
      );
    }
    // Replace what is there (keeping its other keys), or create it: read it first if not read yet.
    if (!this.loaded) await this.read();
    const body: V1ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { ...(this.current?.metadata ?? {}), name: this.name, namespace: this.namespace, managedFields: undefined },
      data: { ...(this.current?.data ?? {}), [SUMMARY_KEY]: text },
      ...(this.current?.binaryData ? { binaryData: this.current.binaryData } : {}),
    };
    try {
      if (this.current) this.current = await this.api.replaceNamespacedConfigMap({ namespace: this.namespace, name: this.name, body });
      else this.current = await this.api.createNamespacedConfigMap({ namespace: this.namespace, body });
    } catch (err) {
      throw new KubeApiError(`writing ConfigMap ${this.namespace}/${this.name}`, err);
    }
  }
}
