/**
 * The admission controller's certificates as upstream's `pkg/admission-controller/gencerts.sh e2e`
 * makes them (its CI runs it before deploying): with openssl, a CA and a server certificate for
 * `vpa-webhook.kube-system.svc` (Secret `vpa-tls-certs`, which upstream's Deployment mounts at
 * /etc/tls-certs), and a second CA and leaf under the same name (Secret `vpa-e2e-certs`) that the
 * spec "reloads the webhook leaf and CA certificate" swaps in.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as k8s from '@kubernetes/client-node';

/** The name the webhook's Service answers to (gencerts.sh's CN and subjectAltName). */
export const WEBHOOK_DNS_NAME = 'vpa-webhook.kube-system.svc';

/** The files of each Secret, under gencerts.sh's names (the Secrets' keys). */
export const TLS_FILES = ['caKey.pem', 'caCert.pem', 'serverKey.pem', 'serverCert.pem'] as const;
export const E2E_FILES = ['e2eCaKey.pem', 'e2eCaCert.pem', 'e2eKey.pem', 'e2eCert.pem'] as const;

// gencerts.sh's request configuration: a leaf for client and server auth under the Service's name.
const SERVER_CONF = `[req]
req_extensions = v3_req
distinguished_name = req_distinguished_name
[req_distinguished_name]
[ v3_req ]
basicConstraints = CA:FALSE
keyUsage = nonRepudiation, digitalSignature, keyEncipherment
extendedKeyUsage = clientAuth, serverAuth
subjectAltName = DNS:${WEBHOOK_DNS_NAME}
`;

function openssl(dir: string, args: string[]): void {
  try {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT')
      throw new Error("openssl is not on PATH (the admission controller's certificates are made with it, as upstream's gencerts.sh does)", { cause: error });
    throw new Error(`openssl ${args.join(' ')} failed: ${e.stderr?.toString() ?? ''}`, { cause: error });
  }
}

/** A CA (`<ca>Key.pem`, `<ca>Cert.pem`) and a leaf it signs (`key`, `cert`), as gencerts.sh's steps. */
function caAndLeaf(dir: string, caCn: string, files: readonly [string, string, string, string]): void {
  const [caKey, caCert, key, cert] = files;
  const csr = `${key}.csr`;
  openssl(dir, ['genrsa', '-out', caKey, '2048']);
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-nodes',
    '-key',
    caKey,
    '-days',
    '100000',
    '-out',
    caCert,
    '-subj',
    `/CN=${caCn}`,
    '-addext',
    `subjectAltName = DNS:${caCn}`,
  ]);
  openssl(dir, ['genrsa', '-out', key, '2048']);
  openssl(dir, ['req', '-new', '-key', key, '-out', csr, '-subj', `/CN=${WEBHOOK_DNS_NAME}`, '-config', 'server.conf']);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    caCert,
    '-CAkey',
    caKey,
    '-CAcreateserial',
    '-out',
    cert,
    '-days',
    '100000',
    '-extensions',
    'v3_req',
    '-extfile',
    'server.conf',
  ]);
}

/** Writes both sets of certificates into `dir` (an empty directory of the caller's). */
export function makeWebhookCerts(dir: string): void {
  writeFileSync(join(dir, 'server.conf'), SERVER_CONF);
  caAndLeaf(dir, 'vpa_webhook_ca', ['caKey.pem', 'caCert.pem', 'serverKey.pem', 'serverCert.pem']);
  caAndLeaf(dir, 'vpa_webhook_e2e_ca', ['e2eCaKey.pem', 'e2eCaCert.pem', 'e2eKey.pem', 'e2eCert.pem']);
}

/** The Secrets gencerts.sh uploads (`kubectl create secret generic --from-file`), from `dir`. */
export function webhookSecrets(dir: string, namespace: string): k8s.V1Secret[] {
  const secret = (name: string, files: readonly string[]): k8s.V1Secret => ({
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name, namespace },
    data: Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f)).toString('base64')])),
  });
  return [secret('vpa-tls-certs', TLS_FILES), secret('vpa-e2e-certs', E2E_FILES)];
}
