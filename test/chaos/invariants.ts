/**
 * Tailor's safety rules checked against what the API server recorded (audit-actions.ts), each
 * action against the VPA that governed the pod at that moment (a watch's record: vpa-timeline.ts):
 * - `bounds`: every request a resize writes for a controlled resource is within the container
 *   policy's minAllowed/maxAllowed, and no resize writes a container whose policy mode is Off;
 * - `mode`: a resize only under updateMode InPlace or InPlaceOrRecreate, or the cpu of a start-up
 *   boost given back (any mode but those, when the VPA asks for a boost); an eviction only under
 *   Recreate, InPlaceOrRecreate or Auto;
 * - `qos`: no resize refused because it would change the pod's QoS class (Tailor must not ask);
 * - `eviction-api`: no pod deleted by the autoscaler (evictions go through the Eviction API, so
 *   PodDisruptionBudgets hold);
 * - `governed`: no action on a pod no VPA governs;
 * - `one-leader`: every write by a replica is made while it holds the leader Lease: the Lease's last
 *   successful write before it (the audit log's) was that replica's, at most a lease duration
 *   earlier. A write with no holder, another replica's renewal, or an expired lease is two leaders
 *   possible at once (with leader election off, as the one-leader variant runs, no replica holds it).
 * Only the autoscaler's own requests (`isAutoscaler`) are checked; failed requests count only for `qos`.
 */
import { containerPolicyFor } from '../../src/policy/container-policy.ts';
import { parseAmount } from '../../src/policy/container-values.ts';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import type { LeaseWrite, PodAction } from './audit-actions.ts';

export type Rule = 'bounds' | 'mode' | 'qos' | 'eviction-api' | 'governed' | 'one-leader';

export interface Violation {
  readonly rule: Rule;
  readonly at: number;
  readonly pod: string;
  readonly message: string;
}

export interface CheckInputs {
  readonly actions: readonly PodAction[];
  /** Is this action the autoscaler's (its service account)? */
  readonly isAutoscaler: (action: PodAction) => boolean;
  /** The VPA that governed `namespace/pod` at `at` (ms), as last seen before then. */
  readonly vpaAt: (namespace: string, pod: string, at: number) => VerticalPodAutoscaler | undefined;
  /** The leader election's lease duration (ms). */
  readonly leaseMs: number;
  /** The successful writes of the autoscaler's leader Lease, in time order. */
  readonly leaseWrites: readonly LeaseWrite[];
}

const IN_PLACE = new Set(['InPlace', 'InPlaceOrRecreate']);
const EVICTING = new Set(['Recreate', 'InPlaceOrRecreate', 'Auto']);
const BOOST_ANNOTATION = 'tailor.dev/startup-cpu-boost';

/** Does the VPA ask for a start-up cpu boost (which Tailor gives back in place in any mode)? */
function asksForBoost(vpa: VerticalPodAutoscaler): boolean {
  return (
    vpa.spec.startupBoost !== undefined ||
    (vpa.spec.resourcePolicy?.containerPolicies ?? []).some((p) => p.startupBoost !== undefined) ||
    vpa.metadata?.annotations?.[BOOST_ANNOTATION] !== undefined
  );
}

function boundViolations(action: PodAction, vpa: VerticalPodAutoscaler): string[] {
  const out: string[] = [];
  for (const c of action.containers) {
    const policy = containerPolicyFor(vpa.spec.resourcePolicy, c.name);
    if (policy.mode === 'Off') {
      out.push(`container ${c.name} written, but its policy's mode is Off`);
      continue;
    }
    for (const r of policy.controlledResources) {
      const written = c.requests[r];
      if (written === undefined) continue;
      const value = parseAmount(r, written);
      const [min, max] = [policy.minAllowed[r], policy.maxAllowed[r]];
      if (min !== undefined && value < min) out.push(`${c.name} ${r} request ${written} below minAllowed`);
      if (max !== undefined && value > max) out.push(`${c.name} ${r} request ${written} above maxAllowed`);
    }
  }
  return out;
}

function modeViolation(action: PodAction, vpa: VerticalPodAutoscaler): string | undefined {
  const mode = vpa.spec.updatePolicy?.updateMode ?? 'Recreate';
  if (action.kind === 'eviction') return EVICTING.has(mode) ? undefined : `evicted under updateMode ${mode}`;
  if (IN_PLACE.has(mode)) return undefined;
  const cpuOnly = action.containers.every((c) => Object.keys(c.requests).every((r) => r === 'cpu') && Object.keys(c.limits).every((r) => r === 'cpu'));
  if (asksForBoost(vpa) && cpuOnly) return undefined;
  return `resized in place under updateMode ${mode}${asksForBoost(vpa) ? " (more than a boost's cpu)" : ''}`;
}

/** Writes made by a replica that did not hold the leader Lease at that moment (see `one-leader` above). */
function leaderViolations(writes: readonly PodAction[], leases: readonly LeaseWrite[], leaseMs: number): Violation[] {
  const out: Violation[] = [];
  let i = -1;
  for (const w of writes) {
    while (i + 1 < leases.length && leases[i + 1]!.at <= w.at) i += 1;
    const sender = w.senderPod ?? w.user;
    const lease = i >= 0 ? leases[i] : undefined;
    const add = (message: string) => out.push({ rule: 'one-leader', at: w.at, pod: `${w.namespace}/${w.pod}`, message });
    if (!lease) add(`${sender} wrote before any replica held the leader Lease`);
    else if (lease.holder !== sender) add(`${sender} wrote while ${lease.holder} held the leader Lease (renewed ${w.at - lease.at} ms before)`);
    else if (w.at - lease.at > leaseMs) add(`${sender} wrote ${w.at - lease.at} ms after its last renewal of the leader Lease (lease ${leaseMs} ms)`);
  }
  return out;
}

/** Every violation of the rules above, in time order. */
export function checkInvariants(inputs: CheckInputs): Violation[] {
  const out: Violation[] = [];
  const mine = inputs.actions.filter(inputs.isAutoscaler);
  for (const a of mine) {
    const pod = `${a.namespace}/${a.pod}`;
    const add = (rule: Rule, message: string) => out.push({ rule, at: a.at, pod, message });
    if (a.kind === 'resize' && a.code >= 400 && /qos/i.test(a.message)) add('qos', `resize refused: ${a.message}`);
    if (a.code >= 300) continue;
    if (a.kind === 'delete') {
      add('eviction-api', 'pod deleted, not evicted (a PodDisruptionBudget would not have been asked)');
      continue;
    }
    const vpa = inputs.vpaAt(a.namespace, a.pod, a.at);
    if (!vpa) {
      add('governed', `${a.kind} of a pod no VPA governed`);
      continue;
    }
    const mode = modeViolation(a, vpa);
    if (mode) add('mode', mode);
    if (a.kind === 'resize') for (const m of boundViolations(a, vpa)) add('bounds', m);
  }
  const writes = mine.filter((a) => a.code < 300 && a.kind !== 'delete');
  out.push(...leaderViolations(writes, inputs.leaseWrites, inputs.leaseMs));
  return out.sort((x, y) => x.at - y.at);
}
