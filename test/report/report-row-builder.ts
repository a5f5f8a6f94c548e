/**
 * A report row for tests: one `app` container of Deployment `name` in namespace `shop`, two pods,
 * two days of ordinary history; CPU in millicores and memory in bytes as given.
 */
import type { ReportRow } from '../../src/report/report-rows.ts';

const MiB = 2 ** 20;

export function reportRow(
  name: string,
  cpu: { request?: number; target?: number },
  memory: { request?: number; target?: number } = { request: 100 * MiB, target: 100 * MiB },
  pods = 2,
): ReportRow {
  return {
    namespace: 'shop',
    workload: { kind: 'Deployment', name },
    container: 'app',
    pods,
    cpuSamples: 100,
    memorySamples: 100,
    ooms: 0,
    status: 'ok',
    confidence: 'normal',
    historyMs: 48 * 3600_000,
    risk: { cpuShortfallPct: 0, memoryDays: 2, memoryDaysOverTarget: 0 },
    notes: [],
    cpu,
    memory,
  };
}
