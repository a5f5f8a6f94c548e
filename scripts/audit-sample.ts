/**
 * A sample audit report for the pictures in docs/audit.md (`npm run docs:audit-screenshots`) and
 * the browser check of the page's layout: eight workload containers in four namespaces over an
 * 8-day window, built the way `tailor audit` builds one (usage series through the usage outline,
 * rows through buildAudit, a previous summary for the trend). Deterministic: the same report every
 * time. Every case the page draws is in it: under-, over-provisioned and fit, a workload with two
 * containers (one YAML block), a nightly CronJob (a broken line), a Deployment 27 minutes old (low
 * confidence, a short line), a Pod without requests (unknown).
 */
import { OwnerIndex } from '../src/metrics/owner-resolution.ts';
import type { OwnerLink } from '../src/metrics/metrics-source.ts';
import { buildAudit, type AuditReport } from '../src/report/audit/audit-report.ts';
import { UsageOutline } from '../src/report/audit/usage-outline.ts';
import type { ReportRow } from '../src/report/report-rows.ts';
import { UsageRisk } from '../src/report/usage-risk.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MiB = 2 ** 20;
const GiB = 2 ** 30;
/** The sample's evaluation time. */
export const SAMPLE_NOW = Date.UTC(2026, 0, 9, 6, 0);
const HISTORY = 8 * DAY;
const STEP = 5 * MINUTE;

/** A repeatable wobble in [0, 1) (no Math.random: the pictures must not change between runs). */
function noise(seed: number, t: number): number {
  const x = Math.sin(seed * 12.9898 + (t / STEP) * 78.233) * 43758.5453;
  return x - Math.floor(x);
}

/** 0 at night, 1 at 14:00 UTC. */
const daily = (t: number) => 0.5 - 0.5 * Math.cos((2 * Math.PI * (((t % DAY) / HOUR - 2 + 24) % 24)) / 24);

interface SampleContainer {
  namespace: string;
  workload: { kind: string; name: string };
  container: string;
  pods: number;
  /** Cores and bytes at time t, undefined where the container did not run. */
  cpu: (t: number, seed: number) => number | undefined;
  memory: (t: number, seed: number) => number | undefined;
  since?: number;
  row: Pick<ReportRow, 'cpu' | 'memory'> & { notes?: string[]; confidence?: 'low' };
}

const CONTAINERS: SampleContainer[] = [
  {
    namespace: 'payments',
    workload: { kind: 'StatefulSet', name: 'ledger' },
    container: 'postgres',
    pods: 3,
    cpu: (t, s) => 0.18 + 0.34 * daily(t) + 0.06 * noise(s, t) + (t > SAMPLE_NOW - 3 * DAY ? 0.08 : 0),
    memory: (t, s) => 1.05 * GiB + 0.3 * GiB * daily(t) + 40 * MiB * noise(s, t),
    row: { cpu: { request: 250, target: 612 }, memory: { request: 1 * GiB, limit: 2 * GiB, target: 1520 * MiB } },
  },
  {
    namespace: 'shop',
    workload: { kind: 'Deployment', name: 'web' },
    container: 'app',
    pods: 4,
    cpu: (t, s) => 0.06 + 0.12 * daily(t) + 0.03 * noise(s, t),
    memory: (t, s) => 180 * MiB + 70 * MiB * daily(t) + 10 * MiB * noise(s, t),
    row: { cpu: { request: 500, limit: 1000, target: 212 }, memory: { request: 512 * MiB, limit: 1 * GiB, target: 300 * MiB } },
  },
  {
    namespace: 'shop',
    workload: { kind: 'Deployment', name: 'web' },
    container: 'envoy',
    pods: 4,
    cpu: (t, s) => 0.02 + 0.02 * daily(t) + 0.005 * noise(s, t),
    memory: (t, s) => 58 * MiB + 8 * MiB * noise(s, t),
    row: { cpu: { request: 100, target: 46 }, memory: { request: 128 * MiB, limit: 256 * MiB, target: 80 * MiB } },
  },
  {
    namespace: 'monitoring',
    workload: { kind: 'DaemonSet', name: 'node-agent' },
    container: 'agent',
    pods: 6,
    cpu: (t, s) => 0.025 + 0.01 * noise(s, t),
    memory: (t, s) => 88 * MiB + 20 * MiB * noise(s, t),
    row: { cpu: { request: 200, limit: 200, target: 40 }, memory: { request: 256 * MiB, limit: 256 * MiB, target: 120 * MiB } },
  },
  {
    namespace: 'shop',
    workload: { kind: 'Deployment', name: 'checkout' },
    container: 'app',
    pods: 2,
    cpu: (t, s) => 0.12 + 0.14 * daily(t) + 0.03 * noise(s, t),
    memory: (t, s) => 360 * MiB + 30 * MiB * noise(s, t),
    row: { cpu: { request: 300, target: 318 }, memory: { request: 400 * MiB, target: 410 * MiB } },
  },
  {
    namespace: 'batch',
    workload: { kind: 'CronJob', name: 'nightly-report' },
    container: 'report',
    pods: 1,
    // Runs from 01:00 to 02:30 UTC each night.
    cpu: (t, s) => (t % DAY >= HOUR && t % DAY < 2.5 * HOUR ? 0.9 + 0.5 * noise(s, t) : undefined),
    memory: (t, s) => (t % DAY >= HOUR && t % DAY < 2.5 * HOUR ? 700 * MiB + 300 * MiB * noise(s, t) : undefined),
    row: { cpu: { request: 1000, target: 1380 }, memory: { request: 1 * GiB, limit: 1 * GiB, target: 1 * GiB } },
  },
  {
    namespace: 'shop',
    workload: { kind: 'Deployment', name: 'search-v2' },
    container: 'app',
    pods: 2,
    since: SAMPLE_NOW - 27 * MINUTE,
    cpu: (t, s) => 0.3 + 0.1 * noise(s, t),
    memory: (t, s) => 240 * MiB + 30 * MiB * noise(s, t),
    row: {
      cpu: { request: 200, target: 452, upperBoundOpen: true },
      memory: { request: 256 * MiB, target: 312 * MiB, upperBoundOpen: true },
      confidence: 'low',
      notes: ['no cpu/memory upper bound yet', 'low confidence: 27 min of history (24 h wanted)'],
    },
  },
  {
    namespace: 'default',
    workload: { kind: 'Pod', name: 'debug-shell' },
    container: 'shell',
    pods: 1,
    since: SAMPLE_NOW - 2 * DAY,
    cpu: (t, s) => 0.005 + 0.01 * noise(s, t),
    memory: (t, s) => 12 * MiB + 2 * MiB * noise(s, t),
    row: { cpu: { target: 15 }, memory: { target: 20 * MiB } },
  },
];

/** The sample report, with a week-old previous summary for the trend. */
export function sampleAudit(): AuditReport {
  const links: OwnerLink[] = [];
  const pod = (c: SampleContainer, i: number) => (c.workload.kind === 'Pod' ? c.workload.name : `${c.workload.name}-${i}`);
  for (const c of CONTAINERS) {
    if (c.workload.kind === 'Pod') continue;
    for (let i = 0; i < c.pods; i++)
      links.push({ namespace: c.namespace, kind: 'Pod', name: pod(c, i), ownerKind: c.workload.kind, ownerName: c.workload.name });
  }
  const outlines = new UsageOutline(new OwnerIndex(links), SAMPLE_NOW - HISTORY, SAMPLE_NOW, 100, 60_000);
  const risks = CONTAINERS.map(() => new UsageRisk());
  CONTAINERS.forEach((c, n) => {
    for (let i = 0; i < c.pods; i++) {
      const key = { namespace: c.namespace, pod: pod(c, i), container: c.container };
      const cpu = { key, times: [] as number[], values: [] as number[] };
      const memory = { key, times: [] as number[], values: [] as number[] };
      for (let t = Math.max(c.since ?? 0, SAMPLE_NOW - HISTORY); t <= SAMPLE_NOW; t += c.since !== undefined && SAMPLE_NOW - c.since < HOUR ? MINUTE : STEP) {
        const seed = n * 10 + i;
        const v = c.cpu(t, seed);
        const m = c.memory(t, seed);
        if (v !== undefined) {
          risks[n]!.addCpu(v);
          cpu.times.push(t);
          cpu.values.push(v);
        }
        if (m !== undefined) {
          risks[n]!.addMemory(m, t);
          memory.times.push(t);
          memory.values.push(m);
        }
      }
      outlines.cpu(cpu);
      outlines.memory(memory);
    }
  });
  const rows: ReportRow[] = CONTAINERS.map((c, n) => ({
    namespace: c.namespace,
    workload: c.workload,
    container: c.container,
    pods: c.pods,
    cpuSamples: 1000,
    memorySamples: 1000,
    ooms: 0,
    status: 'ok',
    confidence: c.row.confidence ?? 'normal',
    historyMs: SAMPLE_NOW - Math.max(c.since ?? 0, SAMPLE_NOW - HISTORY),
    risk: risks[n]!.against({ cpu: c.row.cpu.target, memory: c.row.memory.target }),
    notes: c.row.notes ?? [],
    cpu: c.row.cpu,
    memory: c.row.memory,
  }));
  return buildAudit({
    rows,
    outlines,
    now: SAMPLE_NOW,
    historyMs: HISTORY,
    strategy: 'tailor',
    previous: {
      source: 'configmap:tailor-system/tailor-audit',
      summary: {
        generatedAt: new Date(SAMPLE_NOW - 7 * DAY).toISOString(),
        rows: [
          {
            namespace: 'payments',
            kind: 'StatefulSet',
            name: 'ledger',
            container: 'postgres',
            pods: 3,
            cpuRequest: 250,
            cpuTarget: 480,
            memoryRequest: GiB,
            memoryTarget: 1400 * MiB,
          },
          {
            namespace: 'shop',
            kind: 'Deployment',
            name: 'web',
            container: 'app',
            pods: 4,
            cpuRequest: 500,
            cpuTarget: 230,
            memoryRequest: 512 * MiB,
            memoryTarget: 310 * MiB,
          },
          {
            namespace: 'shop',
            kind: 'Deployment',
            name: 'web',
            container: 'envoy',
            pods: 4,
            cpuRequest: 100,
            cpuTarget: 50,
            memoryRequest: 128 * MiB,
            memoryTarget: 80 * MiB,
          },
          {
            namespace: 'monitoring',
            kind: 'DaemonSet',
            name: 'node-agent',
            container: 'agent',
            pods: 5,
            cpuRequest: 200,
            cpuTarget: 42,
            memoryRequest: 256 * MiB,
            memoryTarget: 118 * MiB,
          },
          {
            namespace: 'shop',
            kind: 'Deployment',
            name: 'checkout',
            container: 'app',
            pods: 2,
            cpuRequest: 500,
            cpuTarget: 300,
            memoryRequest: 400 * MiB,
            memoryTarget: 400 * MiB,
          },
          {
            namespace: 'batch',
            kind: 'CronJob',
            name: 'nightly-report',
            container: 'report',
            pods: 1,
            cpuRequest: 1000,
            cpuTarget: 1250,
            memoryRequest: GiB,
            memoryTarget: GiB,
          },
          {
            namespace: 'shop',
            kind: 'Deployment',
            name: 'search',
            container: 'app',
            pods: 2,
            cpuRequest: 200,
            cpuTarget: 180,
            memoryRequest: 256 * MiB,
            memoryTarget: 200 * MiB,
          },
        ],
      },
    },
  });
}
