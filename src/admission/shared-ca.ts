/**
 * The self-signed CA shared by every webhook replica through a Secret (`ca.crt`, `ca.key`): the
 * first replica creates it, the others (409 AlreadyExists on create) read it. So every replica's
 * serving certificate verifies against the one caBundle in the webhook configurations; a CA per
 * replica would make them overwrite each other's caBundle.
 */
import type { CoreV1Api } from '@kubernetes/client-node';
import { classifyApiError, KubeApiError } from '../kube/errors.ts';
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

/** Reads the CA Secret, creating it with a new CA when absent. Throws KubeApiError or SharedCaError. */
export async function ensureSharedCa(core: CoreV1Api, namespace: string, name: string, now: number, fieldManager: string): Promise<CaPem> {
  const existing = await readCa(core, namespace, name);
  if (existing) return existing;
  const ca = createCa(`tailor-webhook-ca@${Math.floor(now / 1000)}`, now);
  try {
    await core.createNamespacedSecret({
      namespace,
      fieldManager,
      body: {
        metadata: { name, namespace, labels: { 'app.kubernetes.io/name': 'tailor', 'app.kubernetes.io/component': 'admission' } },
        type: 'Opaque',
        data: { [CERT_KEY]: Buffer.from(ca.cert).toString('base64'), [KEY_KEY]: Buffer.from(ca.key).toString('base64') },
      },
    });
    return ca;
  } catch (err) {
    if (classifyApiError(err).code !== 409) throw new KubeApiError(`creating Secret ${namespace}/${name}`, err);
    const raced = await readCa(core, namespace, name);
    if (!raced) throw new KubeApiError(`reading Secret ${namespace}/${name} after a concurrent create`, err);
    return raced;
  }
}

async function readCa(core: CoreV1Api, namespace: string, name: string): Promise<CaPem | undefined> {
  try {
    const secret = await core.readNamespacedSecret({ namespace, name });
    const ca = decode(secret.data);
    if (!ca) throw new SharedCaError(`Secret ${namespace}/${name} has no ${CERT_KEY} and ${KEY_KEY}; delete it to have a new CA made`);
    return ca;
  } catch (err) {
    if (err instanceof SharedCaError) throw err;
    if (classifyApiError(err).kind === 'notFound') return undefined;
    throw new KubeApiError(`reading Secret ${namespace}/${name}`, err);
  }
}
