/**
 * Bearer-token authentication. The server issues tokens: one admin token (user `kube-sim-admin`
 * in group `system:masters`) and service-account tokens (user
 * `system:serviceaccount:<ns>:<name>` in groups `system:serviceaccounts`,
 * `system:serviceaccounts:<ns>`, `system:authenticated`), the identities RBAC bindings name.
 */
import { randomBytes } from 'node:crypto';
import type { UserInfo } from './request.ts';

/** Maps bearer tokens to users. */
export class TokenAuthenticator {
  private readonly tokens = new Map<string, UserInfo>();
  /** The admin token (system:masters). */
  readonly adminToken: string;

  constructor() {
    this.adminToken = this.issue({ username: 'kube-sim-admin', groups: ['system:masters', 'system:authenticated'] });
  }

  /** Issues a new random token for a user and returns it. */
  issue(user: UserInfo): string {
    const token = `sim-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, user);
    return token;
  }

  /** Registers a fixed token (e.g. from a scenario file). */
  register(token: string, user: UserInfo): void {
    this.tokens.set(token, user);
  }

  /** Issues a token for a service account. */
  issueServiceAccountToken(namespace: string, name: string, uid?: string): string {
    const user: UserInfo = {
      username: serviceAccountUsername(namespace, name),
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
    };
    if (uid) user.uid = uid;
    return this.issue(user);
  }

  /** The user of an `Authorization` header value, or undefined when absent or unknown. */
  authenticate(authorization: string | undefined): UserInfo | undefined {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    return match ? this.tokens.get(match[1] as string) : undefined;
  }
}

/** `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}
