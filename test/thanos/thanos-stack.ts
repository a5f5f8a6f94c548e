/**
 * A Thanos deployment on loopback for the tests: one real Prometheus (Debian's) per store, each
 * backfilled with its own series and named by its external labels (`replica="a"`, ...), a Thanos
 * sidecar in front of each (StoreAPI over gRPC, reading Prometheus through remote read), and one
 * Thanos Query over all the sidecars, deduplicating by `replicaLabel`. `stopStore(i)` takes one
 * store away (its sidecar), as a replica that goes down; `stop()` ends everything and removes
 * the data. Thanos is built once from the Go module proxy (build-thanos.sh).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/local-prometheus/free-port.ts';
import { startLocalPrometheus, startServerProcess, type ServerProcess } from '../../src/local-prometheus/prometheus-process.ts';
import type { FixtureSeries } from '../support/fixture-series.ts';
import { writeOpenMetricsByDay } from '../support/prometheus-server.ts';

/** One Prometheus behind a sidecar: its series and the external labels that name it. */
export interface ThanosStore {
  series: readonly FixtureSeries[];
  externalLabels: Record<string, string>;
}

export interface ThanosStack {
  /** Thanos Query's HTTP API (the PromQL API Tailor reads). */
  url: string;
  /** Stops store `i`'s sidecar: Query then answers from the others, with a warning. */
  stopStore(i: number): Promise<void>;
  stop(): Promise<void>;
}

const READY_MS = 90_000;

function prometheusConfig(externalLabels: Record<string, string>): string {
  const labels = Object.entries(externalLabels).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`);
  return ['global:', '  scrape_interval: 1h', '  external_labels:', ...labels, ''].join('\n');
}

/** Waits until Query lists `count` stores (its /api/v1/stores), so the first query sees them all. */
async function waitForStores(url: string, count: number): Promise<void> {
  const deadline = Date.now() + READY_MS;
  let seen = 0;
  while (Date.now() < deadline) {
    const answer = (await (await fetch(`${url}/api/v1/stores`)).json()) as { data?: Record<string, { lastError?: string | null }[]> };
    seen = Object.values(answer.data ?? {})
      .flat()
      .filter((s) => !s.lastError).length;
    if (seen >= count) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Thanos Query saw ${seen} of ${count} stores after ${READY_MS / 1000} s`);
}

/** Starts the stores, their sidecars and Query (deduplicating by `replicaLabel`). */
export async function startThanos(thanos: string, stores: readonly ThanosStore[], replicaLabel = 'replica'): Promise<ThanosStack> {
  const work = await mkdtemp(join(tmpdir(), 'tailor-thanos-'));
  const started: { stop(): Promise<void> }[] = [];
  const sidecars: ServerProcess[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop();
    await rm(work, { recursive: true, force: true });
  };
  try {
    const grpcPorts: number[] = [];
    for (const [i, store] of stores.entries()) {
      const dir = join(work, `store-${i}`);
      const files = await writeOpenMetricsByDay(store.series, await mkdtemp(join(work, `series-${i}-`)));
      const prometheus = await startLocalPrometheus({ files, config: prometheusConfig(store.externalLabels), workDir: dir });
      started.push(prometheus);
      const grpc = await freePort();
      grpcPorts.push(grpc);
      const sidecar = await startServerProcess({
        command: thanos,
        args: (port) => [
          'sidecar',
          `--prometheus.url=${prometheus.url}`,
          `--tsdb.path=${join(dir, 'data')}`,
          `--http-address=127.0.0.1:${port}`,
          `--grpc-address=127.0.0.1:${grpc}`,
          '--log.level=warn',
        ],
        readyPath: '/-/ready',
        readyTimeoutMs: READY_MS,
      });
      started.push(sidecar);
      sidecars.push(sidecar);
    }
    const grpc = await freePort();
    const query = await startServerProcess({
      command: thanos,
      args: (port) => [
        'query',
        `--http-address=127.0.0.1:${port}`,
        `--grpc-address=127.0.0.1:${grpc}`,
        `--query.replica-label=${replicaLabel}`,
        ...grpcPorts.map((p) => `--endpoint=127.0.0.1:${p}`),
        '--log.level=warn',
      ],
      readyPath: '/-/ready',
      readyTimeoutMs: READY_MS,
    });
    started.push(query);
    await waitForStores(query.url, stores.length);
    return { url: query.url, stopStore: (i) => sidecars[i]!.stop(), stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
