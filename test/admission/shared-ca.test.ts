import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { ensureSharedCa, SharedCaError } from '../../src/admission/shared-ca.ts';
import forge from 'node-forge';
import { issueServingCertificate } from 'kube-basics/self-signed-certificates';
import { goX509ParseError } from 'kube-basics/go-x509-strictness';
import { craftCertificate } from 'kube-basics/test/crafted-certificate';
import { startSim } from 'kube-sim/test/apiserver/sim-fixture';

const NOW = Date.UTC(2026, 0, 1);

test('the first replica creates the CA Secret, the next reuses it; both serving certificates verify against it', async (t) => {
  const sim = await startSim();
  t.after(() => sim.close());
  await sim.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
  const first = await ensureSharedCa(sim.core, 'tailor', 'tailor-webhook-ca', NOW, 'test');
  const second = await ensureSharedCa(sim.core, 'tailor', 'tailor-webhook-ca', NOW + 1000, 'test');
  assert.equal(second.cert, first.cert);
  assert.equal(second.key, first.key);
  const ca = new X509Certificate(first.cert);
  assert.equal(ca.ca, true);
  // Valid from an hour before creation (clock skew) for ten years.
  assert.equal(new Date(ca.validFrom).getTime(), NOW - 3600_000);
  assert.equal(new Date(ca.validTo).getTime(), NOW + 3650 * 86_400_000);
  for (const ts of [NOW, NOW + 1000]) {
    const serving = new X509Certificate(issueServingCertificate(first, ['tailor-webhook.tailor.svc', '127.0.0.1'], ts).cert);
    assert.ok(serving.verify(ca.publicKey));
    assert.equal(serving.subjectAltName, 'DNS:tailor-webhook.tailor.svc, IP Address:127.0.0.1');
  }
});

test('a Secret without a CA in it is reported, not overwritten', async (t) => {
  const sim = await startSim();
  t.after(() => sim.close());
  await sim.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
  await sim.core.createNamespacedSecret({ namespace: 'tailor', body: { metadata: { name: 'tailor-webhook-ca' }, data: { other: 'eA==' } } });
  await assert.rejects(
    ensureSharedCa(sim.core, 'tailor', 'tailor-webhook-ca', NOW, 'test'),
    (err: unknown) => err instanceof SharedCaError && /has no ca\.crt and ca\.key/.test(err.message),
  );
});

test("a CA the API server cannot read (PrintableString '@', made by an earlier Tailor) is replaced in the Secret, keeping its other keys", async (t) => {
  const sim = await startSim();
  t.after(() => sim.close());
  await sim.core.createNamespace({ body: { metadata: { name: 'tailor' } } });
  const old = craftCertificate({ tag: forge.asn1.Type.PRINTABLESTRING, value: 'tailor-webhook-ca@1767225600' }, NOW);
  const data = { 'ca.crt': Buffer.from(old).toString('base64'), 'ca.key': Buffer.from('old key').toString('base64'), note: 'eA==' };
  await sim.core.createNamespacedSecret({ namespace: 'tailor', body: { metadata: { name: 'tailor-webhook-ca' }, data } });
  const ca = await ensureSharedCa(sim.core, 'tailor', 'tailor-webhook-ca', NOW, 'test');
  assert.match(
    ca.replaced ?? '',
    /cannot read the CA in Secret tailor\/tailor-webhook-ca \(x509: invalid RDNSequence: invalid attribute value: invalid PrintableString\)/,
  );
  assert.equal(goX509ParseError(new X509Certificate(ca.cert).raw), undefined);
  const stored = await sim.core.readNamespacedSecret({ namespace: 'tailor', name: 'tailor-webhook-ca' });
  assert.equal(Buffer.from(stored.data?.['ca.crt'] ?? '', 'base64').toString('utf8'), ca.cert);
  assert.equal(stored.data?.['note'], 'eA==');
  // The next replica reads the new CA as it is.
  const next = await ensureSharedCa(sim.core, 'tailor', 'tailor-webhook-ca', NOW + 1000, 'test');
  assert.equal(next.cert, ca.cert);
  assert.equal(next.replaced, undefined);
});
