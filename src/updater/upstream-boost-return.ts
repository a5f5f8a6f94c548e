/**
 * Giving back a start-up CPU boost upstream's admission controller gave (its pod annotation
 * `vpaCpuStartupBoost/<container>`, policy/upstream-startup-boost.ts), as upstream 1.8's updater
 * does: while a container's boost lasts (the pod not Ready, or Ready for less than its duration)
 * the pod waits (`Wait StartupBoost`, no other change); once it has ended, one resize sets the
 * container's cpu to what the updater would apply: the recommendation as the policy plans it
 * (min/maxAllowed, LimitRange, controlledValues; a Guaranteed limit moves with its request), or,
 * where the VPA sets no cpu for it (mode Off, no recommendation, cpu not controlled), the values
 * before the boost from the annotation. Only cpu changes, so nothing restarts unless the
 * container's cpu resizePolicy is RestartContainer (upstream boosts those too; `restart` says so).
 *
 * The updater cannot remove the annotation (it may resize pods, not patch them), so a boost is
 * known to be given back when the updater's own resize of the pod (managedFields) came at or after
 * its end, or when the cpu is at the target already; the pod is then left to the usual rules.
 * Example: ready 5 s ago, `durationSeconds: 1`, target 100m, cpu 200m -> `return` 200m -> 100m. Pure.
 */
import type { V1Container, V1LimitRange, V1Pod } from '@kubernetes/client-node';
import type { VerticalPodAutoscaler } from '../api/vpa.ts';
import type { NumericContainerRecommendation } from '../api/vpa-quantities.ts';
import { containerPolicyFor } from '../policy/container-policy.ts';
import type { ContainerResourceValues } from '../policy/container-values.ts';
import { planPodResources } from '../policy/pod-resources.ts';
import { boostEndsAt, formatBoostEnd, podReadyTime } from '../policy/startup-boost.ts';
import { upstreamBoostAnnotation, upstreamBoostEnd, vpaAsksForStartupBoost } from '../policy/upstream-startup-boost.ts';
import { actualByName, type ActualContainerResources } from './actual-resources.ts';
import type { ContainerChange } from './decision.ts';
import { resizeRestartPolicy } from './resize-path.ts';
import type { BoostStep } from './startup-boost-return.ts';

/** What the step decides from. */
export interface UpstreamBoostInput {
  pod: V1Pod;
  vpa: VerticalPodAutoscaler;
  /** The boosted containers and their values before the boost (`readUpstreamBoosts`). */
  boosts: ReadonlyMap<string, ContainerResourceValues>;
  /** The recommendation the updater works from; none in mode Off (back to the values before the boost). */
  recommendations: readonly NumericContainerRecommendation[];
  limitRanges?: readonly V1LimitRange[];
  containers: readonly ActualContainerResources[];
  /** The containers' actual values by name. */
  actual: ReadonlyMap<string, ContainerResourceValues>;
  /** When the updater last resized the pod (pod-timing.ts), if ever. */
  lastUpdate: number | undefined;
  now: number;
}

/** The cpu the updater would give each boosted container the VPA sets cpu for (the recommendation as the policy plans it). */
function plannedCpu(input: UpstreamBoostInput): Map<string, ContainerResourceValues> {
  const targets = input.recommendations.flatMap((rec) => {
    const cpu = rec.target.cpu;
    if (cpu === undefined || !input.boosts.has(rec.containerName)) return [];
    const policy = containerPolicyFor(input.vpa.spec.resourcePolicy, rec.containerName);
    return policy.mode === 'Off' || !policy.controlledResources.includes('cpu') ? [] : [{ containerName: rec.containerName, target: { cpu } }];
  });
  if (targets.length === 0) return new Map();
  const plan = planPodResources({
    pod: input.pod,
    resourcePolicy: input.vpa.spec.resourcePolicy,
    limitRanges: input.limitRanges,
    recommendations: targets,
    currentResources: actualByName(input.containers),
  });
  const named = new Set(targets.map((t) => t.containerName));
  return new Map(plan.containers.filter((c) => named.has(c.containerName)).map((c) => [c.containerName, c.proposed]));
}

/** `cpu to the recommendation`, or one phrase per container when they differ. */
function whereTo(sources: ReadonlyMap<string, string>): string {
  const phrases = new Set(sources.values());
  if (phrases.size === 1) return `cpu ${[...phrases][0]}`;
  return `cpu ${[...phrases]
    .map(
      (p) =>
        `${p} for ${[...sources]
          .filter(([, q]) => q === p)
          .map(([name]) => name)
          .join(', ')}`,
    )
    .join(', ')}`;
}

/** The step for upstream's boost annotations on the pod. */
export function upstreamBoostStep(input: UpstreamBoostInput): BoostStep {
  const { pod, vpa, boosts, actual, lastUpdate, now } = input;
  const readyAt = podReadyTime(pod);
  const holds = vpaAsksForStartupBoost(vpa);
  const planned = plannedCpu(input);
  const specs = new Map<string, V1Container>([...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => [c.name, c]));
  const kinds = new Map(input.containers.map((c) => [c.name, c.kind]));
  const changes: ContainerChange[] = [];
  const over: string[] = [];
  const ends = new Set<string>();
  const sources = new Map<string, string>();
  let waiting: string | undefined;
  for (const [name, before] of boosts) {
    const from = actual.get(name);
    if (!from) continue; // no such container in this pod
    const end = upstreamBoostEnd(vpa, name);
    const endsAt = boostEndsAt(end, undefined, readyAt);
    if (endsAt === undefined || now < endsAt) {
      if (endsAt === undefined && !holds) continue; // upstream holds pods only for a VPA that asks for a boost
      waiting ??= `upstream's start-up cpu boost (${upstreamBoostAnnotation(name)}) until ${formatBoostEnd(end)}: ${endsAt === undefined ? 'the pod is not Ready yet' : `${Math.ceil((endsAt - now) / 1000)} s left`}`;
      continue;
    }
    // managedFields times are whole seconds: a resize in the second the boost ended counts
    if (lastUpdate !== undefined && Math.floor(lastUpdate / 1000) >= Math.floor(endsAt / 1000)) continue; // given back already
    const target = planned.get(name);
    const cpu = target ? target.requests.cpu : before.requests.cpu;
    if (cpu === undefined) continue;
    const to: ContainerResourceValues = { requests: { ...from.requests, cpu }, limits: { ...from.limits } };
    const limit = from.limits.cpu;
    if (limit !== undefined) to.limits.cpu = target ? (target.limits.cpu ?? limit) : (before.limits.cpu ?? (limit === from.requests.cpu ? cpu : limit));
    if (to.requests.cpu === from.requests.cpu && to.limits.cpu === limit) continue; // at the target already
    changes.push({
      containerName: name,
      kind: kinds.get(name) ?? 'container',
      from,
      to,
      resources: ['cpu'],
      restart: resizeRestartPolicy(specs.get(name), 'cpu') === 'RestartContainer',
    });
    over.push(upstreamBoostAnnotation(name));
    ends.add(formatBoostEnd(end));
    sources.set(name, target ? 'to the recommendation' : 'back to the values before the boost');
  }
  if (changes.length === 0) return waiting === undefined ? { kind: 'none' } : { kind: 'active', message: waiting };
  const still = waiting === undefined ? '' : `; still boosted: ${waiting}`;
  return {
    kind: 'return',
    changes,
    message: `upstream's start-up cpu boost over (${[...over, [...ends].join(' / ')].join(', ')}): ${whereTo(sources)}${still}`,
  };
}
