/**
 * A resize that restarts a container, split by each resource's resizePolicy: the part that
 * restarts nothing (every changed resource whose restartPolicy is NotRequired: the kubelet applies
 * it to the cgroup in place) and the part that restarts (RestartContainer). A closed disruption
 * window holds only the second (updater-plan.ts): non-disruptive changes go on at any time. Each
 * part changes whole resources, request and limit together, so a Guaranteed pod's cpu limit still
 * moves with its request; a part that the server's rules would refuse alone (e.g. the QoS class
 * would change) is not offered, and the whole resize waits.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { ordering } from './change-facts.ts';
import type { ContainerChange, DecisionReason, PodDecision, RestartSplit } from './decision.ts';
import { revertResource } from './in-place-changes.ts';
import { resizeRestartPolicy } from './resize-path.ts';
import { resizeViolations, type MemoryFloors } from './resize-guard.ts';
import type { ServerCapabilities } from './server-capabilities.ts';

/** The split of `changes`, or undefined when nothing in them can go without a restart. */
export function splitByRestart(pod: V1Pod, why: string, changes: readonly ContainerChange[]): RestartSplit | undefined {
  const specs = new Map([...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => [c.name, c]));
  const inPlace: ContainerChange[] = [];
  const restarting: ContainerChange[] = [];
  for (const change of changes) {
    if (!change.restart) {
      inPlace.push(change);
      continue;
    }
    const container = specs.get(change.containerName);
    const restarts = change.resources.filter((r) => resizeRestartPolicy(container, r) === 'RestartContainer');
    const quiet = change.resources.filter((r) => !restarts.includes(r));
    const quietOnly = restarts.reduce((to, r) => revertResource(to, change.from, r), change.to);
    if (quiet.length > 0) inPlace.push({ ...change, to: quietOnly, resources: quiet, restart: false });
    restarting.push({ ...change, from: quietOnly, resources: restarts, restart: true });
  }
  return inPlace.length > 0 && restarting.length > 0 ? { why, inPlace, restarting } : undefined;
}

/** The split, when its in-place part passes the server's rules alone (resize-guard.ts). */
export function sendableSplit(
  pod: V1Pod,
  why: string,
  changes: readonly ContainerChange[],
  capabilities: ServerCapabilities,
  floors: MemoryFloors,
): RestartSplit | undefined {
  const split = splitByRestart(pod, why, changes);
  return split && resizeViolations(pod, split.inPlace, capabilities, floors).length === 0 ? split : undefined;
}

/** `app cpu; log memory`. */
function named(changes: readonly ContainerChange[]): string {
  return changes.map((c) => `${c.containerName} ${c.resources.join(', ')}`).join('; ');
}

/** The decision's in-place part as a resize of its own, its restarting part left waiting for `reason`. */
export function inPlacePartOnly(d: PodDecision & { restartSplit: RestartSplit }, reason: DecisionReason, message: string): PodDecision {
  const { why, inPlace, restarting } = d.restartSplit;
  return {
    ...d,
    action: 'ResizeInPlace',
    message: `${why}; in place now, restarting nothing: ${named(inPlace)}; waits: ${named(restarting)} (restart): ${message}`,
    changes: inPlace,
    disruptive: false,
    ...ordering(inPlace),
    waiting: { reason, message, changes: restarting },
  };
}
