import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:https';
import { connect } from 'node:tls';
import { Registry } from 'prom-client';
import { AdmissionMetrics } from '../../src/admission/admission-metrics.ts';
import { allow } from '../../src/admission/admission-review.ts';
import { createCa, issueServingCertificate } from 'kube-basics/self-signed-certificates';
import { DEFAULT_IDLE_TIMEOUT_MS, WebhookServer } from '../../src/admission/webhook-server.ts';
import { reviewVpa } from '../../src/admission/vpa-admission.ts';
import { silentLogger } from '../../src/observability/logger.ts';

const NOW = Date.UTC(2026, 0, 1);
const ca = createCa('server-test-ca', NOW);
const serving = issueServingCertificate(ca, ['127.0.0.1'], NOW);

async function startServer(t: { after: (fn: () => Promise<void>) => void }, idleTimeoutMs?: number) {
  const registry = new Registry();
  let calls = 0;
  const server = new WebhookServer({
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
    credentials: serving,
    logger: silentLogger(),
    metrics: new AdmissionMetrics(registry),
    mutatePods: (r) => {
      if (r.name === 'boom') throw new Error(`handler bug ${++calls}`);
      return {
        response: allow(r.uid, [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }]),
        outcome: 'patched',
        log: { level: 'debug', fields: {}, message: 'x' },
        ...(r.name === 'boosted' ? { startupBoost: true } : {}),
      };
    },
    validateVpa: (r) => {
      const result = reviewVpa(r);
      return { response: result.response, outcome: result.outcome, log: { level: 'debug', fields: {}, message: 'x' } };
    },
  });
  const port = await server.listen(0, '127.0.0.1');
  t.after(() => server.close());
  return { port, registry, server };
}

function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, ca: ca.cert, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const review = (uid: string, object: unknown, operation = 'CREATE') =>
  JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid, operation, namespace: 'shop', name: 'x', object } });

test('reviews are answered as AdmissionReview v1 with the same uid, a base64 JSON Patch, and counted', async (t) => {
  const { port, registry } = await startServer(t);
  const r = await call(port, 'POST', '/mutate-pods?timeout=3s', review('u-1', { metadata: {} }));
  assert.equal(r.status, 200);
  const body = JSON.parse(r.text) as { apiVersion: string; kind: string; response: { uid: string; allowed: boolean; patchType: string; patch: string } };
  assert.equal(body.apiVersion, 'admission.k8s.io/v1');
  assert.equal(body.kind, 'AdmissionReview');
  assert.equal(body.response.uid, 'u-1');
  assert.equal(body.response.patchType, 'JSONPatch');
  assert.deepEqual(JSON.parse(Buffer.from(body.response.patch, 'base64').toString('utf8')), [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }]);
  const denied = JSON.parse(
    (
      await call(
        port,
        'POST',
        '/validate-vpa',
        review('u-2', {
          apiVersion: 'autoscaling.k8s.io/v1',
          kind: 'VerticalPodAutoscaler',
          metadata: { name: 'v' },
          spec: { targetRef: { kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'Sometimes' } },
        }),
      )
    ).text,
  ) as { response: { allowed: boolean; status: { code: number; message: string } } };
  assert.equal(denied.response.allowed, false);
  assert.equal(denied.response.status.code, 422);
  assert.match(denied.response.status.message, /^VerticalPodAutoscaler\.autoscaling\.k8s\.io "v" is invalid: spec\.updatePolicy\.updateMode: /);
  const text = await registry.metrics();
  assert.match(text, /tailor_admission_reviews_total\{webhook="mutate-pods",outcome="patched"\} 1/);
  assert.match(text, /tailor_admission_reviews_total\{webhook="validate-vpa",outcome="denied"\} 1/);
  assert.match(text, /tailor_admission_review_duration_seconds_count\{webhook="mutate-pods"\} 1/);
  assert.match(text, /tailor_admission_startup_boosts_total 0/, 'the boost counter starts at 0');
  const boosted = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u-3', operation: 'CREATE', namespace: 'shop', name: 'boosted', object: { metadata: {} } },
  });
  assert.equal((await call(port, 'POST', '/mutate-pods', boosted)).status, 200);
  assert.match(await registry.metrics(), /tailor_admission_startup_boosts_total 1/);
});

test('health, unknown paths, wrong methods and bad bodies', async (t) => {
  const { port, registry } = await startServer(t);
  assert.deepEqual(await call(port, 'GET', '/healthz'), { status: 200, text: 'ok' });
  assert.equal((await call(port, 'POST', '/elsewhere', '{}')).status, 404);
  assert.equal((await call(port, 'GET', '/mutate-pods')).status, 405);
  const notJson = await call(port, 'POST', '/mutate-pods', '{not json');
  assert.equal(notJson.status, 400);
  assert.match(notJson.text, /invalid JSON/);
  const wrongKind = await call(
    port,
    'POST',
    '/mutate-pods',
    JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: { uid: 'x', operation: 'CREATE' } }),
  );
  assert.equal(wrongKind.status, 400);
  assert.match(wrongKind.text, /expected apiVersion admission\.k8s\.io\/v1/);
  const boom = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'b', operation: 'CREATE', name: 'boom', object: {} },
  });
  assert.equal((await call(port, 'POST', '/mutate-pods', boom)).status, 500);
  assert.match(await registry.metrics(), /tailor_admission_reviews_total\{webhook="mutate-pods",outcome="error"\} 3/);
});

test('a TLS 1.2-only client is served (TLS 1.2 is the minimum, not 1.3)', async (t) => {
  const { port } = await startServer(t);
  const handshake = (version: 'TLSv1.2') =>
    new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, ca: ca.cert, minVersion: version, maxVersion: version }, () => {
        const got = socket.getProtocol() ?? '';
        socket.end();
        resolve(got);
      });
      socket.on('error', () => resolve('refused'));
    });
  assert.equal(await handshake('TLSv1.2'), 'TLSv1.2');
});

test('/admit routes each review by its resource: pods to the pod webhook, VPAs to the VPA one, anything else allowed untouched', async (t) => {
  const { port, registry } = await startServer(t);
  const at = (uid: string, resource: object, object: unknown, kind?: object) =>
    JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: { uid, operation: 'CREATE', namespace: 'shop', name: 'x', resource, ...(kind ? { kind } : {}), object },
    });
  const answer = async (body: string) =>
    (
      JSON.parse((await call(port, 'POST', '/admit', body)).text) as {
        response: { uid: string; allowed: boolean; patch?: string; status?: { message: string } };
      }
    ).response;
  const pod = await answer(at('p', { group: '', version: 'v1', resource: 'pods' }, { metadata: {} }));
  assert.equal(pod.allowed, true);
  assert.ok(pod.patch, 'the pod handler answered with its patch');
  const badVpa = {
    apiVersion: 'autoscaling.k8s.io/v1',
    kind: 'VerticalPodAutoscaler',
    metadata: { name: 'v' },
    spec: { targetRef: { kind: 'Deployment', name: 'web' }, updatePolicy: { updateMode: 'Sometimes' } },
  };
  const vpa = await answer(at('v', { group: 'autoscaling.k8s.io', version: 'v1', resource: 'verticalpodautoscalers' }, badVpa));
  assert.equal(vpa.allowed, false);
  assert.match(vpa.status!.message, /^VerticalPodAutoscaler\.autoscaling\.k8s\.io "v" is invalid/);
  // Without a resource, the kind decides.
  assert.equal((await answer(at('k', {}, badVpa, { group: 'autoscaling.k8s.io', version: 'v1', kind: 'VerticalPodAutoscaler' }))).allowed, false);
  const other = await answer(at('o', { group: 'apps', version: 'v1', resource: 'deployments' }, {}));
  assert.deepEqual(other, { uid: 'o', allowed: true });
  const text = await registry.metrics();
  assert.match(text, /tailor_admission_reviews_total\{webhook="mutate-pods",outcome="patched"\} 1/);
  assert.match(text, /tailor_admission_reviews_total\{webhook="validate-vpa",outcome="denied"\} 2/);
});

test("idle keep-alive connections outlive the API server's (90 s), so the API server never reuses one the webhook closed", async (t) => {
  const { server } = await startServer(t);
  // kube-apiserver's webhook client: Go's default transport, IdleConnTimeout 90 s (apimachinery util/net).
  assert.ok(DEFAULT_IDLE_TIMEOUT_MS > 90_000);
  assert.equal(server.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
  // The setting reaches the real server: with a short one, an idle kept connection is closed by the server.
  const short = await startServer(t, 50);
  const agent = new Agent({ keepAlive: true, ca: ca.cert });
  t.after(() => agent.destroy());
  const closed = new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: short.port, method: 'GET', path: '/healthz', agent }, (res) => {
      res.resume();
      res.on('end', () => req.socket?.once('close', () => resolve()));
    });
    req.on('error', reject);
    req.end();
  });
  await closed;
});
