import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import { classifyApiError } from '../../src/kube/errors.ts';
import { kubeUpdaterApi, type UpdaterApi } from '../../src/updater/updater-api.ts';
import { JSON_PATCH_CONTENT_TYPE } from '../../src/updater/resize-patch.ts';
import { podEvent } from '../../src/updater/updater-events.ts';

/** What the server saw of one request. */
interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  authorization: string | undefined;
  userAgent: string | undefined;
  body: unknown;
}

let server: Server;
let port: number;
const seen: Seen[] = [];
/** The next answer: status, body and headers (default 201 with an empty object). */
let answer: { status: number; body: string; headers?: Record<string, string> } = { status: 201, body: '{}' };

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const h: IncomingHttpHeaders = req.headers;
      seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: h['content-type'], authorization: h.authorization, userAgent: h['user-agent'], body: text ? JSON.parse(text) : undefined });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function kubeConfig(serverPort: number): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromClusterAndUser({ name: 'c', server: `http://127.0.0.1:${serverPort}`, skipTLSVerify: true }, { name: 'u', token: 'secret-token' });
  return kc;
}

/** The same four calls through client-node's typed clients (what the updater sent before decision 0237). */
function clientNodeApi(kc: k8s.KubeConfig): UpdaterApi {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const JSON_PATCH = k8s.setHeaderOptions('Content-Type', JSON_PATCH_CONTENT_TYPE);
  const MERGE_PATCH = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
  return {
    async resize(request, fieldManager) {
      const params = { namespace: request.namespace, name: request.name, body: request.patch, fieldManager };
      if (request.subresource === 'resize') await core.patchNamespacedPodResize(params, JSON_PATCH);
      else await core.patchNamespacedPod(params, JSON_PATCH);
    },
    async evict(namespace, name, uid) {
      await core.createNamespacedPodEviction({ namespace, name, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, ...(uid ? { deleteOptions: { preconditions: { uid } } } : {}) } });
    },
    async recordEvent(event) {
      await core.createNamespacedEvent({ namespace: event.metadata.namespace ?? 'default', body: event });
    },
    async patchVpaConditions(namespace, name, resourceVersion, conditions, fieldManager) {
      const body = { ...(resourceVersion ? { metadata: { resourceVersion } } : {}), status: { conditions } };
      await custom.patchNamespacedCustomObjectStatus({ group: 'autoscaling.k8s.io', version: 'v1', plural: 'verticalpodautoscalers', namespace, name, body, fieldManager }, MERGE_PATCH);
    },
  };
}

/** Every call the updater makes, once. */
async function everyCall(api: UpdaterApi): Promise<void> {
  const patch = [{ op: 'test' as const, path: '/spec/containers/0/name', value: 'app' }, { op: 'add' as const, path: '/spec/containers/0/resources/requests/cpu', value: '250m' }];
  await api.resize({ namespace: 'shop', name: 'web-1', subresource: 'resize', contentType: JSON_PATCH_CONTENT_TYPE, patch }, 'tailor-updater');
  await api.resize({ namespace: 'shop', name: 'web 2', subresource: undefined, contentType: JSON_PATCH_CONTENT_TYPE, patch }, 'tailor-updater');
  await api.evict('shop', 'web-1', 'uid-1');
  await api.evict('shop', 'web-2', undefined);
  await api.recordEvent(podEvent({ namespace: 'shop', name: 'web-1', uid: 'uid-1' }, 'ResizedInPlace', 'Normal', 'cpu 100m -> 250m', Date.UTC(2026, 0, 1, 0, 10), 'tailor-0'));
  await api.patchVpaConditions!('shop', 'web', '42', [{ type: 'HpaConflict', status: 'True', lastTransitionTime: '2026-01-01T00:10:00Z', message: 'cpu left to the HPA' }], 'tailor-updater');
}

const decoded = (s: Seen) => ({ ...s, url: decodeURIComponent(s.url.replace(/\+/g, ' ')) });

test('the updater sends the same requests as client-node\'s typed clients: method, path, query, content type, credentials, User-Agent and JSON body', async () => {
  answer = { status: 201, body: '{}' };
  seen.length = 0;
  await everyCall(clientNodeApi(kubeConfig(port)));
  const reference = seen.splice(0).map(decoded);
  await everyCall(kubeUpdaterApi(kubeConfig(port)));
  const now = seen.splice(0).map(decoded);
  assert.equal(now.length, 6);
  assert.deepEqual(now, reference);
  assert.deepEqual(now.map((s) => `${s.method} ${s.url}`), [
    'PATCH /api/v1/namespaces/shop/pods/web-1/resize?fieldManager=tailor-updater',
    'PATCH /api/v1/namespaces/shop/pods/web 2?fieldManager=tailor-updater',
    'POST /api/v1/namespaces/shop/pods/web-1/eviction',
    'POST /api/v1/namespaces/shop/pods/web-2/eviction',
    'POST /api/v1/namespaces/shop/events',
    'PATCH /apis/autoscaling.k8s.io/v1/namespaces/shop/verticalpodautoscalers/web/status?fieldManager=tailor-updater',
  ]);
});

async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  return assert.fail('the call did not fail');
}

test('failed answers and a refused connection are classified as client-node\'s errors were', async () => {
  const answers = [
    { status: 429, body: '{"kind":"Status","reason":"TooManyRequests","message":"Cannot evict pod as it would violate the pod\'s disruption budget.","details":{"causes":[{"reason":"DisruptionBudget"}]}}', headers: { 'retry-after': '3' } },
    { status: 409, body: '{"kind":"Status","reason":"Conflict","message":"the object has been modified"}' },
    { status: 422, body: '{"kind":"Status","reason":"Invalid","message":"bad","details":{"causes":[{"field":"spec.containers[0].resources","message":"x"}]}}' },
    { status: 401, body: '{"kind":"Status","reason":"Unauthorized","message":"Unauthorized"}' },
    { status: 503, body: '<html>down</html>' },
  ];
  for (const a of answers) {
    answer = a;
    for (const call of [(api: UpdaterApi) => api.evict('shop', 'web-1', 'u'), (api: UpdaterApi) => api.recordEvent(podEvent({ namespace: 'shop', name: 'web-1' }, 'X', 'Normal', 'm', 0, 'i'))]) {
      const before = classifyApiError(await failure(() => call(clientNodeApi(kubeConfig(port)))));
      const now = classifyApiError(await failure(() => call(kubeUpdaterApi(kubeConfig(port)))));
      assert.deepEqual(now, before, `HTTP ${a.status}`);
    }
  }
  const closed = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const before = classifyApiError(await failure(() => clientNodeApi(kubeConfig(closed)).evict('shop', 'web-1', 'u')));
  const now = classifyApiError(await failure(() => kubeUpdaterApi(kubeConfig(closed)).evict('shop', 'web-1', 'u')));
  assert.deepEqual(now, before);
  assert.equal(now.kind, 'network');
});
