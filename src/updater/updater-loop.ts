/**
 * One updater loop, independent of how the objects are obtained (watch caches in `tailor run`,
 * lists in the benchmark): read the objects, keep the valid VPAs, group pods into workloads, plan
 * (pure), execute (executor.ts). The only state kept between loops is the executor's back-off time;
 * every timer is read back from the objects, so a restart or a change of leader loses nothing.
 */
import type { V1LimitRange, V1Pod, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { validateVpa } from '../api/validate-vpa.ts';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { Logger } from '../observability/logger.ts';
import type { PodDecision } from './decision.ts';
import { executePlan, type ActionResult, type ExecutorState } from './executor.ts';
import type { UpdaterOptions } from './options.ts';
import { plan, type GlobalBudget } from './plan.ts';
import type { ServerCapabilities } from './server-capabilities.ts';
import type { UpdaterApi } from './updater-api.ts';
import type { UpdaterMetrics } from './updater-metrics.ts';
import { groupWorkloads, type WorkloadObject } from './workload-groups.ts';

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
}

/** What one loop did. */
export interface LoopReport {
  decisions: PodDecision[];
  results: ActionResult[];
  invalidVpas: number;
  unmatchedPods: number;
}

/** Runs loops; holds the executor's back-off between them. */
export class UpdaterLoop {
  private readonly state: ExecutorState = { backoffUntil: 0 };

  constructor(private readonly deps: UpdaterLoopDeps) {}

  /** One loop at `now` (ms). */
  async runOnce(now: number): Promise<LoopReport> {
    const { deps } = this;
    const vpas: VerticalPodAutoscaler[] = [];
    let invalidVpas = 0;
    for (const raw of deps.sources.vpas()) {
      const result = validateVpa(raw);
      if (!result.ok) {
        invalidVpas += 1;
        deps.logger.debug({ vpa: (raw as { metadata?: { name?: string } }).metadata?.name, errors: result.errors }, 'invalid VPA skipped');
        continue;
      }
      if (!deps.handles || deps.handles(result.vpa)) vpas.push(result.vpa);
    }
    const { groups, unmatched } = groupWorkloads({
      pods: deps.sources.pods(),
      vpas,
      limitRanges: deps.sources.limitRanges(),
      hpas: deps.sources.hpas(),
      workloads: deps.sources.workloads(),
    });
    const decisions = plan({ options: deps.options, capabilities: deps.capabilities, now, groups, budget: deps.budget });
    const pods = new Map<string, V1Pod>();
    const vpaByWorkload = new Map<string, VerticalPodAutoscaler>();
    for (const g of groups) {
      vpaByWorkload.set(g.workload, g.vpa);
      for (const p of g.pods) pods.set(`${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`, p);
    }
    const results = await executePlan(
      { decisions, pods, vpaOf: (d) => vpaByWorkload.get(d.workload), now, state: this.state },
      { api: deps.api, logger: deps.logger, capabilities: deps.capabilities, ...(deps.metrics ? { metrics: deps.metrics } : {}), ...(deps.dryRun ? { dryRun: true } : {}), ...(deps.instance ? { instance: deps.instance } : {}) },
    );
    return { decisions, results, invalidVpas, unmatchedPods: unmatched.length };
  }
}
