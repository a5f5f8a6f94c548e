/**
 * The chaos checker's command: reads a run's audit log and watch record, prints each violation of
 * the rules (invariants.ts) with its time, pod and reason, then one line of counts, and exits 1 when
 * there is a violation (2 on bad arguments or unreadable files).
 * Usage: node --import tsx test/chaos/check.ts --audit <audit.log> --watch <watch.jsonl>
 *          [--user system:serviceaccount:tailor-system:tailor-updater] [--lease-seconds 15]
 *          [--lease tailor-system/tailor-updater]   (the leader Lease the one-leader rule reads)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readLeaseWrites, readPodActions } from './audit-actions.ts';
import { checkInvariants, type Rule } from './invariants.ts';
import { ObjectTimeline, vpaLookup } from './vpa-timeline.ts';
import { readRecord } from './watch-recorder.ts';

/** The updater's leader Lease in Tailor's manifests (namespace/name). */
export const DEFAULT_LEASE = 'tailor-system/tailor-updater';

/** What one check found: the autoscaler's successful resizes and evictions, and the violations. */
export interface CheckCounts {
  readonly resizes: number;
  readonly evictions: number;
  readonly violations: number;
  /** The violations of each rule broken. */
  readonly byRule: Readonly<Partial<Record<Rule, number>>>;
}

/** The report of one check: its lines (violations, then the counts), the exit status and the counts. */
export function checkRun(
  auditText: string,
  watchText: string,
  user: string,
  leaseMs: number,
  lease = DEFAULT_LEASE,
): { lines: string[]; status: number; counts: CheckCounts } {
  const { actions, unreadable } = readPodActions(auditText);
  const [leaseNamespace, leaseName] = lease.split('/') as [string, string];
  const record = readRecord(watchText);
  const violations = checkInvariants({
    actions,
    isAutoscaler: (a) => a.user === user,
    vpaAt: vpaLookup(new ObjectTimeline(record.pods), new ObjectTimeline(record.vpas)),
    leaseMs,
    leaseWrites: readLeaseWrites(auditText, leaseNamespace, leaseName),
  });
  const mine = actions.filter((a) => a.user === user && a.code < 300);
  const count = (kind: string) => mine.filter((a) => a.kind === kind).length;
  const lines = violations.map((v) => `${new Date(v.at).toISOString()} ${v.rule} ${v.pod}: ${v.message}`);
  lines.push(
    `checked ${count('resize')} resizes, ${count('eviction')} evictions, ${count('delete')} deletions by ${user}: ${violations.length} violations` +
      (unreadable + record.unreadable > 0 ? ` (${unreadable + record.unreadable} unreadable lines)` : ''),
  );
  return {
    lines,
    status: violations.length > 0 ? 1 : 0,
    counts: {
      resizes: count('resize'),
      evictions: count('eviction'),
      violations: violations.length,
      byRule: Object.fromEntries([...new Set(violations.map((v) => v.rule))].map((r) => [r, violations.filter((v) => v.rule === r).length])),
    },
  };
}

function main(): number {
  let values: { audit?: string; watch?: string; user?: string; 'lease-seconds'?: string; lease?: string };
  try {
    ({ values } = parseArgs({
      options: {
        audit: { type: 'string' },
        watch: { type: 'string' },
        user: { type: 'string' },
        'lease-seconds': { type: 'string' },
        lease: { type: 'string' },
      },
    }));
  } catch (error) {
    console.error(`check: ${(error as Error).message}`);
    return 2;
  }
  const lease = Number(values['lease-seconds'] ?? 15);
  if (!values.audit || !values.watch || !(lease > 0) || !/^[^/]+\/[^/]+$/.test(values.lease ?? DEFAULT_LEASE)) {
    console.error(
      'usage: check.ts --audit <audit.log> --watch <watch.jsonl> [--user <autoscaler user>] [--lease-seconds 15] [--lease tailor-system/tailor-updater]',
    );
    return 2;
  }
  let texts: [string, string];
  try {
    texts = [readFileSync(values.audit, 'utf8'), readFileSync(values.watch, 'utf8')];
  } catch (error) {
    console.error(`check: ${(error as Error).message}`);
    return 2;
  }
  const { lines, status } = checkRun(
    ...texts,
    values.user ?? 'system:serviceaccount:tailor-system:tailor-updater',
    lease * 1000,
    values.lease ?? DEFAULT_LEASE,
  );
  for (const line of lines) console.log(line);
  return status;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
