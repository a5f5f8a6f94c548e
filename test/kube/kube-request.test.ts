/**
 * Tailor's request layer (kube-request.ts, kube-apis.ts) against a server on 127.0.0.1 that
 * records each request and answers what the test asks: the path, query and headers client-node's
 * generated APIs send, bodies serialized by their model, answers read into client-node's object
 * model, and answers outside 2xx thrown as client-node's ApiException so errors.ts classifies them.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import * as k8s from '@kubernetes/client-node';
import { coreApi, customObjectsApi, MERGE_PATCH, operationRequest, versionApi } from '../../src/kube/kube-apis.ts';
import { KubeClient } from '../../src/kube/kube-request.ts';
import { classifyApiError } from '../../src/kube/errors.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let seen: Seen[] = [];
let answer: { status: number; headers: Record<string, string>; body: string } = { status: 200, headers: {}, body: '{}' };
let server: Server;
let port = 0;

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
});

function kubeConfig(prefix = ''): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromClusterAndUser({ name: 'c', server: `http://127.0.0.1:${port}${prefix}`, skipTLSVerify: true }, { name: 'u', token: 't0ken' });
  return kc;
}

test('a list sends the path, the query (`_continue` as `continue`), the Accept header and the token', async () => {
  answer.body = JSON.stringify({
    apiVersion: 'v1',
    kind: 'PodList',
    metadata: { resourceVersion: '7' },
    items: [{ metadata: { name: 'p', creationTimestamp: '2026-12-02T10:00:00Z' } }],
  });
  const list = await coreApi(kubeConfig()).listNamespacedPod({ namespace: 'a b', labelSelector: 'app=x', limit: 5, _continue: 'tok', watch: false });
  const url = new URL(seen[0]!.url, 'http://x');
  assert.equal(seen[0]!.method, 'GET');
  assert.equal(url.pathname, '/api/v1/namespaces/a%20b/pods');
  assert.deepEqual(Object.fromEntries(url.searchParams), { labelSelector: 'app=x', limit: '5', continue: 'tok', watch: 'false' });
  assert.equal(seen[0]!.headers.accept, 'application/json, */*;q=0.8');
  assert.equal(seen[0]!.headers.authorization, 'Bearer t0ken');
  // client-node's object model: times are Date objects.
  assert.ok(list.items[0]!.metadata!.creationTimestamp instanceof Date);
  assert.equal(list.items[0]!.metadata!.creationTimestamp.toISOString(), '2026-12-02T10:00:00.000Z');
  assert.equal(list.metadata?.resourceVersion, '7');
});

test('the server URL keeps its path prefix; a trailing slash is dropped, as client-node drops it', async () => {
  await versionApi(kubeConfig('/k8s/clusters/c1')).getCode();
  assert.equal(seen[0]!.url, '/k8s/clusters/c1/version');
});

test('a body is serialized by its model (Date -> RFC 3339) and sent as JSON', async () => {
  const event: k8s.CoreV1Event = {
    metadata: { namespace: 'shop', name: 'e' },
    involvedObject: { kind: 'Pod', name: 'p' },
    eventTime: new k8s.V1MicroTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
    firstTimestamp: new Date(Date.UTC(2026, 0, 2)),
  };
  await coreApi(kubeConfig()).createNamespacedEvent({ namespace: 'shop', body: event, fieldManager: 'fm' });
  assert.equal(seen[0]!.method, 'POST');
  assert.equal(seen[0]!.url, '/api/v1/namespaces/shop/events?fieldManager=fm');
  assert.equal(seen[0]!.headers['content-type'], 'application/json');
  const sent = JSON.parse(seen[0]!.body) as Record<string, unknown>;
  assert.equal(sent['eventTime'], '2026-01-02T03:04:05.006000Z');
  assert.equal(sent['firstTimestamp'], '2026-01-02T00:00:00.000Z');
});

test('a patch carries the content type the caller chose, and force as a query flag', async () => {
  answer.body = JSON.stringify({ status: { x: 1 } });
  const custom = customObjectsApi(kubeConfig());
  const result = await custom.patchNamespacedCustomObjectStatus(
    {
      group: 'autoscaling.k8s.io',
      version: 'v1',
      plural: 'verticalpodautoscalers',
      namespace: 'ns',
      name: 'v',
      body: { status: { a: 1 } },
      fieldManager: 'tailor',
      force: true,
    },
    MERGE_PATCH,
  );
  assert.equal(seen[0]!.method, 'PATCH');
  assert.equal(seen[0]!.url, '/apis/autoscaling.k8s.io/v1/namespaces/ns/verticalpodautoscalers/v/status?fieldManager=tailor&force=true');
  assert.equal(seen[0]!.headers['content-type'], 'application/merge-patch+json');
  assert.deepEqual(JSON.parse(seen[0]!.body), { status: { a: 1 } });
  assert.deepEqual(result, { status: { x: 1 } });
});

test('a delete without a body sends none', async () => {
  await customObjectsApi(kubeConfig()).deleteNamespacedCustomObject({ group: 'g', version: 'v1', plural: 'ps', namespace: 'ns', name: 'n' });
  assert.equal(seen[0]!.method, 'DELETE');
  assert.equal(seen[0]!.body, '');
  assert.equal(seen[0]!.headers['content-type'], undefined);
});

test('an answer outside 2xx is thrown as ApiException with its code, body text and headers, and classified', async () => {
  const status = { kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409, message: 'the object has been modified' };
  answer = { status: 409, headers: { 'content-type': 'application/json', 'x-trace': 'abc' }, body: JSON.stringify(status) };
  const err = await coreApi(kubeConfig())
    .readNamespacedSecret({ namespace: 'ns', name: 's' })
    .then(
      () => assert.fail('no error'),
      (e: unknown) => e,
    );
  assert.ok(err instanceof k8s.ApiException);
  assert.equal(err.code, 409);
  assert.equal(err.body, JSON.stringify(status));
  assert.equal((err.headers as Record<string, string>)['x-trace'], 'abc');
  assert.equal(classifyApiError(err).kind, 'conflict');

  answer = {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': '3' },
    body: JSON.stringify({ kind: 'Status', reason: 'TooManyRequests', code: 429 }),
  };
  const throttled = classifyApiError(await new KubeClient(kubeConfig()).send({ method: 'GET', path: '/api/v1/pods' }).catch((e: unknown) => e));
  assert.equal(throttled.kind, 'throttled');
  assert.equal(throttled.retryAfterMs, 3_000);
});

test('401 is thrown as client-node throws it: code 401, no body', async () => {
  answer = { status: 401, headers: { 'content-type': 'application/json' }, body: '{"kind":"Status","code":401}' };
  const err = await versionApi(kubeConfig())
    .getCode()
    .catch((e: unknown) => e);
  assert.ok(err instanceof k8s.ApiException);
  assert.equal(err.code, 401);
  assert.equal(err.body, undefined);
  assert.equal(classifyApiError(err).kind, 'unauthorized');
});

test('no answer: the transport error is thrown and classified as network', async () => {
  const kc = new k8s.KubeConfig();
  // A port nobody listens on: bind one, note it, close it.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const free = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  kc.loadFromClusterAndUser({ name: 'c', server: `http://127.0.0.1:${free}`, skipTLSVerify: true }, { name: 'u' });
  const err = await versionApi(kc)
    .getCode()
    .catch((e: unknown) => e);
  assert.equal(classifyApiError(err).kind, 'network');
});

test('operationRequest: path parameters are required and encoded, undefined query values left out', () => {
  const op = { method: 'GET' as const, path: '/apis/{group}/{version}/namespaces/{namespace}/{plural}/{name}/scale', result: 'any' };
  assert.deepEqual(operationRequest(op, { group: 'g', version: 'v1', namespace: 'n/s', plural: 'ps', name: 'a', pretty: undefined }), {
    method: 'GET',
    path: '/apis/g/v1/namespaces/n%2Fs/ps/a/scale',
    query: {},
  });
  assert.throws(() => operationRequest(op, { group: 'g', version: 'v1', plural: 'ps', name: 'a' }), /the parameter namespace is required/);
});
