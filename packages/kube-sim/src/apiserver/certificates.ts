/**
 * Self-signed TLS material for loopback servers: a CA and server certificates it signs for
 * `127.0.0.1`, `::1`, `localhost` and extra DNS names (e.g. `tailor.tailor.svc`). The API server
 * serves HTTPS with it and puts the CA into the kubeconfig; tests use it for webhook servers, whose
 * `caBundle` is the CA in base64. Built on kube-basics/self-signed-certificates (the same code the admission webhook uses).
 */
import { createCa, issueServingCertificate } from 'kube-basics/self-signed-certificates';

/** PEM-encoded key pair and certificate. */
export interface CertificatePair {
  certPem: string;
  keyPem: string;
}

/** A CA that can issue server certificates. */
export interface CertificateAuthority extends CertificatePair {
  /** The CA certificate in base64 of its PEM, as `caBundle` and `certificate-authority-data` want it. */
  caBundle: string;
  /** Issues a server certificate for the loopback names plus `dnsNames`. */
  issueServerCertificate(commonName: string, dnsNames?: string[]): CertificatePair;
}

/** Creates a new CA named `commonName` (valid for 10 years from an hour ago). */
export function createCertificateAuthority(commonName = 'kube-sim-ca', now: number = Date.now()): CertificateAuthority {
  const ca = createCa(commonName, now);
  return {
    certPem: ca.cert,
    keyPem: ca.key,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    issueServerCertificate(serverName: string, dnsNames: string[] = []): CertificatePair {
      const pair = issueServingCertificate(ca, [serverName, 'localhost', ...dnsNames, '127.0.0.1', '::1'], now);
      return { certPem: pair.cert, keyPem: pair.key };
    },
  };
}
