/**
 * The webhook's memory floors from what runs in each container (policy/container-runtime.ts), the
 * same rule as the updater's: a new pod's memory limit is never set below a JVM's heap + overhead
 * (or GOMEMLIMIT + 10%), nor lowered below the limit it was created with when that is less. The
 * VPA's `tailor.dev/runtime` overrides the detection (an invalid one is ignored: the updater and
 * `validate` report it). Pure.
 *
 * Worked example: JAVA_TOOL_OPTIONS=-Xmx1g, created with 2Gi, recommendation 512Mi -> the limit is
 * kept at 1.25Gi (1 GiB + 256 MiB), with the adjustment saying why.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { MemoryLimitRules } from '../policy/container-plan.ts';
import { describeRuntime, detectRuntime, floorBasis, startMemoryFloor } from '../policy/container-runtime.ts';
import { runtimeOverridesOf } from '../policy/runtime-annotation.ts';
import { overrideFor } from '../policy/runtime-fit.ts';

/** Memory limit rules by container name, for the containers whose runtime has a floor. */
export function runtimeMemoryRules(pod: V1Pod, vpa: VerticalPodAutoscaler): Record<string, MemoryLimitRules> {
  const parsed = runtimeOverridesOf(vpa.metadata.annotations);
  const overrides = parsed.ok ? parsed.overrides : undefined;
  const rules: Record<string, MemoryLimitRules> = {};
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const runtime = detectRuntime(c, overrideFor(overrides, c.name));
    const floor = startMemoryFloor(runtime);
    if (floor === undefined) continue;
    rules[c.name] = { floor, floorReason: `what ${describeRuntime(runtime)} needs (${floorBasis(runtime)})` };
  }
  return rules;
}
