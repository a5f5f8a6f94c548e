/**
 * `POST serviceaccounts/{name}/token` (authentication.k8s.io/v1 TokenRequest): issues a bearer
 * token for the service account that the sim's authenticator accepts. expirationSeconds is echoed
 * (default 3600) but tokens do not expire.
 */
import type { TokenAuthenticator } from './authentication.ts';
import type { SubresourceHandler } from './subresource.ts';
import { toRfc3339 } from './object-store.ts';
import { isPlainObject } from './types.ts';

/** The serviceaccounts/token handler. */
export function tokenRequestSubresource(authenticator: TokenAuthenticator): SubresourceHandler {
  return {
    discovery: { kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] },
    create({ request, current, now, body }) {
      const spec = isPlainObject(body) && isPlainObject(body['spec']) ? (body['spec'] as { expirationSeconds?: number; audiences?: string[] }) : {};
      const seconds = spec.expirationSeconds ?? 3600;
      const token = authenticator.issueServiceAccountToken(request.namespace ?? '', request.name ?? '', current.metadata.uid);
      return {
        status: 201,
        body: {
          kind: 'TokenRequest',
          apiVersion: 'authentication.k8s.io/v1',
          metadata: { name: request.name, namespace: request.namespace, creationTimestamp: null },
          spec: { audiences: spec.audiences ?? ['https://kubernetes.default.svc'], expirationSeconds: seconds, boundObjectRef: null },
          status: { token, expirationTimestamp: toRfc3339(now + seconds * 1000) },
        },
      };
    },
  };
}
