/**
 * Serving certificate and key read from files (a mounted Secret, e.g. written by cert-manager) and
 * reloaded when they change: `fs.watch` on the files' directories reacts at once (a Secret volume
 * swaps a `..data` symlink, so directories are watched, not files), and a poll every
 * `pollIntervalMs` catches what watching misses (network filesystems, platforms without it). A new
 * pair is used only when the key matches the certificate; until then the old one stays, so a
 * rotation written file by file never interrupts serving. An optional CA file (the caBundle to
 * publish in the webhook configurations) is reloaded the same way, and the certificate must be
 * signed by it, so a new CA is never published ahead of the certificate it belongs to.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../observability/logger.ts';
import { CredentialsError, checkCredentials, type ServingCredentials } from './serving-credentials.ts';

/** The files to serve from. */
export interface CertificateFileOptions {
  certFile: string;
  keyFile: string;
  caFile?: string;
  pollIntervalMs: number;
  /** Watch the directories for changes (default true); polling runs either way. */
  watch?: boolean;
}

/** What was loaded: the pair and the CA PEM if a CA file is given. */
export interface LoadedCertificates {
  credentials: ServingCredentials;
  caPem?: string;
}

const DEBOUNCE_MS = 100;

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new CredentialsError(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
}

/** Reads and checks the files once. Throws CredentialsError. */
export function loadCertificateFiles(options: CertificateFileOptions): LoadedCertificates {
  const credentials = { cert: read(options.certFile), key: read(options.keyFile) };
  checkCredentials(credentials, `${options.certFile} and ${options.keyFile}`);
  if (!options.caFile) return { credentials };
  const caPem = read(options.caFile);
  checkSignedBy(credentials.cert, caPem, `${options.certFile} is not signed by ${options.caFile}`);
  return { credentials, caPem };
}

/** Throws CredentialsError unless the first certificate of `certPem` was signed by the CA. */
function checkSignedBy(certPem: string, caPem: string, message: string): void {
  let signed: boolean;
  try {
    signed = new X509Certificate(certPem).verify(new X509Certificate(caPem).publicKey);
  } catch (err) {
    throw new CredentialsError(`${message}: ${(err as Error).message}`, { cause: err });
  }
  if (!signed) throw new CredentialsError(message);
}

export class CertificateFiles {
  private current: LoadedCertificates;
  private watchers: FSWatcher[] = [];
  private poll: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;

  /** Loads the files (throws CredentialsError if they cannot be served). */
  constructor(
    private readonly options: CertificateFileOptions,
    private readonly onChange: (loaded: LoadedCertificates) => void,
    private readonly logger: Logger,
    private readonly onReload: (outcome: 'ok' | 'error') => void = () => {},
  ) {
    this.current = loadCertificateFiles(options);
  }

  /** The pair in use. */
  get loaded(): LoadedCertificates {
    return this.current;
  }

  /** Starts watching and polling. */
  start(): void {
    const files = [this.options.certFile, this.options.keyFile, this.options.caFile].filter((f): f is string => f !== undefined);
    const dirs = this.options.watch === false ? [] : new Set(files.map((f) => dirname(f)));
    for (const dir of dirs) {
      try {
        const watcher = watch(dir, () => this.soon());
        watcher.on('error', (err) => this.logger.warn({ err, dir }, 'watching the certificate directory failed; polling only'));
        this.watchers.push(watcher);
      } catch (err) {
        this.logger.warn({ err, dir }, 'cannot watch the certificate directory; polling only');
      }
    }
    this.poll = setInterval(() => this.check(), this.options.pollIntervalMs);
    this.poll.unref();
  }

  stop(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
    clearInterval(this.poll);
    clearTimeout(this.debounce);
    this.poll = undefined;
    this.debounce = undefined;
  }

  private soon(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.check(), DEBOUNCE_MS);
    this.debounce.unref();
  }

  /** Reloads if any file's content changed and the new pair is servable. */
  check(): void {
    let next: LoadedCertificates;
    try {
      next = loadCertificateFiles(this.options);
    } catch (err) {
      const changed = this.changedOnDisk();
      if (changed) {
        this.onReload('error');
        this.logger.warn({ err }, 'the certificate files changed but cannot be served (yet); keeping the previous ones');
      }
      return;
    }
    const same =
      next.credentials.cert === this.current.credentials.cert && next.credentials.key === this.current.credentials.key && next.caPem === this.current.caPem;
    if (same) return;
    this.current = next;
    this.onReload('ok');
    this.logger.info({ certFile: this.options.certFile }, 'serving certificate reloaded');
    this.onChange(next);
  }

  private lastRefused: string | undefined;

  /** True when the files differ from the last refused content (so a bad pair is reported once). */
  private changedOnDisk(): boolean {
    let text: string;
    try {
      text = [this.options.certFile, this.options.keyFile].map((f) => readFileSync(f, 'utf8')).join('\n');
    } catch {
      text = '<unreadable>';
    }
    if (text === this.lastRefused) return false;
    this.lastRefused = text;
    return true;
  }
}
