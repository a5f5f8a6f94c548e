/**
 * A bearer token read from a file and re-read whenever the file changes (size or modification
 * time), so a rotated service-account token is picked up without a restart. The file system is
 * injected for tests.
 */
import { readFileSync, statSync } from 'node:fs';

export interface TokenFileSystem {
  stat(path: string): { mtimeMs: number; size: number };
  read(path: string): string;
}

const realFs: TokenFileSystem = {
  stat: (path) => statSync(path),
  read: (path) => readFileSync(path, 'utf8'),
};

export class BearerTokenFile {
  private version = '';
  private token = '';

  constructor(
    readonly path: string,
    private readonly fs: TokenFileSystem = realFs,
  ) {}

  /** The current token (trimmed); reads the file only when it changed since the last call. */
  current(): string {
    const st = this.fs.stat(this.path);
    const version = `${st.mtimeMs}:${st.size}`;
    if (version !== this.version) {
      this.token = this.fs.read(this.path).trim();
      this.version = version;
    }
    return this.token;
  }
}
