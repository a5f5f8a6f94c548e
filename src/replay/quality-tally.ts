/**
 * Per-container sums the replay collects sample by sample, and the quality figures made from them
 * (the JSON contract of `tailor replay`). CPU in millicores, memory in bytes.
 */

/** Running sums for one container under one strategy (plain numbers: no allocation per sample). */
export class QualityTally {
  readonly name: string;
  samples = 0;
  /** Days covered: (last - first + interval) / 1 day. */
  days = 0;
  /** Whole 24 h slots from the first sample (for OOM-free days). */
  daySlots = 0;
  cpuRequestSum = 0;
  cpuSlackSum = 0;
  cpuUsageSum = 0;
  cpuShortfallSum = 0;
  memorySamples = 0;
  memoryLimitSum = 0;
  memorySlackSum = 0;
  ooms = 0;
  /** 24 h slots with at least one OOM. */
  oomDaySlots = 0;
  changes = 0;
  /**
   * The changes by cause, for finding where churn comes from: the updater's reason ('oom',
   * 'memory-pressure', 'outside-bounds', 'drift') and which resources moved which way, e.g.
   * "drift cpu+ mem-" (a change that raised CPU and lowered memory because the target drifted).
   */
  readonly changeCauses = new Map<string, number>();
  restarts = 0;

  constructor(name: string) {
    this.name = name;
  }
}

/** The figures of one strategy (or one container under it). Percentages 0-100; null when undefined. */
export interface QualityFigures {
  name: string;
  containers: number;
  /** The longest container's span, days. */
  days: number;
  /** Sum over containers of their spans, days (the unit of the per-day rates). */
  containerDays: number;
  cpu: { slackPct: number | null; shortfallPct: number | null };
  memory: { slackPct: number | null; ooms: number; oomFreeDaysPct: number | null };
  changesPerDay: number;
  restartsPerDay: number;
}

/**
 * Combines tallies into the published figures:
 *  slackPct     = sum(max(request - usage, 0)) / sum(request) x 100 (memory: against the limit),
 *  shortfallPct = sum(max(usage - request, 0)) / sum(usage) x 100,
 *  oomFreeDaysPct = container-day slots without an OOM / all slots x 100 (containers with memory),
 *  changesPerDay, restartsPerDay = count / container-days.
 * Worked number: requests 100m, 100m; usage 50m, 150m: slack = 50 / 200 = 25%, shortfall
 * = 50 / 200 = 25%.
 */
export function summarize(name: string, tallies: readonly QualityTally[]): QualityFigures {
  let days = 0;
  let containerDays = 0;
  let cpuRequest = 0,
    cpuSlack = 0,
    cpuUsage = 0,
    cpuShortfall = 0;
  let memoryLimit = 0,
    memorySlack = 0,
    ooms = 0,
    slots = 0,
    oomSlots = 0;
  let changes = 0,
    restarts = 0;
  for (const t of tallies) {
    days = Math.max(days, t.days);
    containerDays += t.days;
    cpuRequest += t.cpuRequestSum;
    cpuSlack += t.cpuSlackSum;
    cpuUsage += t.cpuUsageSum;
    cpuShortfall += t.cpuShortfallSum;
    if (t.memorySamples > 0) {
      memoryLimit += t.memoryLimitSum;
      memorySlack += t.memorySlackSum;
      slots += t.daySlots;
      oomSlots += t.oomDaySlots;
    }
    ooms += t.ooms;
    changes += t.changes;
    restarts += t.restarts;
  }
  return {
    name,
    containers: tallies.length,
    days,
    containerDays,
    cpu: { slackPct: percent(cpuSlack, cpuRequest), shortfallPct: percent(cpuShortfall, cpuUsage) },
    memory: {
      slackPct: percent(memorySlack, memoryLimit),
      ooms,
      oomFreeDaysPct: slots > 0 ? ((slots - oomSlots) / slots) * 100 : null,
    },
    changesPerDay: containerDays > 0 ? changes / containerDays : 0,
    restartsPerDay: containerDays > 0 ? restarts / containerDays : 0,
  };
}

function percent(part: number, whole: number): number | null {
  return whole > 0 ? (part / whole) * 100 : null;
}
