/**
 * A synthetic PromQL HTTP API for the scale bench (`npm run bench:scale`): answers the queries the
 * usage feed sends (series lookups, namespace counts, the raw-sample scrape-interval query, CPU and
 * memory range queries; OOM queries get no series) for N containers in namespaces of 50, with the
 * same curves as bench/prometheus.ts, computed on request. No samples are stored, so 100,000
 * containers x 8 days need no backfill (a real Prometheus backfill of 10,000 containers takes about
 * an hour on the 2-core development machine). What it does not do: evaluate PromQL. Tailor's side
 * (HTTP, decoding, batching, the model) runs as against Prometheus; the answers' shape and size
 * match Prometheus's (bench:prometheus at 1,000 on both: docs/scale.md).
 *
 * Run as its own process: `node --import tsx bench/synthetic-prometheus.ts N END_MS STEP_MS [DAYS]` (the
 * series have samples over the DAYS (default 8) before END_MS); it
 * prints `listening <url>` and serves until killed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cores, memory } from './usage-curves.ts';

const [nText, endText, stepText, daysText = '8'] = process.argv.slice(2);
const N = Number(nText);
const END = Number(endText);
const STEP = Number(stepText);
const DAY = 24 * 3600_000;
const START = END - Number(daysText) * DAY;
const PER_NAMESPACE = 50;
if (!(N > 0 && END > 0 && STEP > 0)) throw new Error('usage: bench/synthetic-prometheus.ts N END_MS STEP_MS');

const namespaceOf = (i: number) => `ns-${String(Math.floor(i / PER_NAMESPACE)).padStart(4, '0')}`;
const podOf = (i: number) => `app-${String(i).padStart(6, '0')}-x`;
const namespaceCount = Math.ceil(N / PER_NAMESPACE);

/** Container indexes of the namespaces a query names (`namespace="a"` or `namespace=~"a|b"`), or all. */
function containersOf(query: string): number[] {
  const m = /namespace(=~|=)"((?:[^"\\]|\\.)*)"/.exec(query);
  const out: number[] = [];
  const wanted = m
    ? m[2]!
        .replace(/\\\\/g, '\\')
        .split('|')
        .map((s) => s.replace(/\\/g, ''))
    : undefined;
  const namespaces = wanted ?? Array.from({ length: namespaceCount }, (_, k) => namespaceOf(k * PER_NAMESPACE));
  for (const ns of namespaces) {
    const k = Number(ns.slice(3));
    if (!Number.isInteger(k) || k < 0 || k >= namespaceCount) continue;
    for (let i = k * PER_NAMESPACE; i < Math.min(N, (k + 1) * PER_NAMESPACE); i++) out.push(i);
  }
  return out;
}

const labels = (i: number) => `{"namespace":"${namespaceOf(i)}","pod":"${podOf(i)}","container":"app"}`;

/** Writes a matrix answer series by series, waiting for the socket to drain. */
async function writeMatrix(
  res: http.ServerResponse,
  containers: number[],
  start: number,
  end: number,
  step: number,
  value: ((i: number, t: number) => string) | undefined,
): Promise<void> {
  res.setHeader('content-type', 'application/json');
  res.write('{"status":"success","data":{"resultType":"matrix","result":[');
  if (value) {
    let first = true;
    for (const i of containers) {
      const points: string[] = [];
      for (let t = Math.max(start, START); t <= Math.min(end, END); t += step) points.push(`[${t / 1000},"${value(i, t)}"]`);
      if (points.length === 0) continue;
      if (!res.write(`${first ? '' : ','}{"metric":${labels(i)},"values":[${points.join(',')}]}`)) await new Promise((r) => res.once('drain', r));
      first = false;
    }
  }
  res.end(']}}');
}

async function answer(path: string, params: URLSearchParams, res: http.ServerResponse): Promise<void> {
  const query = params.get('query') ?? '';
  if (path.endsWith('/series')) {
    const containers = params.getAll('match[]').some((m) => m.startsWith('container_cpu_usage_seconds_total'))
      ? containersOf(params.getAll('match[]').join(' '))
      : [];
    res.setHeader('content-type', 'application/json');
    res.end(`{"status":"success","data":[${containers.map((i) => labels(i).replace('{', '{"__name__":"container_cpu_usage_seconds_total",')).join(',')}]}`);
    return;
  }
  if (path.endsWith('/query_range')) {
    const start = Number(params.get('start')) * 1000;
    const end = Number(params.get('end')) * 1000;
    const step = Number(params.get('step')) * 1000;
    const value = query.includes('rate(')
      ? (i: number, t: number) => String(cores(i, t))
      : query.includes('max_over_time(')
        ? (i: number, t: number) => String(memory(i, t))
        : undefined;
    await writeMatrix(res, containersOf(query), start, end, step, value);
    return;
  }
  // Instant queries: the namespace count of a cycle, or the raw samples of one namespace.
  const at = Number(params.get('time')) * 1000;
  res.setHeader('content-type', 'application/json');
  if (query.startsWith('count by')) {
    const counts = new Map<string, number>();
    for (const i of containersOf(query)) counts.set(namespaceOf(i), (counts.get(namespaceOf(i)) ?? 0) + 1);
    res.end(
      `{"status":"success","data":{"resultType":"vector","result":[${[...counts].map(([ns, n]) => `{"metric":{"namespace":"${ns}"},"value":[${at / 1000},"${n}"]}`).join(',')}]}}`,
    );
    return;
  }
  const raw = containersOf(query).slice(0, PER_NAMESPACE);
  const series = raw.map((i) => {
    const times: string[] = [];
    for (let t = Math.floor(at / STEP) * STEP - 3600_000 + STEP; t <= at; t += STEP) times.push(`[${t / 1000},"${i}"]`);
    return `{"metric":${labels(i)},"values":[${times.join(',')}]}`;
  });
  res.end(`{"status":"success","data":{"resultType":"matrix","result":[${series.join(',')}]}}`);
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => {
    const [path = '', search = ''] = (req.url ?? '').split('?');
    const params = new URLSearchParams(req.method === 'POST' ? body : search);
    answer(path, params, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ status: 'error', errorType: 'internal', error: String(err) }));
    });
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`));
