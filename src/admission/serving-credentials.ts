/**
 * A serving key and certificate chain (PEM) and the check that they belong together, which node's
 * TLS does when building a secure context (a key that does not match the certificate throws).
 */
import { createSecureContext } from 'node:tls';

/** PEM key and certificate (chain) the webhook serves with. */
export interface ServingCredentials {
  cert: string;
  key: string;
}

/** A pair that cannot be served. */
export class CredentialsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CredentialsError';
  }
}

/** Throws CredentialsError unless the key and certificate parse and match. */
export function checkCredentials(credentials: ServingCredentials, where: string): void {
  try {
    createSecureContext({ cert: credentials.cert, key: credentials.key });
  } catch (err) {
    throw new CredentialsError(`${where}: the certificate and key cannot be served: ${(err as Error).message}`, { cause: err });
  }
}
