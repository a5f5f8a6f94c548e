/**
 * One updater loop, independent of how the objects are obtained (watch caches in `tailor run`,
 * lists in the benchmark): read the objects, then the sequence `tailor plan` shares
 * (plan-objects.ts: keep the valid VPAs, group pods into workloads, attach recent usage, plan),
 * then execute (executor.ts). The only state kept between loops is the executor's back-off time
 * and when times that lie ahead of this clock were first seen (future-times.ts); every other timer
 * is read back from the objects, so a restart or a change of leader loses nothing.
 */
import type { V1LimitRange, V1Pod, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { formatFieldErrors } from '../api/field-errors.ts';
import { RepeatedWarnings } from '../observability/repeated-warnings.ts';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { Logger } from '../observability/logger.ts';
import type { PodDecision } from './decision.ts';
import { executePlan, type ActionResult, type ExecutorState } from './executor.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import type { GlobalBudget, WorkloadGroup } from './updater-plan.ts';
import { planObjects, type InvalidVpa } from './plan-objects.ts';
import type { ServerCapabilities } from './server-capabilities.ts';
import type { UpdaterApi } from './updater-api.ts';
import type { UpdaterMetrics } from './updater-metrics.ts';
import type { WorkloadObject } from './workload-groups.ts';
import type { MemoryUsageSource } from '../metrics/memory-usage-source.ts';
import { hpaExclusionCounts, reportHpaConflicts } from './hpa-status.ts';
import { reportWorkloadConditions } from './workload-status.ts';
import { UPDATER_FIELD_MANAGER } from './pod-timing.ts';
import { FutureTimes } from './future-times.ts';
import { ResizeLatencyTracker, type LatencySample } from './resize-latency.ts';
import type { UsageRead } from './usage-reader.ts';
import { memoryWarnings, type MemoryWarnings } from './memory-warnings.ts';
import { MemoryWarningTracker } from './memory-warning-tracker.ts';
import { reportMemoryWarnings } from './memory-warning-report.ts';
import { RuntimeFitReporter } from './runtime-fit-report.ts';
import type { AdmissionStatusSource } from './admission-status.ts';
import { admissionStatusVerdict, type AdmissionStatusVerdict } from '../kube/admission-status-lease.ts';
import { ResizeRefusals } from './resize-refusal.ts';

/** Where the loop reads the objects from (cached; each call returns the current view). */
export interface UpdaterSources {
  pods(): readonly V1Pod[];
  vpas(): readonly unknown[];
  limitRanges(): readonly V1LimitRange[];
  hpas(): readonly V2HorizontalPodAutoscaler[];
  workloads(): readonly WorkloadObject[];
}

/** Everything one loop needs besides the time. */
export interface UpdaterLoopDeps {
  sources: UpdaterSources;
  api: UpdaterApi;
  logger: Logger;
  metrics?: UpdaterMetrics;
  options: UpdaterOptions;
  capabilities: ServerCapabilities;
  /** Writes allowed per loop. */
  budget: GlobalBudget;
  dryRun?: boolean;
  instance?: string;
  /** Which VPAs this updater handles (namespace selection); default all. */
  handles?: (vpa: VerticalPodAutoscaler) => boolean;
  /** Recent memory usage (Prometheus); without it no memory limit is lowered and the pressure guard is off. */
  usage?: MemoryUsageSource;
  /** The time of pod updates seen between loops (the end of the recommendation-to-applied measurement); default: the loop's `now`. */
  clock?: () => number;
  /** The admission webhook's status Lease: evictions wait while it is not fresh (admission-status.ts); omitted = not checked. */
  admissionStatus?: AdmissionStatusSource;
}

/** What one loop did. */
export interface LoopReport {
  decisions: PodDecision[];
  results: ActionResult[];
  invalidVpas: number;
  /** `namespace/name` of each invalid VPA (whose pods the loop leaves alone). */
  invalidVpaNames: string[];
  unmatchedPods: number;
  /** False when recent memory usage could not be read (or no source is configured). */
  usageAvailable: boolean;
  /** VPA HpaConflict conditions written. */
  hpaConditionsWritten: number;
  /** VPAs whose per-workload conditions (AnnotationsInvalid, WaitingForDisruptionWindow) were written. */
  workloadConditionsWritten: number;
  /** Resizes seen completed in this loop (most are seen between loops, through {@link UpdaterLoop.podSeen}). */
  completed: LatencySample[];
  /** Early memory warnings of this loop (none without usage). */
  memoryWarnings: MemoryWarnings;
  /** The admission webhook's status this loop (when checked). */
  admissionStatus?: AdmissionStatusVerdict;
}

/** Runs loops; holds the executor's back-off between them. */
export class UpdaterLoop {
  private readonly state: ExecutorState & { refusals: ResizeRefusals } = { backoffUntil: 0, refusals: new ResizeRefusals() };
  private readonly latency: ResizeLatencyTracker;
  private usageWasAvailable: boolean | undefined;
  private readonly futureTimes: FutureTimes;
  private readonly memoryWarningTracker = new MemoryWarningTracker();
  private readonly runtimeFit = new RuntimeFitReporter();
  private admissionWasFresh: boolean | undefined;
  /** Warnings that would come every loop while their cause lasts (an invalid VPA, usage unreadable): once per cause, then rate-limited. */
  private readonly repeated: RepeatedWarnings;

  constructor(private readonly deps: UpdaterLoopDeps) {
    this.repeated = new RepeatedWarnings(deps.logger);
    this.futureTimes = new FutureTimes((subject, aheadMs) =>
      deps.logger.warn(
        { subject, aheadMinutes: Math.round(aheadMs / 60_000) },
        'a time on a pod lies ahead of this clock (clock skew); it counts from now, so its cooldown or timeout ends at most one period later',
      ),
    );
    this.latency = new ResizeLatencyTracker((s) => deps.metrics?.appliedLatency.observe({ path: s.path, since: s.since }, s.seconds));
  }

  /** A pod update (watch event) seen at the clock's time: completes the measurement of a resize sent earlier. */
  podSeen(pod: V1Pod): LatencySample | undefined {
    if (!this.deps.clock) return undefined;
    return this.latency.podSeen(pod, this.deps.clock());
  }

  /** Resizes sent and not yet seen completed. */
  get resizesInFlight(): number {
    return this.latency.inFlight;
  }

  /** One loop at `now` (ms). */
  async runOnce(now: number): Promise<LoopReport> {
    const { deps } = this;
    const { sources } = deps;
    const admission = await this.admissionStatus(now);
    const held = admission && !admission.fresh ? { evictionsHeld: admission.message } : {};
    const { decisions, groups, unmatched, invalidVpas, usage } = await planObjects({
      objects: { pods: sources.pods(), vpas: sources.vpas(), limitRanges: sources.limitRanges(), hpas: sources.hpas(), workloads: sources.workloads() },
      ...(deps.usage ? { usage: deps.usage } : {}),
      ...(deps.handles ? { handles: deps.handles } : {}),
      options: deps.options,
      capabilities: deps.capabilities,
      now,
      budget: deps.budget,
      futureTime: this.futureTimes.at(now),
      resizeRefusal: (pod) => this.state.refusals.of(pod),
      ...held,
    });
    const invalidVpaNames = this.noteInvalidVpas(invalidVpas, now);
    this.noteUsage(usage, now);
    const warnings = usage.available ? await this.tellMemoryWarnings(groups, now) : { containers: [], workloads: [] };
    const completed: LatencySample[] = [];
    for (const g of groups)
      for (const p of g.pods) {
        const sample = this.latency.podSeen(p, now);
        if (sample) completed.push(sample);
      }
    this.futureTimes.sweep();
    this.state.refusals.prune(groups.flatMap((g) => g.pods));
    this.latency.noteDecisions(decisions, now);
    const pods = new Map<string, V1Pod>();
    const vpaByWorkload = new Map<string, VerticalPodAutoscaler>();
    for (const g of groups) {
      vpaByWorkload.set(g.workload, g.vpa);
      for (const p of g.pods) pods.set(`${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`, p);
    }
    const results = await executePlan(
      { decisions, pods, vpaOf: (d) => vpaByWorkload.get(d.workload), now, state: this.state },
      {
        api: deps.api,
        logger: deps.logger,
        capabilities: deps.capabilities,
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
        ...(deps.dryRun ? { dryRun: true } : {}),
        ...(deps.instance ? { instance: deps.instance } : {}),
      },
    );
    if (!deps.dryRun)
      for (const r of results)
        if (r.outcome === 'applied')
          this.latency.noteApplied(r.decision, pods.get(`${r.decision.namespace}/${r.decision.podName}`), vpaByWorkload.get(r.decision.workload), now);
    for (const [resource, count] of Object.entries(hpaExclusionCounts(groups, deps.options.respectHpa))) deps.metrics?.hpaExcluded.set({ resource }, count);
    const hpaConditionsWritten = await reportHpaConflicts(groups, {
      api: deps.api,
      logger: deps.logger,
      now,
      respectHpa: deps.options.respectHpa,
      fieldManager: UPDATER_FIELD_MANAGER,
      instance: deps.instance ?? 'tailor',
      ...(deps.dryRun ? { dryRun: true } : {}),
    });
    await this.runtimeFit.report(groups, {
      api: deps.api,
      logger: deps.logger,
      now,
      instance: deps.instance ?? 'tailor',
      ...(deps.dryRun ? { dryRun: true } : {}),
    });
    const workloadStatus = await reportWorkloadConditions(groups, decisions, {
      api: deps.api,
      logger: deps.logger,
      now,
      fieldManager: UPDATER_FIELD_MANAGER,
      instance: deps.instance ?? 'tailor',
      ...(deps.dryRun ? { dryRun: true } : {}),
    });
    for (const [condition, count] of Object.entries(workloadStatus.holding)) deps.metrics?.workloadConditions.set({ condition }, count);
    return {
      decisions,
      results,
      invalidVpas: invalidVpas.length,
      invalidVpaNames,
      unmatchedPods: unmatched.length,
      usageAvailable: usage.available,
      hpaConditionsWritten,
      workloadConditionsWritten: workloadStatus.written,
      completed,
      memoryWarnings: warnings,
      ...(admission ? { admissionStatus: admission } : {}),
    };
  }

  /** Warns about each invalid VPA (once per cause, then rate-limited) and forgets causes that are gone; returns their `namespace/name`. */
  private noteInvalidVpas(invalid: readonly InvalidVpa[], now: number): string[] {
    const names: string[] = [];
    const causes = new Set<string>();
    for (const { raw, errors } of invalid) {
      const meta = (raw as { metadata?: { namespace?: string; name?: string } }).metadata;
      const id = `${meta?.namespace ?? ''}/${meta?.name ?? ''}`;
      const message = formatFieldErrors(errors);
      names.push(id);
      causes.add(`invalid ${id}: ${message}`);
      this.repeated.say(`invalid ${id}: ${message}`, now, { vpa: id, errors }, `VPA ${id} is invalid; the updater leaves its pods alone: ${message}`);
    }
    this.repeated.retain((cause) => !cause.startsWith('invalid ') || causes.has(cause));
    return names;
  }

  /** The webhook's status at `now` (when checked); a warning when it turns stale, a note when it is back, the gauge. */
  private async admissionStatus(now: number): Promise<AdmissionStatusVerdict | undefined> {
    const source = this.deps.admissionStatus;
    if (!source) return undefined;
    const verdict = admissionStatusVerdict(await source.read(), now, source.timeoutMs, source.where);
    this.deps.metrics?.admissionStatusFresh.set(verdict.fresh ? 1 : 0);
    if (!verdict.fresh && this.admissionWasFresh !== false) this.deps.logger.warn({ lease: source.where }, verdict.message);
    else if (verdict.fresh && this.admissionWasFresh === false) this.deps.logger.info({ lease: source.where }, `evictions resume: ${verdict.message}`);
    this.admissionWasFresh = verdict.fresh;
    return verdict;
  }

  /** The early memory warnings of the groups: metrics always, a log line and Events when new. */
  private async tellMemoryWarnings(groups: readonly WorkloadGroup[], now: number): Promise<MemoryWarnings> {
    const { deps } = this;
    const warnings = memoryWarnings(groups);
    const fresh = this.memoryWarningTracker.update(warnings);
    deps.metrics?.memoryWarnings.record(warnings, fresh);
    const vpas = new Map(groups.map((g) => [`${g.vpa.metadata.namespace ?? 'default'}/${g.vpa.metadata.name}`, g.vpa]));
    const uids = new Map(groups.flatMap((g) => g.pods.map((p) => [`${p.metadata?.namespace ?? 'default'}/${p.metadata?.name ?? ''}`, p.metadata?.uid])));
    await reportMemoryWarnings(fresh, {
      api: deps.api,
      logger: deps.logger,
      now,
      instance: deps.instance ?? 'tailor',
      windowMs: deps.options.memoryPressureWindowMs,
      vpaOf: (ns, name) => vpas.get(`${ns}/${name}`),
      podUid: (ns, name) => uids.get(`${ns}/${name}`),
      ...(deps.dryRun ? { dryRun: true } : {}),
    });
    return warnings;
  }

  /** Counts the read; a warning without usage from a configured source (once per cause, then rate-limited), a note when it is back. */
  private noteUsage(read: UsageRead, now: number): void {
    const { metrics, logger } = this.deps;
    const outcome = read.available ? 'ok' : this.deps.usage ? 'failed' : 'disabled';
    metrics?.usageReads.inc({ outcome });
    metrics?.usageAvailable.set(read.available ? 1 : 0);
    if (!read.available && outcome === 'failed') {
      const err = 'error' in read ? read.error : undefined;
      this.repeated.say(
        `usage ${err instanceof Error ? err.message : String(err)}`,
        now,
        { err },
        'memory usage unavailable (Prometheus): no memory limit is lowered and the memory pressure guard is off this loop',
      );
    } else if (read.available && this.usageWasAvailable === false) logger.info('memory usage available again (Prometheus)');
    if (read.available) this.repeated.retain((cause) => !cause.startsWith('usage '));
    this.usageWasAvailable = read.available;
  }
}
