/**
 * A CA and the serving certificates it signs: the admission webhook's certificates when running
 * without cert-manager, and kube-sim's HTTPS. RSA 2048 keys are
 * made by node's crypto (fast) and the certificates by node-forge. The CA is valid for 10 years,
 * serving certificates for 1 year, both from an hour before `now` (clock skew). The serving
 * certificate names the webhook Service (`<svc>`, `<svc>.<ns>`, `<svc>.<ns>.svc`,
 * `<svc>.<ns>.svc.cluster.local`, as the API server connects to `<svc>.<ns>.svc`) plus extra DNS
 * names and IP addresses (e.g. 127.0.0.1 when the webhook is reached by URL).
 *
 * Names are encoded as UTF8String: forge's default, PrintableString, may not hold `@` (the CA is
 * named `tailor-webhook-ca@<seconds>`, like Kubernetes' own self-signed CAs), and Go's crypto/x509
 * — the API server calling the webhook — refuses such a certificate where node does not.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

/** A key and certificate as PEM (structurally the admission webhook's ServingCredentials). */
export interface PemPair {
  cert: string;
  key: string;
}

/** A CA as PEM. */
export interface CaPem {
  cert: string;
  key: string;
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function rsaKeyPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function newCertificate(keyPem: string, now: number, days: number): { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey } {
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial: 16 random bytes with the top bit cleared (forge's DER writer drops a
  // leading zero byte, so the encoding stays minimal as Go's parser requires).
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = new Date(now - HOUR);
  cert.validity.notAfter = new Date(now + days * DAY);
  return { cert, key };
}

/** A distinguished name of one common name, as UTF8String. */
function commonNameDn(value: string): forge.pki.CertificateField[] {
  return [{ name: 'commonName', value, valueTagClass: forge.asn1.Type.UTF8 as number as forge.asn1.Class }];
}

/** Creates a CA named `commonName`. `now` in ms since the epoch. */
export function createCa(commonName: string, now: number): CaPem {
  const keyPem = rsaKeyPem();
  const { cert, key } = newCertificate(keyPem, now, 3650);
  const subject = commonNameDn(commonName);
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}

/** The DNS names of a Service as clients reach it. */
export function serviceDnsNames(service: string, namespace: string): string[] {
  return [service, `${service}.${namespace}`, `${service}.${namespace}.svc`, `${service}.${namespace}.svc.cluster.local`];
}

/** Issues a serving certificate for `names` (DNS names or IP addresses), signed by the CA. */
export function issueServingCertificate(ca: CaPem, names: readonly string[], now: number): PemPair {
  const caCert = forge.pki.certificateFromPem(ca.cert);
  const caKey = forge.pki.privateKeyFromPem(ca.key);
  const keyPem = rsaKeyPem();
  const { cert } = newCertificate(keyPem, now, 365);
  const dns = names.filter((n) => isIP(n) === 0);
  cert.setSubject(commonNameDn(dns[0] ?? names[0] ?? 'tailor-webhook'));
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) === 0 ? { type: 2, value: n } : { type: 7, ip: n })) },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}
