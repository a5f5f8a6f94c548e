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
 * - `one-leader`: writes by replica A, then B, then A again within a lease duration: two leaders
 *   acting at once (a handover never goes back that fast: a crashed leader's lease must expire first).
 * Only the autoscaler's own requests (`isAutoscaler`) are checked; failed requests count only for `qos`.
 */
import { containerPolicyFor } from '../../src/policy/container-policy.ts';
import { parseAmount } from '../../src/policy/container-values.ts';
import type { VerticalPodAutoscaler } from '../../src/api/vpa.ts';
import type { PodAction } from './audit-actions.ts';

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

/** Interleaved writes of two replicas within a lease: A, B, A with the two A writes less than `leaseMs` apart. */
function leaderViolations(writes: readonly PodAction[], leaseMs: number): Violation[] {
  const out: Violation[] = [];
  const lastBy = new Map<string, number>();
  let previous: string | undefined;
  for (const w of writes) {
    const sender = w.senderPod ?? w.user;
    const mine = lastBy.get(sender);
    if (previous !== undefined && previous !== sender && mine !== undefined && w.at - mine < leaseMs) {
      out.push({
        rule: 'one-leader',
        at: w.at,
        pod: `${w.namespace}/${w.pod}`,
        message: `${sender} wrote again ${w.at - mine} ms after its last write, with ${previous} writing in between (lease ${leaseMs} ms)`,
      });
    }
    lastBy.set(sender, w.at);
    previous = sender;
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
  out.push(...leaderViolations(writes, inputs.leaseMs));
  return out.sort((x, y) => x.at - y.at);
}
