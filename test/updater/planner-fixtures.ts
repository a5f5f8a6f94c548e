/** Shared helpers for the planner tests: a context at NOW and a one-call `decide`. */
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import type { PodUsage } from '../../src/updater/container-usage.ts';
import { decidePod } from '../../src/updater/decide-pod.ts';
import type { PlannerContext, PodPlanInput } from '../../src/updater/pod-plan-input.ts';
import { updaterOptions, type UpdaterOptions } from '../../src/policy/update-thresholds.ts';
import { serverCapabilities } from '../../src/updater/server-capabilities.ts';
import type { ResourceName } from '../../src/model/types.ts';
import type { V1Pod } from '@kubernetes/client-node';
import { NOW } from '../builders/time.ts';

/** A planner context at NOW on a 1.34 server, with option overrides. */
export function context(opts: { minor?: number; gate?: boolean; options?: Partial<UpdaterOptions>; now?: number } = {}): PlannerContext {
  return {
    options: updaterOptions(opts.options),
    capabilities: serverCapabilities({ major: 1, minor: opts.minor ?? 34 }, opts.gate ?? false),
    now: opts.now ?? NOW,
  };
}

/** Decides for one pod of the workload `Deployment/shop/web`. */
export function decide(
  p: V1Pod,
  v: VerticalPodAutoscaler,
  opts: { usage?: PodUsage; hpa?: ResourceName[]; minor?: number; gate?: boolean; options?: Partial<UpdaterOptions> } = {},
) {
  const input: PodPlanInput = { pod: p, vpa: v, workload: 'Deployment/shop/web' };
  if (opts.usage) input.usage = opts.usage;
  if (opts.hpa) input.hpaResources = opts.hpa;
  return decidePod(input, context(opts));
}
