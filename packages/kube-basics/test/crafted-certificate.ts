/**
 * Certificates with chosen flaws for tests of what Go's crypto/x509 refuses: a subject attribute of
 * any ASN.1 string type and bytes, and any serial number bytes. Self-signed with one shared key.
 */
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

const keyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;

/** What to put into the certificate. `value` is the attribute's bytes (binary string; UTF-8 bytes for tag 12). */
export interface Craft {
  /** ASN.1 universal tag of the common name's value (19 PrintableString, 12 UTF8String, ...). */
  tag: number;
  value: string;
  /** Hex of the serial number's DER content bytes. */
  serialHex?: string;
}

/** A self-signed CA certificate as PEM with the crafted common name and serial. */
export function craftCertificate(craft: Craft, now = Date.UTC(2026, 0, 1)): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = craft.serialHex ?? '4a0b0c0d';
  cert.validity.notBefore = new Date(now - 3600_000);
  cert.validity.notAfter = new Date(now + 3650 * 86_400_000);
  // forge encodes a value with valueTagClass UTF8 as UTF-8 itself; other tags take the bytes as given.
  const value = craft.tag === forge.asn1.Type.UTF8 ? forge.util.decodeUtf8(craft.value) : craft.value;
  const subject = [{ name: 'commonName', value, valueTagClass: craft.tag as forge.asn1.Class }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** The crafted CA with its key (PEM), to sign serving certificates with. */
export function craftCa(craft: Craft, now = Date.UTC(2026, 0, 1)): { cert: string; key: string } {
  return { cert: craftCertificate(craft, now), key: keyPem };
}

/**
 * A serving certificate for 127.0.0.1 signed by `ca` (PEM pair), whose own subject has a crafted
 * common name; the issuer is the CA's subject as encoded in the CA.
 */
export function craftServingCertificate(ca: { cert: string; key: string }, craft: Craft, now = Date.UTC(2026, 0, 1)): { cert: string; key: string } {
  const caCert = forge.pki.certificateFromPem(ca.cert);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = craft.serialHex ?? '5b0c0d0e';
  cert.validity.notBefore = new Date(now - 3600_000);
  cert.validity.notAfter = new Date(now + 365 * 86_400_000);
  const value = craft.tag === forge.asn1.Type.UTF8 ? forge.util.decodeUtf8(craft.value) : craft.value;
  cert.setSubject([{ name: 'commonName', value, valueTagClass: craft.tag as forge.asn1.Class }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(ca.key), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}

/** The DER bytes of a PEM certificate. */
export function derOf(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
}
