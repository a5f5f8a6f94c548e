import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { createCa, issueServingCertificate } from '../src/self-signed-certificates.ts';

const NOW = Date.UTC(2026, 0, 1);
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

type Node = forge.asn1.Asn1;
const children = (n: Node | undefined): Node[] => (Array.isArray(n?.value) ? n.value : []);

/** The DER of a PEM certificate, decoded as ASN.1 (not through forge's certificate reader). */
function tbsFields(pem: string): { serial: Node; issuer: Node; subject: Node } {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
  const tbs = children(forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary'))))[0];
  const [, serial, , issuer, , subject] = children(tbs);
  assert.ok(serial && issuer && subject);
  return { serial, issuer, subject };
}

/** Each attribute of a Name as [ASN.1 tag, bytes]. */
function attributes(name: Node): Array<[number, string]> {
  return children(name).flatMap((set) =>
    children(set).map((atav): [number, string] => {
      const value = children(atav)[1]!;
      return [value.type, value.value as string];
    }),
  );
}

function assertStringsGoReads(pem: string, what: string): void {
  const { issuer, subject } = tbsFields(pem);
  for (const [tag, bytes] of [...attributes(subject), ...attributes(issuer)]) {
    assert.ok(tag === forge.asn1.Type.UTF8 || tag === forge.asn1.Type.PRINTABLESTRING, `${what}: string type ${tag}`);
    if (tag === forge.asn1.Type.PRINTABLESTRING) assert.match(bytes, PRINTABLE, `${what}: PrintableString ${JSON.stringify(bytes)}`);
  }
}

test("the webhook CA's name (with '@') and the serving certificate's names use string types Go's x509 reads", () => {
  const ca = createCa('tailor-webhook-ca@1767225600', NOW);
  const serving = issueServingCertificate(ca, ['tailor-webhook.tailor.svc', '127.0.0.1'], NOW);
  assertStringsGoReads(ca.cert, 'CA');
  assertStringsGoReads(serving.cert, 'serving');
  assert.equal(new X509Certificate(ca.cert).subject, 'CN=tailor-webhook-ca@1767225600');
  // Go finds a certificate's issuer by comparing the raw bytes of its issuer with the CA's subject.
  const caSubject = forge.asn1.toDer(tbsFields(ca.cert).subject).getBytes();
  assert.equal(forge.asn1.toDer(tbsFields(serving.cert).issuer).getBytes(), caSubject);
});

test('serial numbers are positive, minimally encoded and at most 20 bytes', () => {
  const ca = createCa('ca', NOW);
  for (let i = 0; i < 6; i++) {
    const { serial } = tbsFields(issueServingCertificate(ca, ['a.example'], NOW).cert);
    const bytes = Buffer.from(serial.value as string, 'binary');
    assert.ok(bytes.length >= 1 && bytes.length <= 20, `serial of ${bytes.length} bytes`);
    assert.equal(bytes[0]! & 0x80, 0, 'negative serial');
    if (bytes.length > 1) assert.ok(!(bytes[0] === 0 && (bytes[1]! & 0x80) === 0), 'serial not minimally encoded');
  }
});

test('the CA is a CA that may sign certificates; the serving certificate names its hosts and is for servers', () => {
  const ca = createCa('ca', NOW);
  const caCert = new X509Certificate(ca.cert);
  assert.equal(caCert.ca, true);
  const forgeCa = forge.pki.certificateFromPem(ca.cert);
  assert.equal((forgeCa.getExtension('basicConstraints') as { cA: boolean; critical: boolean }).critical, true);
  assert.equal((forgeCa.getExtension('keyUsage') as { keyCertSign: boolean }).keyCertSign, true);
  const serving = new X509Certificate(issueServingCertificate(ca, ['tailor-webhook.tailor.svc', '127.0.0.1', '::1'], NOW).cert);
  assert.equal(serving.ca, false);
  assert.equal(serving.subjectAltName, 'DNS:tailor-webhook.tailor.svc, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  assert.deepEqual(serving.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  assert.ok(serving.verify(caCert.publicKey));
  assert.ok(serving.checkIssued(caCert));
  assert.equal(new Date(serving.validFrom).getTime(), NOW - 3600_000);
  assert.equal(new Date(serving.validTo).getTime(), NOW + 365 * 86_400_000);
});
