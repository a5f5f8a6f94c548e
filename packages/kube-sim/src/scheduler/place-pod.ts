/**
 * The scheduler's decision for one pending pod: the node where its requests fit beside what the
 * pods already bound there request (allocatable minus requested), preferring the node left with
 * the most free room (LeastAllocated); or, when none fits, the real scheduler's message, e.g.
 * `0/3 nodes are available: 2 Insufficient cpu, 1 Insufficient memory. preemption: 0/3 nodes are
 * available: 3 No preemption victims found for incoming pod.` A node also takes at most its
 * allocatable `pods` (`Too many pods`).
 */
import type { Resources } from 'kube-basics/resources';
import { readResources, podRequests, holdsNodeResources } from '../pod-resources.ts';
import type { NodeObject, Pod } from '../objects.ts';

export type Placement = { node: string } | { node?: undefined; message: string };

/** What a bound pod holds on its node: the larger of its spec requests and what the kubelet allocated. */
export function heldResources(pod: Pod): Resources {
  const spec = podRequests(pod);
  let allocatedCpu = 0;
  let allocatedMemory = 0;
  for (const s of [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]) {
    const a = readResources(s.allocatedResources);
    allocatedCpu += a.cpu;
    allocatedMemory += a.memory;
  }
  return { cpu: Math.max(spec.cpu, allocatedCpu), memory: Math.max(spec.memory, allocatedMemory) };
}

/** Requests held on each node by the pods bound to it (pods that finished hold nothing). */
export function usedByNode(pods: readonly Pod[], exceptUid?: string): Map<string, Resources> {
  const used = new Map<string, Resources>();
  for (const p of pods) {
    if (!holdsNodeResources(p) || (exceptUid !== undefined && p.metadata.uid === exceptUid)) continue;
    const held = heldResources(p);
    const prev = used.get(p.spec.nodeName!) ?? { cpu: 0, memory: 0 };
    used.set(p.spec.nodeName!, { cpu: prev.cpu + held.cpu, memory: prev.memory + held.memory });
  }
  return used;
}

function ready(node: NodeObject): boolean {
  const c = node.status?.conditions?.find((x) => x.type === 'Ready');
  return c === undefined || c.status === 'True';
}

function selectorMatches(pod: Pod, node: NodeObject): boolean {
  const selector = (pod.spec.nodeSelector ?? {}) as Record<string, string>;
  return Object.entries(selector).every(([k, v]) => node.metadata.labels?.[k] === v);
}

/** What the pods bound to each node hold: requests and pod count. */
export interface NodeUsage {
  used: Map<string, Resources>;
  pods: Map<string, number>;
}

/** Sums what bound pods hold per node (once per scheduling pass). */
export function nodeUsage(boundPods: readonly Pod[]): NodeUsage {
  const pods = new Map<string, number>();
  for (const p of boundPods) if (holdsNodeResources(p)) pods.set(p.spec.nodeName!, (pods.get(p.spec.nodeName!) ?? 0) + 1);
  return { used: usedByNode(boundPods), pods };
}

/** Records a pod just bound to `node` in the usage. */
export function addToUsage(usage: NodeUsage, pod: Pod, node: string): void {
  const held = heldResources(pod);
  const prev = usage.used.get(node) ?? { cpu: 0, memory: 0 };
  usage.used.set(node, { cpu: prev.cpu + held.cpu, memory: prev.memory + held.memory });
  usage.pods.set(node, (usage.pods.get(node) ?? 0) + 1);
}

/** Chooses a node for `pod`; see the module comment. `usage` defaults to the sums over `boundPods`. */
export function placePod(pod: Pod, nodes: readonly NodeObject[], boundPods: readonly Pod[], usage: NodeUsage = nodeUsage(boundPods)): Placement {
  const want = podRequests(pod);
  const used = usage.used;
  const podCount = usage.pods;
  const reasons = new Map<string, number>();
  const note = (reason: string) => reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  let best: { name: string; score: number } | undefined;
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    if (node.spec?.unschedulable) {
      note('node(s) were unschedulable');
      continue;
    }
    if (!ready(node)) {
      note('node(s) had untolerated taint {node.kubernetes.io/not-ready: }');
      continue;
    }
    if (!selectorMatches(pod, node)) {
      note("node(s) didn't match Pod's node affinity/selector");
      continue;
    }
    const maxPods = Number(node.status?.allocatable?.pods ?? 110);
    if ((podCount.get(name) ?? 0) >= maxPods) {
      note('Too many pods');
      continue;
    }
    const allocatable = readResources(node.status?.allocatable);
    const u = used.get(name) ?? { cpu: 0, memory: 0 };
    const cpuShort = u.cpu + want.cpu > allocatable.cpu;
    const memShort = u.memory + want.memory > allocatable.memory;
    if (cpuShort) note('Insufficient cpu');
    if (memShort) note('Insufficient memory');
    if (cpuShort || memShort) continue;
    // LeastAllocated: mean free fraction after placing the pod.
    const free = (r: keyof Resources) => (allocatable[r] === 0 ? 0 : (allocatable[r] - u[r] - want[r]) / allocatable[r]);
    const score = (free('cpu') + free('memory')) / 2;
    if (!best || score > best.score || (score === best.score && name < best.name)) best = { name, score };
  }
  if (best) return { node: best.name };
  const total = nodes.length;
  const parts = [...reasons.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([r, n]) => `${n} ${r}`);
  return {
    message: `0/${total} nodes are available: ${parts.join(', ')}. preemption: 0/${total} nodes are available: ${total} No preemption victims found for incoming pod.`,
  };
}
