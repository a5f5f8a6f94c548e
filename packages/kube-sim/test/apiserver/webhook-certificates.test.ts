import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import forge from 'node-forge';
import { createCa, issueServingCertificate } from 'kube-basics/self-signed-certificates';
import { craftCa, craftServingCertificate } from 'kube-basics/test/crafted-certificate';
import { podManifest, startSim, statusBody, statusCode, type SimFixture } from './sim-fixture.ts';

const NOW = Date.now();
const OLD_CA_NAME = `tailor-webhook-ca@${Math.floor(NOW / 1000)}`;
const GO_REFUSAL = 'x509: invalid RDNSequence: invalid attribute value: invalid PrintableString';

/** A webhook server that labels pods `mutated=yes`; counts the reviews it receives. */
async function labellingServer(pair: { cert: string; key: string }): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer({ cert: pair.cert, key: pair.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls += 1;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string } };
      const patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }])).toString('base64');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/label`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sim: SimFixture;
let admission: k8s.AdmissionregistrationV1Api;
let counter = 0;
const oldCa = craftCa({ tag: forge.asn1.Type.PRINTABLESTRING, value: OLD_CA_NAME }, NOW);
const newCa = createCa(OLD_CA_NAME, NOW);
const bundle = (...pems: string[]): string => Buffer.from(pems.join('')).toString('base64');

before(async () => {
  sim = await startSim();
  admission = sim.kc.makeApiClient(k8s.AdmissionregistrationV1Api);
});
after(() => sim?.close());

/** Registers one mutating webhook, creates a pod, removes the webhook; returns the pod or the error. */
async function createPodThrough(url: string, caBundle: string, failurePolicy: 'Fail' | 'Ignore'): Promise<k8s.V1Pod> {
  const name = `m-${(counter += 1)}`;
  await admission.createMutatingWebhookConfiguration({
    body: {
      metadata: { name },
      webhooks: [
        {
          name: 'pods.admission.tailor.dev',
          clientConfig: { url, caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          failurePolicy,
        },
      ],
    },
  });
  try {
    return await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest(`pod-${counter}`, { labels: { app: 'web' } }) });
  } finally {
    await admission.deleteMutatingWebhookConfiguration({ name });
  }
}

test('a caBundle whose CA Go cannot parse is refused like the real API server: Fail rejects with its text, Ignore skips the webhook', async (t) => {
  const hook = await labellingServer(craftServingCertificate(oldCa, { tag: forge.asn1.Type.UTF8, value: '127.0.0.1' }, NOW));
  t.after(() => hook.close());
  await assert.rejects(createPodThrough(hook.url, bundle(oldCa.cert), 'Fail'), (err) => {
    assert.equal(statusCode(err), 500);
    assert.equal(
      statusBody(err).message,
      `Internal error occurred: failed calling webhook "pods.admission.tailor.dev": could not get REST client: unable to load root certificates: failed to parse certificate: ${GO_REFUSAL}`,
    );
    return true;
  });
  const skipped = await createPodThrough(hook.url, bundle(oldCa.cert), 'Ignore');
  assert.equal(skipped.metadata?.labels?.['mutated'], undefined);
  assert.equal(hook.calls(), 0, 'the webhook is never called');
});

test('the same name as UTF8String (what src/tls makes now) is called; a bundle with one parsable CA uses it and skips the other', async (t) => {
  const hook = await labellingServer(issueServingCertificate(newCa, ['127.0.0.1'], NOW));
  t.after(() => hook.close());
  const pod = await createPodThrough(hook.url, bundle(newCa.cert), 'Fail');
  assert.equal(pod.metadata?.labels?.['mutated'], 'yes');
  const mixed = await createPodThrough(hook.url, bundle(oldCa.cert, newCa.cert), 'Fail');
  assert.equal(mixed.metadata?.labels?.['mutated'], 'yes');
  assert.equal(hook.calls(), 2);
});

test("a serving certificate Go cannot parse fails the TLS handshake with Go's error", async (t) => {
  const hook = await labellingServer(craftServingCertificate(newCa, { tag: forge.asn1.Type.PRINTABLESTRING, value: 'webhook@127.0.0.1' }, NOW));
  t.after(() => hook.close());
  await assert.rejects(createPodThrough(hook.url, bundle(newCa.cert), 'Fail'), (err) => {
    assert.equal(statusCode(err), 500);
    assert.equal(
      statusBody(err).message,
      `Internal error occurred: failed calling webhook "pods.admission.tailor.dev": failed to call webhook: Post "${hook.url}?timeout=10s": tls: failed to parse certificate from server: ${GO_REFUSAL}`,
    );
    return true;
  });
});

test("caBundles without a usable certificate get client-go's errors", async () => {
  const url = 'https://127.0.0.1:9/never-called';
  const expectMessage = async (caBundle: string, error: string): Promise<void> => {
    await assert.rejects(createPodThrough(url, caBundle, 'Fail'), (err) => {
      assert.equal(
        statusBody(err).message,
        `Internal error occurred: failed calling webhook "pods.admission.tailor.dev": could not get REST client: unable to load root certificates: ${error}`,
      );
      return true;
    });
  };
  await expectMessage(bundle('not a certificate'), 'unable to parse bytes as PEM block');
  await expectMessage(bundle(newCa.key), 'no valid certificate authority data seen');
});
