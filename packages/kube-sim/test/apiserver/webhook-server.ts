/**
 * A real HTTPS admission webhook server for tests: a fresh CA and a certificate for 127.0.0.1 and
 * `hooks.test.svc`; per path behaviour (`/label` adds a label by JSON Patch, `/deny` denies with
 * code 403, `/allow` allows, `/warn` allows with a warning, `/team` adds team=a to objects labelled mutated, `/slow` answers after {@link SLOW_ANSWER_MS}); every received review is recorded.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority } from '../../src/apiserver/certificates.ts';

/** A received AdmissionReview request. */
export interface ReceivedReview {
  path: string;
  request: {
    uid: string;
    operation: string;
    kind: { kind: string };
    subResource?: string;
    name: string;
    namespace: string;
    object: { metadata?: { labels?: Record<string, string> } } | null;
    userInfo: { username: string };
  };
}

/** The running webhook server. */
export interface TestWebhookServer {
  url: (path: string) => string;
  port: number;
  caBundle: string;
  received: ReceivedReview[];
  close: () => Promise<void>;
}

/**
 * When `/slow` answers: far beyond any timeoutSeconds a test sets (1 s), so a call that returns
 * early was cut by the timeout even on a loaded machine.
 */
export const SLOW_ANSWER_MS = 10_000;

/** Starts the server on 127.0.0.1 (port 0). */
export async function startWebhookServer(): Promise<TestWebhookServer> {
  const slow = new Set<NodeJS.Timeout>();
  const ca = createCertificateAuthority('webhook-test-ca');
  const cert = ca.issueServerCertificate('hooks', ['hooks.test.svc']);
  const received: ReceivedReview[] = [];
  const server: Server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: ReceivedReview['request'] };
      received.push({ path, request: review.request });
      const response: Record<string, unknown> = { uid: review.request.uid, allowed: true };
      if (path === '/label') {
        const hasLabels = Boolean(review.request.object?.metadata?.labels);
        const ops = hasLabels
          ? [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]
          : [{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }];
        response['patchType'] = 'JSONPatch';
        response['patch'] = Buffer.from(JSON.stringify(ops)).toString('base64');
      }
      if (path === '/team') {
        // Adds team=a once a `mutated` label exists (so it depends on an earlier or later webhook).
        const labels = review.request.object?.metadata?.labels ?? {};
        if (labels['mutated'] && !labels['team']) {
          response['patchType'] = 'JSONPatch';
          response['patch'] = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels/team', value: 'a' }])).toString('base64');
        }
      }
      if (path === '/warn') response['warnings'] = ['this pod has no "owner" label'];
      if (path === '/deny') {
        response['allowed'] = false;
        response['status'] = { code: 403, message: 'pods labelled deny are not welcome' };
      }
      const send = (): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      };
      if (path === '/slow') {
        const timer = setTimeout(() => {
          slow.delete(timer);
          send();
        }, SLOW_ANSWER_MS);
        slow.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    port,
    caBundle: ca.caBundle,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of slow) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
