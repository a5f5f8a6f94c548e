/**
 * Runs the fidelity corpus (corpus.ts) against one API server — kube-sim or a real cluster — over
 * real HTTPS, and reduces each answer to what is compared: the HTTP code, the Status `reason`,
 * `details.causes[].field/reason`, the Status message (normalised: the namespace, UIDs, random name
 * suffixes, resource versions and a node's allocatable differ between runs), and for a success the entry's projection
 * of the body (e.g. the managedFields entries, a created pod's defaults, a watch's events).
 */
import { request as httpsRequest, type RequestOptions } from 'node:https';
import * as k8s from '@kubernetes/client-node';
import { FIXTURES, type CorpusEntry, type CorpusRequest, type FixtureName } from './corpus.ts';

/** What one request is reduced to. */
export interface Answer {
  code: number;
  reason?: string;
  message?: string;
  causes?: { field: string; reason: string }[];
  view?: unknown;
}

/** An API server to run the corpus against. */
export interface CorpusTarget {
  /** The server's KubeConfig (admin). */
  kc: k8s.KubeConfig;
  /**
   * Waits until `probe` returns a value: kube-sim advances its simulated clock between probes,
   * the real cluster is polled; fails after a generous deadline naming `what`.
   */
  settle<T>(what: string, probe: () => Promise<T | undefined>): Promise<T>;
}

/** The user agent every corpus request carries; the real server derives a manager name ("corpus") from it. */
export const USER_AGENT = 'corpus/1.0';

interface Raw {
  status: number;
  text: string;
}

/** One raw request; for a watch, reads events until `untilBookmark` sees the initial-events-end bookmark, an ERROR, or 10 s. */
async function send(kc: k8s.KubeConfig, req: CorpusRequest, ns: string, watch: boolean): Promise<Raw> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(fill(req.path, ns), cluster.server);
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
  const options: RequestOptions = {
    method: req.method,
    headers: { 'user-agent': USER_AGENT, accept: 'application/json', ...(req.body !== undefined ? { 'content-type': req.contentType ?? 'application/json' } : {}) },
  };
  await kc.applyToHTTPSOptions(options);
  const payload = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body).replaceAll('{ns}', ns);
  return new Promise((resolve, reject) => {
    const r = httpsRequest(url, options, (res) => {
      let text = '';
      const done = () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text });
        res.destroy();
      };
      const timer = setTimeout(done, watch ? 10_000 : 60_000);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (watch && /"type":"ERROR"|k8s\.io\/initial-events-end/.test(text) && text.endsWith('\n')) done();
      });
      res.on('end', done);
      res.on('error', reject);
    });
    r.on('error', reject);
    if (payload !== undefined) r.write(payload);
    r.end();
  });
}

function fill(path: string, ns: string): string {
  return path.replaceAll('{ns}', ns);
}

/** Replaces what differs between runs and servers: the namespace, UIDs, random suffixes, resource versions. */
export function normalise(text: string, ns: string): string {
  return text
    .replaceAll(ns, '{ns}')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{uid}')
    .replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-{rand}')
    .replace(/too old resource version: \d+ \(\d+\)/g, 'too old resource version: {rv} ({rv})')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, '{time}')
    .replace(/allocatable: \d+/g, 'allocatable: {n}');
}

/** A message ending with a unified diff, reduced to its first line and the changed lines (trimmed). */
export function diffLines(message: string): string {
  const [first = '', ...rest] = message.split('\n');
  const changed = rest.filter((l) => /^[-+](?![-+]{2})/.test(l)).map((l) => `${l[0]} ${l.slice(1).trim()}`);
  return [first, ...changed].join('\n');
}

/** Reduces a raw answer to an Answer (see the module comment). */
export function reduce(entry: CorpusEntry, raw: Raw, ns: string): Answer {
  let body: unknown;
  try {
    body = entry.request.watch && raw.status < 300 ? raw.text : JSON.parse(raw.text);
  } catch {
    body = raw.text;
  }
  const status = body as { kind?: string; reason?: string; message?: string; details?: { causes?: { field?: string; reason?: string }[] } };
  if (status?.kind === 'Status' && raw.status >= 300) {
    const message = normalise(status.message ?? '', ns);
    const answer: Answer = { code: raw.status, reason: status.reason ?? '', message: entry.diffMessage ? diffLines(message) : message };
    if (status.details?.causes) answer.causes = status.details.causes.map((c) => ({ field: c.field ?? '', reason: c.reason ?? '' }));
    return answer;
  }
  if (raw.status >= 300) return { code: raw.status, message: normalise(typeof body === 'string' ? body : JSON.stringify(body), ns) };
  const answer: Answer = { code: raw.status };
  if (entry.view) answer.view = JSON.parse(normalise(JSON.stringify(entry.view(body) ?? null), ns)) as unknown;
  return answer;
}

/** Creates an entry's fixtures in `ns` and waits for those that must settle. */
async function prepare(target: CorpusTarget, ns: string, fixtures: readonly FixtureName[]): Promise<void> {
  const core = target.kc.makeApiClient(k8s.CoreV1Api);
  const policy = target.kc.makeApiClient(k8s.PolicyV1Api);
  for (const name of fixtures) {
    const fixture = FIXTURES[name];
    if (fixture.pod) await core.createNamespacedPod({ namespace: ns, body: fixture.pod(), fieldManager: 'corpus-setup' });
    if (fixture.pdb) await policy.createNamespacedPodDisruptionBudget({ namespace: ns, body: fixture.pdb() });
    if (fixture.pod && fixture.running) {
      const podName = fixture.pod().metadata!.name!;
      await target.settle(`pod ${ns}/${podName} Ready`, async () => {
        const pod = await core.readNamespacedPod({ namespace: ns, name: podName });
        return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? true : undefined;
      });
    }
    if (fixture.pdb) {
      const pdbName = fixture.pdb().metadata!.name!;
      await target.settle(`PodDisruptionBudget ${ns}/${pdbName} observed`, async () => {
        const pdb = await policy.readNamespacedPodDisruptionBudget({ namespace: ns, name: pdbName });
        return (pdb.status?.observedGeneration ?? 0) >= 1 && (pdb.status?.currentHealthy ?? 0) >= 1 ? true : undefined;
      });
    }
  }
}

/** Runs one entry in a namespace of its own; `before` steps must succeed. */
export async function runEntry(target: CorpusTarget, entry: CorpusEntry, ns: string): Promise<Answer> {
  await prepare(target, ns, entry.fixtures ?? []);
  for (const [i, step] of (entry.before ?? []).entries()) {
    const raw = await send(target.kc, step, ns, false);
    if (raw.status >= 300) throw new Error(`${entry.id}: step ${i + 1} before the request failed: ${raw.status} ${raw.text.slice(0, 400)}`);
  }
  return reduce(entry, await send(target.kc, entry.request, ns, Boolean(entry.request.watch)), ns);
}

/** Creates a fresh namespace (waiting for its default service account) for one entry. */
export async function entryNamespace(target: CorpusTarget, id: string): Promise<string> {
  const core = target.kc.makeApiClient(k8s.CoreV1Api);
  const created = await core.createNamespace({ body: { metadata: { generateName: `corpus-${id.slice(0, 40)}-` } } });
  const ns = created.metadata!.name!;
  await target.settle(`service account default in ${ns}`, () => core.readNamespacedServiceAccount({ namespace: ns, name: 'default' }).then(() => true, () => undefined));
  return ns;
}

/** Deletes an entry's namespace (not waiting for it to go). */
export async function dropEntryNamespace(target: CorpusTarget, ns: string): Promise<void> {
  await target.kc.makeApiClient(k8s.CoreV1Api).deleteNamespace({ name: ns, gracePeriodSeconds: 0 }).catch(() => undefined);
}
