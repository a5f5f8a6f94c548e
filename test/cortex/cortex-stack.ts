/**
 * One Cortex on loopback for the tests, single-process (`-target=all`) with multi-tenancy on
 * (`-auth.enabled`, Cortex's default: every request names its tenant in `X-Scope-OrgID`), blocks
 * storage on the filesystem of a temp dir, the rings in memory, and its HTTP and gRPC servers on
 * free 127.0.0.1 ports (the Alertmanager's cluster listener off). `push(tenant, series)` remote-
 * writes fixture series, with their own old timestamps, to the distributor's push endpoint
 * (remote-write.ts); `prometheusUrl` is Cortex's Prometheus API, the one Tailor reads. The
 * ingesters keep every block on their own disk (ship interval 0, a 10-year retention): the old
 * fixture is answered by the ingesters' TSDBs, not by the store-gateway. `stop()` ends Cortex and
 * removes the data. Cortex is built once from the Go module proxy (build-cortex.sh).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/local-prometheus/free-port.ts';
import { startServerProcess, type ServerProcess } from '../../src/local-prometheus/prometheus-process.ts';
import type { FixtureSeries } from '../support/fixture-series.ts';
import { writeRequestsInTimeOrder } from './remote-write.ts';

export interface CortexStack {
  /** Cortex's HTTP server. */
  url: string;
  /** Its Prometheus API (the `/prometheus` prefix): what Tailor's `--prometheus-url` names. */
  prometheusUrl: string;
  /** Remote-writes `series` as `tenant`; returns the number of samples sent. */
  push(tenant: string, series: readonly FixtureSeries[]): Promise<number>;
  stop(): Promise<void>;
}

const READY_MS = 90_000;
/** Half an hour of samples per write request: under half the 2 h TSDB block range (remote-write.ts). */
const WINDOW_MS = 30 * 60_000;

function cortexArgs(work: string, httpPort: number, grpcPort: number): string[] {
  return [
    '-target=all',
    '-auth.enabled=true',
    '-server.http-listen-address=127.0.0.1',
    `-server.http-listen-port=${httpPort}`,
    '-server.grpc-listen-address=127.0.0.1',
    `-server.grpc-listen-port=${grpcPort}`,
    '-log.level=warn',
    // One ingester, its ring in memory, ready at once and advertising loopback.
    '-ring.store=inmemory',
    '-distributor.replication-factor=1',
    '-ingester.lifecycler.addr=127.0.0.1',
    '-ingester.min-ready-duration=0s',
    '-ingester.final-sleep=0s',
    '-store-gateway.sharding-ring.store=inmemory',
    '-compactor.ring.store=inmemory',
    '-ruler.ring.store=inmemory',
    '-distributor.ring.store=inmemory',
    '-alertmanager.sharding-ring.store=inmemory',
    // Blocks storage on the filesystem; blocks stay with the ingester (the fixture is months old).
    '-blocks-storage.backend=filesystem',
    `-blocks-storage.filesystem.dir=${join(work, 'bucket')}`,
    `-blocks-storage.tsdb.dir=${join(work, 'tsdb')}`,
    `-blocks-storage.bucket-store.sync-dir=${join(work, 'tsdb-sync')}`,
    '-blocks-storage.tsdb.ship-interval=0',
    '-blocks-storage.tsdb.retention-period=87600h',
    `-compactor.data-dir=${join(work, 'compactor')}`,
    `-querier.active-query-tracker-dir=${join(work, 'active-query-tracker')}`,
    // The ruler and the Alertmanager (parts of `all`) on local storage, no cluster listener.
    '-ruler-storage.backend=local',
    `-ruler-storage.local.directory=${join(work, 'rules')}`,
    `-ruler.rule-path=${join(work, 'rules-tmp')}`,
    '-alertmanager-storage.backend=local',
    `-alertmanager-storage.local.path=${join(work, 'alerts')}`,
    `-alertmanager.storage.path=${join(work, 'alertmanager')}`,
    '-alertmanager.cluster.listen-address=',
    '-alertmanager.web.external-url=http://127.0.0.1/alertmanager',
    // The whole fixture is pushed within seconds.
    '-distributor.ingestion-rate-limit=100000000',
    '-distributor.ingestion-burst-size=100000000',
  ];
}

/** Starts Cortex with an empty store. */
export async function startCortex(cortex: string): Promise<CortexStack> {
  const work = await mkdtemp(join(tmpdir(), 'tailor-cortex-'));
  for (const dir of ['bucket', 'rules', 'alerts']) await mkdir(join(work, dir));
  const grpc = await freePort();
  let server: ServerProcess;
  try {
    server = await startServerProcess({
      command: cortex,
      args: (port) => cortexArgs(work, port, grpc),
      readyPath: '/ready',
      readyTimeoutMs: READY_MS,
    });
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    throw err;
  }
  const push = async (tenant: string, series: readonly FixtureSeries[]) => {
    let samples = 0;
    for (const body of writeRequestsInTimeOrder(series, WINDOW_MS)) {
      const response = await fetch(`${server.url}/api/v1/push`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-protobuf',
          'Content-Encoding': 'snappy',
          'X-Prometheus-Remote-Write-Version': '0.1.0',
          'X-Scope-OrgID': tenant,
        },
        body: new Uint8Array(body),
      });
      if (!response.ok) throw new Error(`Cortex refused a write for tenant ${tenant}: HTTP ${response.status} ${await response.text()}`);
    }
    for (const s of series) samples += s.samples.length;
    return samples;
  };
  return {
    url: server.url,
    prometheusUrl: `${server.url}/prometheus`,
    push,
    async stop() {
      await server.stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}
