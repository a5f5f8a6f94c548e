/**
 * The small cluster the integration tests read back from a real Prometheus / VictoriaMetrics:
 * two namespaces, four containers with known usage, one of each awkward case (duplicate scrape
 * jobs, a counter reset, NaN samples, OOM kills by both routes, the pause container, a decoy
 * series from another cluster). 8 days at one-minute resolution (about 0.3 M samples).
 */
import { MINUTE, usageFixture, type FixtureContainer } from './usage-fixture.ts';
import type { FixtureSeries } from './fixture-series.ts';

export const START = Date.UTC(2026, 0, 1);
export const DAYS = 8;
export const END = START + DAYS * 24 * 3600_000;
export const MiB = 1024 * 1024;

/** A spike of the web-1 working set, 15 s after the minute: only a peak-preserving query sees it. */
export const SPIKE_AT = START + 2 * 24 * 3600_000 + 30 * MINUTE + 15_000;
export const DB_RESET_AT = START + 3 * 24 * 3600_000;
export const DB_OOM_AT = START + 4 * 24 * 3600_000 + 7 * MINUTE;
export const REPORT_OOM_AT = START + 5 * 24 * 3600_000 + 11 * MINUTE;
export const REPORT_NAN_AT = [START + 6 * 24 * 3600_000, START + 6 * 24 * 3600_000 + 5 * MINUTE];

/** CPU: a saw-tooth between 0.1 and 0.55 cores repeating every 10 minutes, scaled per container. */
export const sawtooth = (scale: number) => (t: number) => scale * (0.1 + 0.05 * (Math.round(t / MINUTE) % 10));
/** Memory: a daily ramp between base and base + 100 MiB. */
export const ramp = (base: number) => (t: number) => base + Math.floor(((t % (24 * 3600_000)) / (24 * 3600_000)) * 100) * MiB;

export const CONTAINERS: FixtureContainer[] = [
  {
    namespace: 'shop',
    pod: 'web-abc-1',
    container: 'app',
    owner: { kind: 'Deployment', name: 'web', replicaSet: 'web-abc' },
    cpuCores: sawtooth(1),
    memoryBytes: (t) => (t === SPIKE_AT ? 900 * MiB : ramp(200 * MiB)(t)),
    requests: { cpu: 0.5, memory: 512 * MiB },
    limits: { cpu: 1, memory: 1024 * MiB },
    duplicated: true,
  },
  {
    namespace: 'shop',
    pod: 'web-abc-2',
    container: 'app',
    owner: { kind: 'Deployment', name: 'web', replicaSet: 'web-abc' },
    cpuCores: sawtooth(1.2),
    memoryBytes: ramp(220 * MiB),
    requests: { cpu: 0.5, memory: 512 * MiB },
    limits: { cpu: 1, memory: 1024 * MiB },
  },
  {
    namespace: 'shop',
    pod: 'db-0',
    container: 'postgres',
    owner: { kind: 'StatefulSet', name: 'db' },
    cpuCores: sawtooth(2),
    memoryBytes: ramp(1024 * MiB),
    requests: { cpu: 1, memory: 2048 * MiB },
    counterResetAt: DB_RESET_AT,
    oomKillsAt: [DB_OOM_AT],
  },
  {
    namespace: 'batch',
    pod: 'report-123-xyz',
    container: 'worker',
    owner: { kind: 'CronJob', name: 'report', job: 'report-123' },
    cpuCores: sawtooth(0.5),
    memoryBytes: ramp(300 * MiB),
    requests: { cpu: 0.25, memory: 256 * MiB },
    oomKillsAt: [REPORT_OOM_AT],
    oomViaCadvisor: true,
    cpuNaNAt: REPORT_NAN_AT,
  },
];

/** Containers that must never be read: the pause container and another cluster's twin. */
const IGNORED: FixtureContainer[] = [
  {
    namespace: 'shop',
    pod: 'web-abc-1',
    container: 'POD',
    owner: { kind: 'Deployment', name: 'web', replicaSet: 'web-abc' },
    cpuCores: () => 0.001,
    memoryBytes: () => MiB,
  },
];
const OTHER_CLUSTER: FixtureContainer[] = [
  { namespace: 'shop', pod: 'decoy-1', container: 'app', owner: { kind: 'none' }, cpuCores: () => 9, memoryBytes: () => 9000 * MiB, requests: { cpu: 9 } },
];

/** Every series of the sample cluster (ours labelled cluster="test"). */
export function sampleClusterSeries(): FixtureSeries[] {
  return [
    ...usageFixture([...CONTAINERS, ...IGNORED], { start: START, end: END, extraLabels: { cluster: 'test' } }),
    ...usageFixture(OTHER_CLUSTER, { start: START, end: END, extraLabels: { cluster: 'other' } }),
  ];
}
