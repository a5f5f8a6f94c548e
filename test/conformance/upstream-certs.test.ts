import assert from 'node:assert/strict';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { E2E_FILES, makeWebhookCerts, TLS_FILES, WEBHOOK_DNS_NAME, webhookSecrets } from './upstream-certs.ts';

test("makeWebhookCerts: two CAs, each signing a leaf for the webhook Service's name, as gencerts.sh e2e makes them", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'upstream-certs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  makeWebhookCerts(dir);
  const cert = (f: string) => new X509Certificate(readFileSync(join(dir, f)));
  const [ca, server, e2eCa, e2e] = [cert('caCert.pem'), cert('serverCert.pem'), cert('e2eCaCert.pem'), cert('e2eCert.pem')];
  assert.ok(server.checkIssued(ca) && server.verify(ca.publicKey), 'the server certificate is signed by the CA');
  assert.ok(e2e.checkIssued(e2eCa) && e2e.verify(e2eCa.publicKey), 'the e2e leaf is signed by the e2e CA');
  assert.ok(!e2e.verify(ca.publicKey), 'the e2e leaf is not signed by the first CA (the spec swaps CA and leaf together)');
  for (const leaf of [server, e2e]) {
    assert.equal(leaf.subjectAltName, `DNS:${WEBHOOK_DNS_NAME}`);
    assert.equal(leaf.subject, `CN=${WEBHOOK_DNS_NAME}`);
    assert.equal(leaf.ca, false);
    assert.ok(leaf.checkHost(WEBHOOK_DNS_NAME));
  }
  assert.ok(ca.ca && e2eCa.ca);
  assert.ok(server.checkPrivateKey(createPrivateKey(readFileSync(join(dir, 'serverKey.pem')))), "serverKey.pem is the server certificate's key");
  assert.ok(e2e.checkPrivateKey(createPrivateKey(readFileSync(join(dir, 'e2eKey.pem')))), "e2eKey.pem is the e2e leaf's key");

  const [tls, e2eSecret] = webhookSecrets(dir, 'kube-system');
  assert.equal(tls!.metadata!.name, 'vpa-tls-certs');
  assert.equal(e2eSecret!.metadata!.name, 'vpa-e2e-certs');
  assert.deepEqual(Object.keys(tls!.data!), [...TLS_FILES]);
  assert.deepEqual(Object.keys(e2eSecret!.data!), [...E2E_FILES]);
  assert.equal(Buffer.from(tls!.data!['caCert.pem']!, 'base64').toString(), readFileSync(join(dir, 'caCert.pem'), 'utf8'));
});
