/**
 * Turns the policy's proposal for a pod into the in-place changes that are safe to send, in order:
 * 1. memory safety: a memory limit is not lowered below the recent peak + margin
 *    (src/policy/change-rules.ts);
 * 2. steps: every value moves by at most x2 up / x0.5 down, a raise at least to the lowerBound
 *    (step-limits.ts);
 * 3. servers that refuse to lower a memory limit without RestartContainer (1.33): the memory limit
 *    is kept and only the request lowered; where request == limit (Guaranteed) memory is kept;
 * 4. restarts: a change of a resource whose resizePolicy is RestartContainer restarts the
 *    container; when restarts are not allowed, those resources are left unchanged.
 * Runtime-aware memory (src/policy/container-runtime.ts): a memory limit is never lowered below a
 * JVM's heap + overhead (or GOMEMLIMIT + 10%); the memory of a runtime that sizes it at start
 * (JVM, PostgreSQL, MySQL, Redis) with memory resizePolicy NotRequired is left unchanged, since an
 * in-place change gives it nothing (`runtimeHeld`; the planner may recreate the pod instead),
 * except for an urgent raise (OOM kill, memory pressure), which still buys headroom against the kill.
 * Where a limit is held up by a rule, a request equal to it before stays equal to it (QoS kept).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { ResourceAmounts } from '../api/vpa-quantities.ts';
import { describeAmount } from '../policy/adjustments.ts';
import { sameValues, type ContainerResourceValues } from '../policy/container-values.ts';
import type { PodResourcesPlan } from '../policy/pod-resources.ts';
import { RESOURCE_NAMES, type ResourceName } from '../model/types.ts';
import type { PodUsage } from './container-usage.ts';
import type { ContainerChange } from './decision.ts';
import { describeRuntime, floorBasis, runtimeMemoryFloor, type ContainerRuntime } from '../policy/container-runtime.ts';
import { memoryLimitFloor, safeMemoryLimit } from '../policy/change-rules.ts';
import type { UpdaterOptions } from '../policy/update-thresholds.ts';
import type { MemoryFloors } from './resize-guard.ts';
import { resizeRestartPolicy } from './resize-path.ts';
import type { ServerCapabilities } from './server-capabilities.ts';
import { limitSteps } from './step-limits.ts';

/** What the in-place changes are computed from. */
export interface InPlaceChangesInput {
  pod: V1Pod;
  plan: PodResourcesPlan;
  usage: PodUsage | undefined;
  capabilities: ServerCapabilities;
  options: UpdaterOptions;
  restartAllowed: boolean;
  /** Each container's runtime (absent: unknown, handled as before). */
  runtimes?: ReadonlyMap<string, ContainerRuntime>;
  /** Containers with an urgent memory raise (OOM kill, pressure). */
  urgent?: ReadonlySet<string>;
  /** Each container's recommended lowerBound: a raise may reach it in one step. */
  lowerBounds?: ReadonlyMap<string, ResourceAmounts>;
}

/** The changes to send, the memory floors used, and what was held back. */
export interface InPlaceChanges {
  changes: ContainerChange[];
  floors: MemoryFloors;
  notes: string[];
  /** True if some change was dropped because it would restart a container and restarts are not allowed. */
  restartBlocked: boolean;
  /** Containers whose memory change was left out because their runtime sizes memory at start. */
  runtimeHeld: string[];
}

function changedResources(from: ContainerResourceValues, to: ContainerResourceValues): ResourceName[] {
  return RESOURCE_NAMES.filter((r) => from.requests[r] !== to.requests[r] || from.limits[r] !== to.limits[r]);
}

function withMemory(values: ContainerResourceValues, request: number | undefined, limit: number | undefined): ContainerResourceValues {
  const requests = { ...values.requests };
  const limits = { ...values.limits };
  if (request === undefined) delete requests.memory;
  else requests.memory = request;
  if (limit === undefined) delete limits.memory;
  else limits.memory = limit;
  return { requests, limits };
}

/** `to` with resource `r` (request and limit) set back to what `from` has. */
export function revertResource(to: ContainerResourceValues, from: ContainerResourceValues, r: ResourceName): ContainerResourceValues {
  const requests = { ...to.requests };
  const limits = { ...to.limits };
  if (from.requests[r] === undefined) delete requests[r];
  else requests[r] = from.requests[r];
  if (from.limits[r] === undefined) delete limits[r];
  else limits[r] = from.limits[r];
  return { requests, limits };
}

/** Holds a memory limit at `limit`, keeping a request that equalled the limit equal to it. */
function holdMemoryLimit(from: ContainerResourceValues, to: ContainerResourceValues, limit: number): ContainerResourceValues {
  const request = to.requests.memory;
  const wasEqual = from.requests.memory !== undefined && from.requests.memory === from.limits.memory;
  const equalNow = request !== undefined && request === to.limits.memory;
  const newRequest = request === undefined ? undefined : wasEqual && equalNow ? limit : Math.min(request, limit);
  return withMemory(to, newRequest, limit);
}

/** Computes the safe in-place changes for the pod. Pure. */
export function inPlaceChanges(input: InPlaceChangesInput): InPlaceChanges {
  const { options, capabilities } = input;
  const specs = new Map<string, V1Container>([...(input.pod.spec?.containers ?? []), ...(input.pod.spec?.initContainers ?? [])].map((c) => [c.name, c]));
  const notes: string[] = [];
  const floors: Record<string, number> = {};
  const changes: ContainerChange[] = [];
  let restartBlocked = false;
  const runtimeHeld: string[] = [];
  for (const planned of input.plan.containers) {
    const name = planned.containerName;
    const from = planned.current;
    let to = planned.proposed;
    if (sameValues(from, to)) continue;
    const container = specs.get(name);
    const runtime = input.runtimes?.get(name);
    const peakFloor = memoryLimitFloor(input.usage?.[name]?.memoryPeakBytes, options);
    const runtimeFloor = runtime ? runtimeMemoryFloor(runtime, from.limits.memory) : undefined;
    const floor = Math.max(peakFloor, runtimeFloor ?? 0);
    floors[name] = floor;

    if (
      runtime?.behaviour === 'start-sized' &&
      resizeRestartPolicy(container, 'memory') !== 'RestartContainer' &&
      !input.urgent?.has(name) &&
      changedResources(from, to).includes('memory')
    ) {
      to = revertResource(to, from, 'memory');
      runtimeHeld.push(name);
      notes.push(
        `${name}: memory left unchanged: it runs ${describeRuntime(runtime)}, which sizes its memory at start, and its memory resizePolicy is NotRequired, so an in-place change gives it nothing`,
      );
    }

    const oldLimit = from.limits.memory;
    const newLimit = to.limits.memory;
    if (oldLimit !== undefined && newLimit !== undefined && newLimit < oldLimit) {
      const safe = safeMemoryLimit(oldLimit, newLimit, floor);
      if (safe !== newLimit) {
        const why =
          runtimeFloor !== undefined && runtimeFloor >= peakFloor
            ? `${describeRuntime(runtime!)} needs ${floorBasis(runtime!)}`
            : Number.isFinite(floor)
              ? 'recent peak + margin'
              : 'no recent peak known';
        notes.push(`${name}: memory limit held at ${describeAmount('memory', safe)} instead of ${describeAmount('memory', newLimit)} (${why})`);
        to = holdMemoryLimit(from, to, safe);
      }
    }

    to = limitSteps(from, to, options, input.lowerBounds?.get(name));

    const stepLimit = to.limits.memory;
    if (
      capabilities.memoryLimitDecreaseNeedsRestart &&
      oldLimit !== undefined &&
      stepLimit !== undefined &&
      stepLimit < oldLimit &&
      resizeRestartPolicy(container, 'memory') !== 'RestartContainer'
    ) {
      const { major, minor } = capabilities.version;
      if (from.requests.memory !== undefined && from.requests.memory === oldLimit) {
        to = revertResource(to, from, 'memory');
        notes.push(
          `${name}: memory left unchanged: server ${major}.${minor} cannot lower the memory limit without RestartContainer, and the request must stay equal to it`,
        );
      } else {
        to = holdMemoryLimit(from, to, oldLimit);
        notes.push(`${name}: only the memory request is lowered: server ${major}.${minor} cannot lower the memory limit without RestartContainer`);
      }
    }

    let resources = changedResources(from, to);
    const restarting = resources.filter((r) => resizeRestartPolicy(container, r) === 'RestartContainer');
    if (restarting.length > 0 && !input.restartAllowed) {
      for (const r of restarting) to = revertResource(to, from, r);
      restartBlocked = true;
      notes.push(`${name}: ${restarting.join(', ')} left unchanged: resizePolicy RestartContainer and container restarts are not allowed`);
      resources = changedResources(from, to);
    }
    if (resources.length === 0) continue;
    changes.push({
      containerName: name,
      kind: planned.kind,
      from,
      to,
      resources,
      restart: resources.some((r) => resizeRestartPolicy(container, r) === 'RestartContainer'),
    });
  }
  return { changes, floors, notes, restartBlocked, runtimeHeld };
}
