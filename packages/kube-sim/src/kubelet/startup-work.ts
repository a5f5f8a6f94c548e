/**
 * CPU-heavy start-up: a pod annotated `tailor.dev/sim-startup-cpu-seconds: "30"` must do 30
 * CPU-seconds of work before it turns Ready (JIT warm-up, cache loading). The work runs as fast
 * as the pod's CPU allows: the sum over its app containers of the applied cpu limit, or the cpu
 * request where there is no limit (the share the request guarantees on a busy node), so a bigger
 * CPU allocation (a start-up boost, an in-place resize while starting) makes it Ready sooner.
 * While starting, the containers report not ready and use that CPU. Pure.
 */
import type { Pod, PodStatus } from '../objects.ts';
import { readLimits, readResources } from '../pod-resources.ts';
import { findCondition, setCondition } from './conditions.ts';

export const STARTUP_CPU_SECONDS_ANNOTATION = 'tailor.dev/sim-startup-cpu-seconds';

/** The start-up work of the pod in CPU-seconds; undefined without (or with a bad) annotation. */
export function startupWork(pod: Pod): number | undefined {
  const raw = pod.metadata.annotations?.[STARTUP_CPU_SECONDS_ANNOTATION];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The started pod's status while it works: containers and the pod not ready. */
export function notReadyYet(status: PodStatus, now: number): PodStatus {
  let out: PodStatus = { ...status, containerStatuses: (status.containerStatuses ?? []).map((s) => ({ ...s, ready: false })) };
  for (const type of ['Ready', 'ContainersReady']) {
    const c = findCondition(out, type);
    out = setCondition(
      out,
      { ...(c ?? { type }), type, status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: start-up work' },
      now,
    );
  }
  return out;
}

/** Millicores the start-up work runs at: per app container, the applied cpu limit, else the request. */
export function startupRate(pod: Pod, status: PodStatus): number {
  let rate = 0;
  for (const c of pod.spec.containers) {
    const applied = status.containerStatuses?.find((s) => s.name === c.name)?.resources ?? c.resources;
    rate += readLimits(applied?.limits).cpu ?? readResources(applied?.requests).cpu;
  }
  return rate;
}

/** The work left after `dtMs` at `rateMillicores`, and when it finished (ms) if it did. */
export function advanceStartup(remaining: number, rateMillicores: number, now: number, dtMs: number): { remaining: number; doneAt?: number } {
  const perMs = rateMillicores / 1000 / 1000;
  const left = remaining - perMs * dtMs;
  if (left > 0 || perMs <= 0) return { remaining: Math.max(0, left) };
  return { remaining: 0, doneAt: now - -left / perMs };
}

/** The status once the work is done at `at`: containers and the pod Ready. */
export function readyNow(status: PodStatus, at: number): PodStatus {
  let out: PodStatus = { ...status, containerStatuses: (status.containerStatuses ?? []).map((s) => ({ ...s, ready: true })) };
  for (const type of ['Ready', 'ContainersReady']) {
    const c = findCondition(out, type);
    const { reason: _r, message: _m, lastTransitionTime: _t, lastProbeTime: _p, ...rest } = c ?? { type };
    out = setCondition(out, { ...rest, type, status: 'True' }, at);
  }
  return out;
}
