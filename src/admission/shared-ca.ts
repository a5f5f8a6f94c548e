/**
 * The self-signed CA shared by every webhook replica through a Secret (`ca.crt`, `ca.key`): the
 * first replica creates it, the others (409 AlreadyExists on create) read it. So every replica's
 * serving certificate verifies against the one caBundle in the webhook configurations; a CA per
 * replica would make them overwrite each other's caBundle. A CA that Go's crypto/x509 (the API
 * server) cannot read — made by Tailor before its names were UTF8String — is replaced in place.
 */
import type { CoreV1Api, V1Secret } from '@kubernetes/client-node';
import type { Calls } from '../kube/kube-apis.ts';

/** The calls of CoreV1Api the shared CA makes (client-node's CoreV1Api fits too). */
export type SecretApi = Calls<CoreV1Api, 'readNamespacedSecret' | 'createNamespacedSecret' | 'replaceNamespacedSecret'>;
import { classifyApiError, KubeApiError } from '../kube/errors.ts';
import { X509Certificate } from 'node:crypto';
import { goX509ParseError } from 'kube-basics/go-x509-strictness';
import { createCa, type CaPem } from 'kube-basics/self-signed-certificates';

/** The CA Secret exists but does not hold a CA. */
export class SharedCaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SharedCaError';
  }
}

const CERT_KEY = 'ca.crt';
const KEY_KEY = 'ca.key';

function decode(data: Record<string, string> | undefined): CaPem | undefined {
  const cert = data?.[CERT_KEY];
  const key = data?.[KEY_KEY];
  if (!cert || !key) return undefined;
  return { cert: Buffer.from(cert, 'base64').toString('utf8'), key: Buffer.from(key, 'base64').toString('utf8') };
}

/** The shared CA; `replaced` says why the Secret's earlier CA was replaced, when it was. */
export interface SharedCa extends CaPem {
  replaced?: string;
}

/** Why the API server would refuse the CA (Go's x509 error), or undefined. */
function goRefusal(certPem: string): string | undefined {
  try {
    return goX509ParseError(new X509Certificate(certPem).raw);
  } catch (err) {
    return `not a certificate: ${(err as Error).message}`;
  }
}

function newCa(now: number): CaPem {
  return createCa(`tailor-webhook-ca@${Math.floor(now / 1000)}`, now);
}

function secretData(ca: CaPem): Record<string, string> {
  return { [CERT_KEY]: Buffer.from(ca.cert).toString('base64'), [KEY_KEY]: Buffer.from(ca.key).toString('base64') };
}

/** Reads the CA Secret, creating it with a new CA when absent. Throws KubeApiError or SharedCaError. */
export async function ensureSharedCa(core: SecretApi, namespace: string, name: string, now: number, fieldManager: string): Promise<SharedCa> {
  const existing = await readCa(core, namespace, name);
  if (existing) {
    const refusal = goRefusal(existing.ca.cert);
    return refusal ? replaceCa(core, existing.secret, refusal, now, fieldManager) : existing.ca;
  }
  const ca = newCa(now);
  try {
    await core.createNamespacedSecret({
      namespace,
      fieldManager,
      body: {
        metadata: { name, namespace, labels: { 'app.kubernetes.io/name': 'tailor', 'app.kubernetes.io/component': 'admission' } },
        type: 'Opaque',
        data: secretData(ca),
      },
    });
    return ca;
  } catch (err) {
    if (classifyApiError(err).code !== 409) throw new KubeApiError(`creating Secret ${namespace}/${name}`, err);
    const raced = await readCa(core, namespace, name);
    if (!raced) throw new KubeApiError(`reading Secret ${namespace}/${name} after a concurrent create`, err);
    return raced.ca;
  }
}

/**
 * Replaces a CA the API server cannot read with a new one, keeping the Secret's other fields. The
 * write is conditional on the Secret's resourceVersion: a replica that loses the race (409
 * Conflict) takes the winner's CA.
 */
async function replaceCa(core: SecretApi, secret: V1Secret, refusal: string, now: number, fieldManager: string): Promise<SharedCa> {
  const namespace = secret.metadata?.namespace ?? '';
  const name = secret.metadata?.name ?? '';
  const replaced = `the API server cannot read the CA in Secret ${namespace}/${name} (${refusal})`;
  const ca = newCa(now);
  try {
    await core.replaceNamespacedSecret({ namespace, name, fieldManager, body: { ...secret, data: { ...secret.data, ...secretData(ca) } } });
    return { ...ca, replaced };
  } catch (err) {
    if (classifyApiError(err).code !== 409) throw new KubeApiError(`replacing the CA in Secret ${namespace}/${name}: ${replaced}`, err);
    const raced = await readCa(core, namespace, name);
    const racedRefusal = raced ? goRefusal(raced.ca.cert) : 'the Secret is gone';
    if (!raced || racedRefusal)
      throw new KubeApiError(
        `replacing the CA in Secret ${namespace}/${name} raced with another writer, which left a CA the API server cannot read (${racedRefusal})`,
        err,
      );
    return raced.ca;
  }
}

async function readCa(core: SecretApi, namespace: string, name: string): Promise<{ ca: CaPem; secret: V1Secret } | undefined> {
  try {
    const secret = await core.readNamespacedSecret({ namespace, name });
    const ca = decode(secret.data);
    if (!ca) throw new SharedCaError(`Secret ${namespace}/${name} has no ${CERT_KEY} and ${KEY_KEY}; delete it to have a new CA made`);
    return { ca, secret };
  } catch (err) {
    if (err instanceof SharedCaError) throw err;
    if (classifyApiError(err).kind === 'notFound') return undefined;
    throw new KubeApiError(`reading Secret ${namespace}/${name}`, err);
  }
}
