/**
 * Every row of the per-pod decision logic (issue 7), table-driven: the pod and VPA are built with
 * the readable builders, and each row states the action, the reason and, where something changes,
 * the values sent (cpu in millicores, memory in bytes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodDecision } from '../../src/updater/decision.ts';
import { container, pod, resizeInProgress, resizePending, type ContainerSketch, type PodSketch } from '../builders/pods.ts';
import { HOUR, MiB, GiB, MINUTE } from '../builders/time.ts';
import { vpa, type VpaSketch } from '../builders/vpas.ts';
import { decide } from './planner-fixtures.ts';

type Values = { requests?: Record<string, number>; limits?: Record<string, number> };

interface Row {
  name: string;
  pod: PodSketch;
  vpa: VpaSketch;
  opts?: Parameters<typeof decide>[2];
  action: PodDecision['action'];
  reason: PodDecision['reason'];
  /** The values each changed container gets; omitted: not checked; {}: no changes. */
  to?: Record<string, Values>;
  disruptive?: boolean;
  message?: RegExp;
}

// A Burstable container: 100m / 512Mi requests, 1Gi memory limit.
const app = (extra: Partial<ContainerSketch> = {}) => container('app', { requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1Gi' }, ...extra });
// Recommends more cpu, same memory: outside the bounds (lower 150m).
const moreCpu = { app: { target: { cpu: '200m', memory: '512Mi' }, lower: { cpu: '150m', memory: '400Mi' }, upper: { cpu: '400m', memory: '800Mi' } } };
// Recommends less memory: outside the bounds (upper 400Mi).
const lessMemory = { app: { target: { cpu: '100m', memory: '300Mi' }, lower: { cpu: '50m', memory: '200Mi' }, upper: { cpu: '200m', memory: '400Mi' } } };
const young = 1 * HOUR;
// app requests 100m: 5% short of lowerBound 105m, less than the 10% that skips the cooldown (decision 0296)
const slightlyMoreCpu = { app: { target: { cpu: '200m', memory: '512Mi' }, lower: { cpu: '105m', memory: '400Mi' }, upper: { cpu: '400m', memory: '800Mi' } } };
// Pod-level resources (spec.resources): Burstable, limits twice the requests.
const podLevel = { requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '200m', memory: '1Gi' } };

// One row per line, read as a table:
// prettier-ignore
const rows: Row[] = [
  // Modes
  { name: 'Off never touches pods', pod: { containers: [app()] }, vpa: { mode: 'Off', recommend: moreCpu }, action: 'Skip', reason: 'UpdateModeOff' },
  { name: 'Initial never touches running pods', pod: { containers: [app()] }, vpa: { mode: 'Initial', recommend: moreCpu }, action: 'Skip', reason: 'UpdateModeInitial' },
  { name: 'Recreate evicts with the full recommendation (no step limit: the webhook sets it)', pod: { containers: [app()], startedAgo: young }, vpa: { mode: 'Recreate', recommend: { app: { target: { cpu: '500m' }, lower: { cpu: '300m' } } } }, action: 'Evict', reason: 'OutsideBounds', to: { app: { requests: { cpu: 500, memory: 512 * MiB }, limits: { memory: GiB } } }, disruptive: true },
  { name: 'Auto is Recreate', pod: { containers: [app()], startedAgo: young }, vpa: { mode: 'Auto', recommend: moreCpu }, action: 'Evict', reason: 'OutsideBounds' },
  { name: 'InPlaceOrRecreate resizes in place without restart', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: moreCpu }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 200, memory: 512 * MiB }, limits: { memory: GiB } } }, disruptive: false },
  { name: 'InPlace resizes in place too', pod: { containers: [app()], startedAgo: young }, vpa: { mode: 'InPlace', recommend: moreCpu }, action: 'ResizeInPlace', reason: 'OutsideBounds' },
  // Pod state
  { name: 'a terminating pod is skipped', pod: { containers: [app()], terminating: true }, vpa: { recommend: moreCpu }, action: 'Skip', reason: 'PodTerminating' },
  { name: 'a pod not Running is skipped', pod: { containers: [app()], phase: 'Pending' }, vpa: { recommend: moreCpu }, action: 'Skip', reason: 'PodNotRunning' },
  { name: 'no recommendation yet', pod: { containers: [app()] }, vpa: {}, action: 'Skip', reason: 'NoRecommendation' },
  { name: 'a malformed recommendation is skipped, not thrown', pod: { containers: [app()] }, vpa: { recommend: { app: { target: { cpu: 'lots' } } } }, action: 'Skip', reason: 'InvalidRecommendation' },
  // When to act
  { name: 'within bounds on a young pod: nothing to do', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '130m' }, lower: { cpu: '80m' }, upper: { cpu: '300m' } } } }, action: 'Skip', reason: 'WithinBounds', message: /too young/ },
  { name: 'within bounds, older than 12h, 30% off the target: drift update', pod: { containers: [app()], startedAgo: 13 * HOUR }, vpa: { recommend: { app: { target: { cpu: '130m' }, lower: { cpu: '80m' }, upper: { cpu: '300m' } } } }, action: 'ResizeInPlace', reason: 'Drift', to: { app: { requests: { cpu: 130, memory: 512 * MiB }, limits: { memory: GiB } } } },
  { name: 'within bounds, older than 12h, 5% off the target: below the 10% threshold', pod: { containers: [app()], startedAgo: 13 * HOUR }, vpa: { recommend: { app: { target: { cpu: '105m' }, lower: { cpu: '80m' }, upper: { cpu: '300m' } } } }, action: 'Skip', reason: 'WithinBounds' },
  { name: 'the age threshold is configurable: 1h old with minPodAgeForDrift 30 min drifts', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '130m' }, lower: { cpu: '80m' }, upper: { cpu: '300m' } } } }, opts: { options: { minPodAgeForDriftMs: 30 * MINUTE } }, action: 'ResizeInPlace', reason: 'Drift' },
  { name: 'decides from actual values: spec asks 1 cpu, the container has 200m, below lowerBound 300m', pod: { containers: [container('app', { requests: { cpu: '1' }, actual: { requests: { cpu: '200m' } } })], startedAgo: young }, vpa: { mode: 'InPlace', recommend: { app: { target: { cpu: '350m' }, lower: { cpu: '300m' }, upper: { cpu: '1500m' } } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 350 } } } },
  // Steps
  { name: 'a scale-up moves at most x2 per step: 100m -> 200m towards 500m (lowerBound 150m)', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '500m' }, lower: { cpu: '150m' } } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 200, memory: 512 * MiB }, limits: { memory: GiB } } } },
  { name: 'a raise below the lowerBound reaches it in one change: 100m -> 300m towards 500m (lowerBound 300m)', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '500m' }, lower: { cpu: '300m' } } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 300, memory: 512 * MiB }, limits: { memory: GiB } } } },
  { name: 'memory below the lowerBound: request and limit rise together to it, the ratio kept (512Mi/1Gi -> 2Gi/4Gi)', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '3Gi' }, lower: { memory: '2Gi' } } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 100, memory: 2 * GiB }, limits: { memory: 4 * GiB } } } },
  { name: 'a workload\'s own max-increase keeps the step, even below the lowerBound: 100m -> 200m (its 50% is applied by the planner, workload-pace.test.ts)', pod: { containers: [app()], startedAgo: young }, vpa: { annotations: { 'tailor.dev/max-increase': '50%' }, recommend: { app: { target: { cpu: '500m' }, lower: { cpu: '300m' } } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 200, memory: 512 * MiB }, limits: { memory: GiB } } } },
  { name: 'a scale-down moves at most x0.5 per step: cpu 1000m -> 500m towards 100m', pod: { containers: [container('app', { requests: { cpu: '1' } })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m' }, upper: { cpu: '300m' } } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 500 } } } },
  // Server, node and pod capabilities
  { name: '1.32 without the feature gate: InPlaceOrRecreate evicts instead', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: moreCpu }, opts: { minor: 32 }, action: 'Evict', reason: 'FallbackInPlaceUnsupported', disruptive: true },
  { name: '1.32 without the feature gate: InPlace never evicts', pod: { containers: [app()], startedAgo: young }, vpa: { mode: 'InPlace', recommend: moreCpu }, opts: { minor: 32 }, action: 'Skip', reason: 'InPlaceUnsupported' },
  { name: '1.32 with the feature gate: in place', pod: { containers: [app()], startedAgo: young }, vpa: { mode: 'InPlace', recommend: moreCpu }, opts: { minor: 32, gate: true }, action: 'ResizeInPlace', reason: 'OutsideBounds' },
  { name: 'a node without resize support: InPlaceOrRecreate evicts', pod: { containers: [app({ actual: 'none' })], startedAgo: young }, vpa: { recommend: moreCpu }, action: 'Evict', reason: 'FallbackInPlaceUnsupported', message: /node without support for resize/ },
  { name: 'a node without resize support: InPlace skips', pod: { containers: [app({ actual: 'none' })], startedAgo: young }, vpa: { mode: 'InPlace', recommend: moreCpu }, action: 'Skip', reason: 'InPlaceUnsupported' },
  { name: 'a static pod cannot be resized', pod: { containers: [app()], startedAgo: young, annotations: { 'kubernetes.io/config.mirror': 'abc' } }, vpa: { mode: 'InPlace', recommend: moreCpu }, action: 'Skip', reason: 'InPlaceUnsupported', message: /static/ },
  { name: '1.36: pod-level values are resized in place to the containers\' summed recommendation, limits in proportion (cpu 100m/200m -> 200m/400m)', pod: { containers: [container('app')], startedAgo: young, podResources: podLevel }, vpa: { recommend: moreCpu }, opts: { minor: 36 }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { '(pod)': { requests: { cpu: 200, memory: 512 * MiB }, limits: { cpu: 400, memory: GiB } } }, disruptive: false },
  { name: '1.36: pod-level values within the summed bounds: nothing to do', pod: { containers: [container('app')], startedAgo: young, podResources: podLevel }, vpa: { recommend: { app: { target: { cpu: '110m', memory: '512Mi' }, lower: { cpu: '80m', memory: '400Mi' }, upper: { cpu: '300m', memory: '800Mi' } } } }, opts: { minor: 36 }, action: 'Skip', reason: 'WithinBounds' },
  { name: '1.36: a container with neither a recommendation nor a request of its own: its share is unknown, left alone', pod: { containers: [container('app'), container('log')], startedAgo: young, podResources: podLevel }, vpa: { recommend: moreCpu }, opts: { minor: 36 }, action: 'Skip', reason: 'PolicyLeftAlone', message: /log has no cpu recommendation.*share of the pod-level cpu is unknown/ },
  { name: '1.35: pod-level values cannot be resized in place: InPlace skips', pod: { containers: [container('app')], startedAgo: young, podResources: podLevel }, vpa: { mode: 'InPlace', recommend: moreCpu }, opts: { minor: 35 }, action: 'Skip', reason: 'InPlaceUnsupported', message: /only from Kubernetes 1\.36/ },
  { name: '1.35: pod-level values cannot be resized in place: InPlaceOrRecreate recreates the pod (the webhook writes them)', pod: { containers: [container('app')], startedAgo: young, podResources: podLevel }, vpa: { recommend: moreCpu }, opts: { minor: 35 }, action: 'Evict', reason: 'FallbackInPlaceUnsupported', to: { '(pod)': { requests: { cpu: 200, memory: 512 * MiB }, limits: { cpu: 400, memory: GiB } } } },
  { name: 'a BestEffort pod is left alone', pod: { containers: [container('app')], startedAgo: young }, vpa: { recommend: moreCpu }, action: 'Skip', reason: 'PolicyLeftAlone' },
  { name: 'maxAllowed equal to the current request: nothing changes', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: moreCpu, policies: [{ containerName: 'app', maxAllowed: { cpu: '100m' } }] }, action: 'Skip', reason: 'UpToDate' },
  // resizePolicy and restarts
  { name: 'memory RestartContainer without permission: the memory change is dropped, cpu goes ahead', pod: { containers: [app({ resizePolicy: { memory: 'RestartContainer' } })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '200m', memory: '768Mi' }, lower: { cpu: '150m', memory: '600Mi' } } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 200, memory: 512 * MiB }, limits: { memory: GiB } } } },
  { name: 'only a RestartContainer change and no permission: skipped with the reason', pod: { containers: [app({ resizePolicy: { memory: 'RestartContainer' } })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '768Mi' }, lower: { memory: '600Mi' } } } }, action: 'Skip', reason: 'RestartNotAllowed' },
  { name: 'the VPA annotation allows the restart: a disruptive in-place resize', pod: { containers: [app({ resizePolicy: { memory: 'RestartContainer' } })], startedAgo: young }, vpa: { annotations: { 'tailor.dev/allow-container-restart': 'true' }, recommend: { app: { target: { cpu: '100m', memory: '768Mi' }, lower: { memory: '600Mi' } } } }, action: 'ResizeWithRestart', reason: 'OutsideBounds', to: { app: { requests: { cpu: 100, memory: 768 * MiB }, limits: { memory: 1536 * MiB } } }, disruptive: true },
  { name: 'the global option allows restarts; the annotation "false" overrides it', pod: { containers: [app({ resizePolicy: { memory: 'RestartContainer' } })], startedAgo: young }, vpa: { annotations: { 'tailor.dev/allow-container-restart': 'false' }, recommend: { app: { target: { cpu: '100m', memory: '768Mi' }, lower: { memory: '600Mi' } } } }, opts: { options: { allowContainerRestart: true } }, action: 'Skip', reason: 'RestartNotAllowed' },
  { name: 'a cpu change with memory RestartContainer does not restart', pod: { containers: [app({ resizePolicy: { memory: 'RestartContainer' } })], startedAgo: young }, vpa: { recommend: moreCpu }, action: 'ResizeInPlace', reason: 'OutsideBounds', disruptive: false },
  // Memory safety and the 1.33 rule
  { name: 'no recent peak known: the memory limit is not lowered, only the request', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: lessMemory }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 100, memory: 300 * MiB }, limits: { memory: GiB } } } },
  { name: '1.34, peak 200Mi (floor 264Mi): the limit scales down with the request, 1Gi x 300/512 = 600Mi', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: lessMemory }, opts: { usage: { app: { memoryPeakBytes: 200 * MiB } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 100, memory: 300 * MiB }, limits: { memory: 600 * MiB } } } },
  { name: '1.34, peak 800Mi: the limit stops at the floor 800 + 15% = 920Mi', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: lessMemory }, opts: { usage: { app: { memoryPeakBytes: 800 * MiB } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 100, memory: 300 * MiB }, limits: { memory: 920 * MiB } } } },
  { name: '1.33, NotRequired: only the memory request is lowered, the limit stays 1Gi', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: lessMemory }, opts: { minor: 33, usage: { app: { memoryPeakBytes: 200 * MiB } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 100, memory: 300 * MiB }, limits: { memory: GiB } } } },
  { name: '1.33, RestartContainer allowed: the limit is lowered on the restart path', pod: { containers: [app({ resizePolicy: { memory: 'RestartContainer' } })], startedAgo: young }, vpa: { annotations: { 'tailor.dev/allow-container-restart': 'true' }, recommend: lessMemory }, opts: { minor: 33, usage: { app: { memoryPeakBytes: 200 * MiB } } }, action: 'ResizeWithRestart', reason: 'OutsideBounds', to: { app: { requests: { cpu: 100, memory: 300 * MiB }, limits: { memory: 600 * MiB } } } },
  { name: '1.33, Guaranteed, NotRequired: memory cannot go down (request must equal limit); cpu still does', pod: { containers: [container('app', { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '600m', memory: '600Mi' }, upper: { cpu: '800m', memory: '800Mi' } } } }, opts: { minor: 33, usage: { app: { memoryPeakBytes: 100 * MiB } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 600, memory: GiB }, limits: { cpu: 600, memory: GiB } } } },
  { name: '1.34, Guaranteed: request and limit go down together, held at the floor together', pod: { containers: [container('app', { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '1', memory: '600Mi' }, upper: { cpu: '2', memory: '800Mi' } } } }, opts: { usage: { app: { memoryPeakBytes: 700 * MiB } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 1000, memory: 805 * MiB }, limits: { cpu: 1000, memory: 805 * MiB } } } },
  // OOM and memory pressure
  { name: 'OOM-killed 5 min ago on a 1h-old pod within bounds: memory x1.5 now, cpu untouched', pod: { containers: [app({ oomKilledAgo: 5 * MINUTE })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '300m', memory: '512Mi' }, lower: { cpu: '50m', memory: '400Mi' }, upper: { cpu: '400m', memory: '800Mi' } } } }, action: 'ResizeInPlace', reason: 'OomKilled', to: { app: { requests: { cpu: 100, memory: 768 * MiB }, limits: { memory: 1536 * MiB } } } },
  { name: 'OOM: a recommendation above x1.5 wins (512Mi -> 900Mi)', pod: { containers: [app({ oomKilledAgo: 5 * MINUTE })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '900Mi' }, lower: { memory: '400Mi' } } } }, action: 'ResizeInPlace', reason: 'OomKilled', to: { app: { requests: { cpu: 100, memory: 900 * MiB }, limits: { memory: 1800 * MiB } } } },
  { name: 'OOM-killed, waiting in CrashLoopBackOff: recreated, not resized (the kubelet would leave the pod cgroup at the old size)', pod: { containers: [app({ oomKilledAgo: MINUTE, waiting: true })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '900Mi' }, lower: { memory: '400Mi' } } } }, action: 'Evict', reason: 'FallbackNotRunning', to: { app: { requests: { cpu: 100, memory: 900 * MiB }, limits: { memory: 1800 * MiB } } }, disruptive: true, message: /app not running/ },
  { name: 'OOM-killed and waiting, the recommendation not moved yet: wait (neither an ineffective resize nor a useless eviction)', pod: { containers: [app({ oomKilledAgo: MINUTE, waiting: true })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '512Mi' }, lower: { memory: '400Mi' } } } }, action: 'Wait', reason: 'ContainerNotRunning', message: /recreated pod would get the same resources/ },
  { name: 'OOM-killed and waiting in InPlace mode: wait until it runs', pod: { containers: [app({ oomKilledAgo: MINUTE, waiting: true })], startedAgo: young }, vpa: { mode: 'InPlace', recommend: { app: { target: { cpu: '100m', memory: '900Mi' }, lower: { memory: '400Mi' } } } }, action: 'Wait', reason: 'ContainerNotRunning', message: /once it runs/ },
  { name: 'an OOM before the updater\'s last change was already answered', pod: { containers: [app({ oomKilledAgo: 30 * MINUTE })], startedAgo: young, resizedAgo: 20 * MINUTE }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '512Mi' }, lower: { memory: '400Mi' } } } }, action: 'Skip', reason: 'WithinBounds' },
  { name: 'an OOM older than the 1h lookback is not acted on', pod: { containers: [app({ oomKilledAgo: 2 * HOUR })], startedAgo: 3 * HOUR }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '512Mi' }, lower: { memory: '400Mi' } } } }, action: 'Skip', reason: 'WithinBounds' },
  { name: 'OOM in Recreate mode, recommendation raised to 700Mi: evict at once; the new pod gets the recommendation', pod: { containers: [app({ oomKilledAgo: MINUTE })], startedAgo: young }, vpa: { mode: 'Recreate', recommend: { app: { target: { cpu: '100m', memory: '700Mi' } } } }, action: 'Evict', reason: 'OomKilled', to: { app: { requests: { cpu: 100, memory: 700 * MiB }, limits: { memory: 1400 * MiB } } } },
  // Upstream 1.8's evictAfterOOMSeconds (e2e "evicts pods when OOM occurs within threshold" / "does not evict pods when OOM duration exceeds threshold"): only a quick OOM counts.
  { name: 'evictAfterOOMSeconds 600: killed 5 s after its start, 1 min ago: evict (a quick OOM)', pod: { containers: [app({ oomKilledAgo: MINUTE, oomRanFor: 5_000 })], startedAgo: young }, vpa: { mode: 'Recreate', evictAfterOOMSeconds: 600, recommend: { app: { target: { cpu: '100m', memory: '2Gi' }, lower: { memory: '500Mi' }, upper: { memory: '3Gi' } } } }, action: 'Evict', reason: 'OomKilled' },
  { name: 'evictAfterOOMSeconds 1: killed after running 5 s is no quick OOM: no eviction', pod: { containers: [app({ oomKilledAgo: MINUTE, oomRanFor: 5_000 })], startedAgo: young }, vpa: { mode: 'Recreate', evictAfterOOMSeconds: 1, recommend: { app: { target: { cpu: '100m', memory: '2Gi' }, lower: { memory: '500Mi' }, upper: { memory: '3Gi' } } } }, action: 'Skip', reason: 'WithinBounds' },
  { name: 'evictAfterOOMSeconds 600: killed 5 s after its start but 15 min ago: too old', pod: { containers: [app({ oomKilledAgo: 15 * MINUTE, oomRanFor: 5_000 })], startedAgo: young }, vpa: { mode: 'Recreate', evictAfterOOMSeconds: 600, recommend: { app: { target: { cpu: '100m', memory: '2Gi' }, lower: { memory: '500Mi' }, upper: { memory: '3Gi' } } } }, action: 'Skip', reason: 'WithinBounds' },
  { name: 'without evictAfterOOMSeconds the same slow kill 15 min ago counts (the 1h lookback)', pod: { containers: [app({ oomKilledAgo: 15 * MINUTE, oomRanFor: 20 * MINUTE })], startedAgo: young }, vpa: { mode: 'Recreate', recommend: { app: { target: { cpu: '100m', memory: '2Gi' }, lower: { memory: '500Mi' }, upper: { memory: '3Gi' } } } }, action: 'Evict', reason: 'OomKilled' },
  { name: 'OOM in Recreate mode, recommendation not moved yet: evicting would change nothing', pod: { containers: [app({ oomKilledAgo: MINUTE })], startedAgo: young }, vpa: { mode: 'Recreate', recommend: { app: { target: { cpu: '100m', memory: '512Mi' } } } }, action: 'Skip', reason: 'UpToDate', message: /recreated pod would get the same resources/ },
  { name: 'memory pressure (min 950Mi over 2 min > 90% of 1Gi): raise now', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '512Mi' } } } }, opts: { usage: { app: { memoryWorkingSetMinBytes: 950 * MiB, memoryWindowMs: 2 * MINUTE } } }, action: 'ResizeInPlace', reason: 'MemoryPressure', to: { app: { requests: { cpu: 100, memory: 768 * MiB }, limits: { memory: 1536 * MiB } } } },
  { name: 'memory pressure within maxAllowed 640Mi: request 640Mi, limit 1Gi x 640/512 = 1280Mi', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '512Mi' } } }, policies: [{ containerName: '*', maxAllowed: { memory: '640Mi' } }] }, opts: { usage: { app: { memoryWorkingSetMinBytes: 950 * MiB, memoryWindowMs: 2 * MINUTE } } }, action: 'ResizeInPlace', reason: 'MemoryPressure', to: { app: { requests: { cpu: 100, memory: 640 * MiB }, limits: { memory: 1280 * MiB } } } },
  { name: 'memory high for only 1 min: not yet pressure', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '512Mi' } } } }, opts: { usage: { app: { memoryWorkingSetMinBytes: 950 * MiB, memoryWindowMs: MINUTE } } }, action: 'Skip', reason: 'WithinBounds' },
  { name: 'min working set 900Mi is below 90% of 1Gi (921.6Mi): no pressure', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '512Mi' } } } }, opts: { usage: { app: { memoryWorkingSetMinBytes: 900 * MiB, memoryWindowMs: 2 * MINUTE } } }, action: 'Skip', reason: 'WithinBounds' },
  // Pace
  { name: 'changed 5 min ago, 5% below the lowerBound: cooldown', pod: { containers: [app()], startedAgo: young, resizedAgo: 5 * MINUTE }, vpa: { recommend: slightlyMoreCpu }, action: 'Wait', reason: 'Cooldown' },
  { name: 'the cooldown comes from the annotation too', pod: { containers: [app()], startedAgo: young, annotations: { 'tailor.dev/last-update': new Date(Date.parse('2026-06-01T11:50:00Z')).toISOString() } }, vpa: { recommend: slightlyMoreCpu }, action: 'Wait', reason: 'Cooldown' },
  { name: 'changed 5 min ago, a cut (1 cpu above upperBound 300m): cooldown', pod: { containers: [container('app', { requests: { cpu: '1' } })], startedAgo: young, resizedAgo: 5 * MINUTE }, vpa: { recommend: { app: { target: { cpu: '100m' }, upper: { cpu: '300m' } } } }, action: 'Wait', reason: 'Cooldown' },
  { name: 'changed 5 min ago, 100m short of lowerBound 150m by 10% or more: not held by the cooldown (decision 0296)', pod: { containers: [app()], startedAgo: young, resizedAgo: 5 * MINUTE }, vpa: { recommend: moreCpu }, action: 'ResizeInPlace', reason: 'OutsideBounds', message: /changed 5 min ago, but app short of the lowerBound by 10% or more: not held by the cooldown/ },
  { name: 'a short pod waits out the workload\'s own cooldown (a hard pace)', pod: { containers: [app()], startedAgo: young, resizedAgo: 5 * MINUTE }, vpa: { annotations: { 'tailor.dev/cooldown': '15m' }, recommend: moreCpu }, action: 'Wait', reason: 'Cooldown' },
  { name: 'changed 20 min ago: past the 15 min cooldown', pod: { containers: [app()], startedAgo: young, resizedAgo: 20 * MINUTE }, vpa: { recommend: moreCpu }, action: 'ResizeInPlace', reason: 'OutsideBounds' },
  { name: 'an OOM skips the cooldown', pod: { containers: [app({ oomKilledAgo: MINUTE })], startedAgo: young, resizedAgo: 5 * MINUTE }, vpa: { recommend: moreCpu }, action: 'ResizeInPlace', reason: 'OomKilled' },
  // HPA
  { name: 'an HPA on cpu and a cpu-only recommendation: left to the HPA', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '300m' }, lower: { cpu: '200m' } } } }, opts: { hpa: ['cpu'] }, action: 'Skip', reason: 'HpaConflict' },
  { name: 'an HPA on cpu: memory is still resized, cpu left alone', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '300m', memory: '768Mi' }, lower: { cpu: '200m', memory: '600Mi' } } } }, opts: { hpa: ['cpu'] }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 100, memory: 768 * MiB }, limits: { memory: 1536 * MiB } } } },
  { name: 'an HPA on memory: an OOM does not raise memory either', pod: { containers: [app({ oomKilledAgo: MINUTE })], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '100m', memory: '512Mi' } } } }, opts: { hpa: ['memory'] }, action: 'Skip', reason: 'WithinBounds' },
  { name: 'respectHpa false: the HPA is ignored', pod: { containers: [app()], startedAgo: young }, vpa: { recommend: { app: { target: { cpu: '200m' }, lower: { cpu: '150m' } } } }, opts: { hpa: ['cpu'], options: { respectHpa: false } }, action: 'ResizeInPlace', reason: 'OutsideBounds' },
  // evictionRequirements
  { name: 'evictionRequirements TargetHigherThanRequests: a scale-down does not evict', pod: { containers: [container('app', { requests: { cpu: '1' } })], startedAgo: young }, vpa: { mode: 'Recreate', evictionRequirements: [{ resources: ['cpu'], changeRequirement: 'TargetHigherThanRequests' }], recommend: { app: { target: { cpu: '200m' }, upper: { cpu: '400m' } } } }, action: 'Skip', reason: 'EvictionRequirementsNotMet' },
  { name: 'evictionRequirements TargetHigherThanRequests: a scale-up evicts', pod: { containers: [container('app', { requests: { cpu: '100m' } })], startedAgo: young }, vpa: { mode: 'Recreate', evictionRequirements: [{ resources: ['cpu'], changeRequirement: 'TargetHigherThanRequests' }], recommend: moreCpu }, action: 'Evict', reason: 'OutsideBounds' },
  // Following a resize
  { name: 'Proposed (the kubelet has not seen it yet): wait', pod: { containers: [app()], legacyResize: 'Proposed' }, vpa: { recommend: moreCpu }, action: 'Wait', reason: 'ResizeProposed' },
  { name: 'legacy Proposed since the last resize 61 min ago: the kubelet never took it up, evict', pod: { containers: [app()], legacyResize: 'Proposed', resizedAgo: 61 * MINUTE }, vpa: { recommend: moreCpu }, action: 'Evict', reason: 'FallbackInProgressTimeout' },
  { name: 'InProgress for 30 min: wait', pod: { containers: [app()], conditions: [resizeInProgress(30 * MINUTE)] }, vpa: { recommend: moreCpu }, action: 'Wait', reason: 'ResizeInProgress' },
  { name: 'InProgress for 61 min, InPlaceOrRecreate: evict', pod: { containers: [app()], conditions: [resizeInProgress(61 * MINUTE)] }, vpa: { recommend: moreCpu }, action: 'Evict', reason: 'FallbackInProgressTimeout', disruptive: true },
  { name: 'InProgress with reason Error, InPlaceOrRecreate: evict', pod: { containers: [app()], conditions: [resizeInProgress(MINUTE, { error: 'usage above the new limit' })] }, vpa: { recommend: moreCpu }, action: 'Evict', reason: 'FallbackError', message: /usage above the new limit/ },
  { name: 'Deferred for 2 min: wait', pod: { containers: [app()], conditions: [resizePending('Deferred', 2 * MINUTE)] }, vpa: { recommend: moreCpu }, action: 'Wait', reason: 'ResizeDeferred' },
  { name: 'Deferred for 6 min, InPlaceOrRecreate: evict', pod: { containers: [app()], conditions: [resizePending('Deferred', 6 * MINUTE)] }, vpa: { recommend: moreCpu }, action: 'Evict', reason: 'FallbackDeferredTimeout' },
  { name: 'legacy Deferred, timed from the last resize 6 min ago: evict', pod: { containers: [app()], legacyResize: 'Deferred', resizedAgo: 6 * MINUTE }, vpa: { recommend: moreCpu }, action: 'Evict', reason: 'FallbackDeferredTimeout' },
  { name: 'legacy Deferred without any time: keep waiting', pod: { containers: [app()], legacyResize: 'Deferred' }, vpa: { recommend: moreCpu }, action: 'Wait', reason: 'ResizeDeferred' },
  { name: 'Infeasible, InPlaceOrRecreate: evict at once', pod: { containers: [app()], conditions: [resizePending('Infeasible', 10 * 1000)] }, vpa: { recommend: moreCpu }, action: 'Evict', reason: 'FallbackInfeasible', disruptive: true },
  { name: 'Infeasible, InPlace, the pending resize is still the one to make: wait', pod: { containers: [container('app', { requests: { cpu: '200m' }, actual: { requests: { cpu: '100m' } } })], conditions: [resizePending('Infeasible', MINUTE)] }, vpa: { mode: 'InPlace', recommend: { app: { target: { cpu: '200m' }, lower: { cpu: '150m' } } } }, action: 'Wait', reason: 'ResizeInfeasible' },
  { name: 'Infeasible, InPlace, a smaller recommendation now: send it instead', pod: { containers: [container('app', { requests: { cpu: '200m' }, actual: { requests: { cpu: '100m' } } })], conditions: [resizePending('Infeasible', MINUTE)] }, vpa: { mode: 'InPlace', recommend: { app: { target: { cpu: '150m' }, lower: { cpu: '120m' } } } }, action: 'ResizeInPlace', reason: 'ResizeSuperseded', to: { app: { requests: { cpu: 150 } } } },
  { name: 'Deferred for 6 min, InPlace: never evicts, waits', pod: { containers: [container('app', { requests: { cpu: '200m' }, actual: { requests: { cpu: '100m' } } })], conditions: [resizePending('Deferred', 6 * MINUTE)] }, vpa: { mode: 'InPlace', recommend: { app: { target: { cpu: '200m' }, lower: { cpu: '150m' } } } }, action: 'Wait', reason: 'ResizeDeferred' },
  { name: 'InProgress for 61 min, InPlace: nothing better to send, keeps waiting (stuck)', pod: { containers: [container('app', { requests: { cpu: '200m' }, actual: { requests: { cpu: '100m' } } })], conditions: [resizeInProgress(61 * MINUTE)] }, vpa: { mode: 'InPlace', recommend: { app: { target: { cpu: '200m' }, lower: { cpu: '150m' } } } }, action: 'Wait', reason: 'ResizeStuck' },
  { name: 'Error, InPlace: a different resize replaces the failed one', pod: { containers: [container('app', { requests: { cpu: '200m' }, actual: { requests: { cpu: '100m' } } })], conditions: [resizeInProgress(MINUTE, { error: 'failed' })] }, vpa: { mode: 'InPlace', recommend: { app: { target: { cpu: '160m' }, lower: { cpu: '150m' } } } }, action: 'ResizeInPlace', reason: 'ResizeSuperseded', to: { app: { requests: { cpu: 160 } } } },
  { name: 'a malformed quantity in what the kubelet reports: left alone, not thrown', pod: { containers: [container('app', { requests: { cpu: '100m' }, actual: { requests: { cpu: 'a lot' } } })], startedAgo: young }, vpa: { recommend: moreCpu }, action: 'Skip', reason: 'PolicyLeftAlone' },
  { name: 'a sidecar (restartable init container) is resized like a container', pod: { containers: [app(), container('proxy', { requests: { cpu: '50m' }, sidecar: true })], startedAgo: young }, vpa: { recommend: { ...moreCpu, proxy: { target: { cpu: '100m' }, lower: { cpu: '80m' } } } }, action: 'ResizeInPlace', reason: 'OutsideBounds', to: { app: { requests: { cpu: 200, memory: 512 * MiB }, limits: { memory: GiB } }, proxy: { requests: { cpu: 100 } } } },
  { name: 'a resize in flight does not matter in Recreate mode', pod: { containers: [app()], startedAgo: young, conditions: [resizePending('Infeasible', MINUTE)] }, vpa: { mode: 'Recreate', recommend: moreCpu }, action: 'Evict', reason: 'OutsideBounds' },
];

function toNumbers(d: PodDecision): Record<string, Values> {
  return Object.fromEntries(d.changes.map((c) => [c.containerName, { requests: { ...c.to.requests }, limits: { ...c.to.limits } }]));
}

for (const row of rows) {
  test(row.name, () => {
    const d = decide(pod(row.pod), vpa(row.vpa), row.opts);
    assert.equal(`${d.action} ${d.reason}`, `${row.action} ${row.reason}`, d.message);
    if (row.to) {
      const expected = Object.fromEntries(Object.entries(row.to).map(([name, v]) => [name, { requests: v.requests ?? {}, limits: v.limits ?? {} }]));
      assert.deepEqual(toNumbers(d), expected);
    }
    if (row.disruptive !== undefined) assert.equal(d.disruptive, row.disruptive);
    if (row.message) assert.match(d.message, row.message);
    if (d.action === 'Skip' || d.action === 'Wait') assert.equal(d.disruptive, false);
  });
}

test('the HPA-excluded resources are reported for the VPA', () => {
  const d = decide(
    pod({ containers: [app()], startedAgo: young }),
    vpa({ recommend: { app: { target: { cpu: '300m', memory: '768Mi' }, lower: { cpu: '200m', memory: '600Mi' } } } }),
    { hpa: ['cpu'] },
  );
  assert.deepEqual(d.hpaExcluded, ['cpu']);
});

test('ordering facts: a scale-up of cpu 100m -> 200m is a 100% difference', () => {
  const d = decide(pod({ containers: [app()], startedAgo: young }), vpa({ recommend: moreCpu }));
  assert.equal(d.scaleUp, true);
  assert.equal(d.difference, 1);
});

test('notes explain what the safety rules held back', () => {
  const d = decide(pod({ containers: [app()], startedAgo: young }), vpa({ recommend: lessMemory }));
  assert.ok(
    d.notes.some((n) => /memory limit held at 1Gi .*no recent peak known/.test(n)),
    d.notes.join('\n'),
  );
});
