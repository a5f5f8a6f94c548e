/**
 * Properties of the planner on generated pods, VPAs, recommendations, usage and server versions:
 * whatever it plans to resize in place, once the JSON Patch is applied to the pod,
 * - the QoS class is unchanged,
 * - no request or limit is removed, and requests stay <= limits,
 * - no memory limit goes below the recent peak + margin (and none is lowered without a known peak),
 * - on 1.33 no memory limit is lowered without memory resizePolicy RestartContainer,
 * - each value moved by at most one step (x2 up, x0.5 down),
 * - a restart happens only where the resizePolicy asks for it and restarts are allowed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import type { V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { formatCpu, formatMemory, parseCpu, parseMemory } from 'kube-basics/quantity';
import type { UpdateMode } from '../../src/api/vpa.ts';
import { recommendationFromStatus } from '../../src/api/vpa-quantities.ts';
import { readResourceValues } from '../../src/policy/container-values.ts';
import { podQosClass, qosClassOf } from '../../src/policy/qos.ts';
import { RESOURCE_NAMES, type ResourceName } from '../../src/model/types.ts';
import { memoryLimitFloor } from '../../src/policy/change-rules.ts';
import { resizeJsonPatch } from '../../src/updater/resize-patch.ts';
import { resizeRestartPolicy } from '../../src/updater/resize-path.ts';
import type { PodUsage } from '../../src/updater/container-usage.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { container, pod, resizeInProgress, resizePending, type ContainerSketch } from '../builders/pods.ts';
import { HOUR, MiB, MINUTE } from '../builders/time.ts';
import { vpa } from '../builders/vpas.ts';
import { decide } from './planner-fixtures.ts';

const NAMES = ['app', 'proxy', 'log'] as const;
const options = updaterOptions();
const amount = (r: ResourceName) => (r === 'cpu' ? fc.integer({ min: 1, max: 8_000 }) : fc.integer({ min: 16, max: 16_384 }).map((m) => m * MiB));
const format = (r: ResourceName, v: number) => (r === 'cpu' ? formatCpu(v) : formatMemory(v));

/** One resource: nothing, a request, request < limit, or request == limit. */
const shape = (r: ResourceName) =>
  fc.oneof(
    fc.constant({}),
    amount(r).map((v) => ({ request: v })),
    fc.tuple(amount(r), amount(r)).map(([a, b]) => ({ request: Math.min(a, b), limit: Math.max(a, b) })),
    amount(r).map((v) => ({ request: v, limit: v })),
  );

/** Mostly undefined: OOM kills and memory pressure are the exception. */
const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const restartPolicy = fc.constantFrom<'NotRequired' | 'RestartContainer' | undefined>(undefined, 'NotRequired', 'RestartContainer');

const containerSketch = (name: string) =>
  fc
    .record({
      cpu: shape('cpu'),
      memory: shape('memory'),
      guaranteed: fc.boolean(),
      cpuPolicy: restartPolicy,
      memoryPolicy: restartPolicy,
      oom: rarely(fc.integer({ min: 0, max: 2 * HOUR })),
    })
    .map((s): ContainerSketch => {
      const requests: Record<string, string> = {};
      const limits: Record<string, string> = {};
      for (const r of RESOURCE_NAMES) {
        const v = s[r] as { request?: number; limit?: number };
        if (v.request !== undefined) requests[r] = format(r, v.request);
        if (v.limit !== undefined) limits[r] = format(r, v.limit);
        if (s.guaranteed && v.request !== undefined) limits[r] = requests[r]!;
      }
      if (s.guaranteed) {
        requests.cpu ??= '100m';
        requests.memory ??= '128Mi';
        limits.cpu = requests.cpu;
        limits.memory = requests.memory;
      }
      const resizePolicy: ContainerSketch['resizePolicy'] = {};
      if (s.cpuPolicy) resizePolicy.cpu = s.cpuPolicy;
      if (s.memoryPolicy) resizePolicy.memory = s.memoryPolicy;
      return container(name, { requests, limits, resizePolicy, ...(s.oom !== undefined ? { oomKilledAgo: s.oom } : {}) });
    });

const recommendation = fc.record({
  cpu: amount('cpu'),
  memory: amount('memory'),
  lowerFactor: fc.double({ min: 0.2, max: 1, noNaN: true }),
  upperFactor: fc.double({ min: 1, max: 4, noNaN: true }),
});

const usage = fc.record({
  peak: fc.option(amount('memory'), { nil: undefined }),
  pressure: rarely(amount('memory')),
});

const scenario = fc.record({
  count: fc.integer({ min: 1, max: 3 }),
  containers: fc.tuple(...NAMES.map(containerSketch)),
  recs: fc.tuple(...NAMES.map(() => recommendation)),
  usage: fc.tuple(...NAMES.map(() => usage)),
  mode: fc.constantFrom<UpdateMode>('InPlace', 'InPlaceOrRecreate'),
  minor: fc.constantFrom(32, 33, 34, 35),
  allowRestart: fc.boolean(),
  ageHours: fc.integer({ min: 0, max: 48 }),
  /** A resize already pending: the spec asks for x factor of what the first container has. */
  pending: rarely(fc.record({ factor: fc.constantFrom(0.5, 2), state: fc.constantFrom('none', 'Deferred', 'Infeasible', 'InProgress', 'Error') })),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario) {
  const sketches = s.containers.slice(0, s.count);
  const conditions: V1PodCondition[] = [];
  if (s.pending) {
    // The first container runs with what its spec had; the spec now asks for x factor of it.
    const first = sketches[0]!;
    const scale = (list: Record<string, string> | undefined) =>
      Object.fromEntries(
        Object.entries(list ?? {}).map(([r, q]) => [
          r,
          r === 'cpu'
            ? formatCpu(Math.max(1, Math.round(parseCpu(q) * s.pending!.factor)))
            : formatMemory(Math.max(1, Math.round((parseMemory(q) / MiB) * s.pending!.factor)) * MiB),
        ]),
      );
    sketches[0] = {
      ...first,
      actual: { requests: first.requests ?? {}, limits: first.limits ?? {} },
      requests: scale(first.requests),
      limits: scale(first.limits),
    };
    const state = s.pending.state;
    if (state === 'Deferred' || state === 'Infeasible') conditions.push(resizePending(state, 10 * MINUTE));
    if (state === 'InProgress') conditions.push(resizeInProgress(10 * MINUTE));
    if (state === 'Error') conditions.push(resizeInProgress(10 * MINUTE, { error: 'failed' }));
  }
  const p = pod({ containers: sketches, startedAgo: s.ageHours * HOUR, conditions });
  const recommend = Object.fromEntries(
    sketches.map((c, i) => {
      const r = s.recs[i]!;
      const target = { cpu: formatCpu(r.cpu), memory: formatMemory(r.memory) };
      const lower = { cpu: formatCpu(Math.floor(r.cpu * r.lowerFactor)), memory: formatMemory(Math.floor(r.memory * r.lowerFactor)) };
      const upper = { cpu: formatCpu(Math.ceil(r.cpu * r.upperFactor)), memory: formatMemory(Math.ceil(r.memory * r.upperFactor)) };
      return [c.name, { target, lower, upper }];
    }),
  );
  const annotations = s.allowRestart ? { 'tailor.dev/allow-container-restart': 'true' } : undefined;
  const v = vpa({ mode: s.mode, recommend, ...(annotations ? { annotations } : {}) });
  const podUsage: Record<string, NonNullable<PodUsage[string]>> = {};
  sketches.forEach((c, i) => {
    const u = s.usage[i]!;
    podUsage[c.name] = {
      ...(u.peak !== undefined ? { memoryPeakBytes: u.peak } : {}),
      ...(u.pressure !== undefined ? { memoryWorkingSetMinBytes: u.pressure, memoryWindowMs: 2 * MINUTE } : {}),
    };
  });
  return { p, v, podUsage };
}

function specValues(p: V1Pod) {
  return [...(p.spec?.containers ?? []), ...(p.spec?.initContainers ?? [])].map((c) => ({ name: c.name, values: readResourceValues(c.resources) }));
}

test('planned in-place resizes keep QoS, remove nothing, respect memory safety, steps (a raise up to the lowerBound) and restart permissions', () => {
  let resized = 0;
  fc.assert(
    fc.property(scenario, (s) => {
      const { p, v, podUsage } = build(s);
      const d = decide(p, v, { usage: podUsage, minor: s.minor, gate: true });
      if (d.action !== 'ResizeInPlace' && d.action !== 'ResizeWithRestart') return;
      resized += 1;
      const patched = jsonpatch.applyPatch(structuredClone(p), resizeJsonPatch(p, d.changes) as jsonpatch.Operation[], true, false).newDocument as V1Pod;
      const before = specValues(p);
      const after = specValues(patched);
      assert.equal(qosClassOf(after.map((a) => a.values)), podQosClass(p), 'QoS class changed');
      for (const [i, a] of after.entries()) {
        const b = before[i]!;
        for (const r of RESOURCE_NAMES) {
          if (b.values.requests[r] !== undefined) assert.notEqual(a.values.requests[r], undefined, `${a.name} ${r} request removed`);
          if (b.values.limits[r] !== undefined) assert.notEqual(a.values.limits[r], undefined, `${a.name} ${r} limit removed`);
          const req = a.values.requests[r];
          const lim = a.values.limits[r];
          if (req !== undefined && lim !== undefined) assert.ok(req <= lim, `${a.name} ${r} request > limit`);
        }
      }
      const spec = new Map(p.spec!.containers.map((c) => [c.name, c]));
      const lowerBounds = new Map(
        (v.status?.recommendation?.containerRecommendations ?? []).map((rec) => [rec.containerName, recommendationFromStatus(rec).lowerBound]),
      );
      for (const c of d.changes) {
        const oldLimit = c.from.limits.memory;
        const newLimit = c.to.limits.memory;
        if (oldLimit !== undefined && newLimit !== undefined && newLimit < oldLimit) {
          const floor = memoryLimitFloor(podUsage[c.containerName]?.memoryPeakBytes, options);
          assert.ok(newLimit >= floor, `${c.containerName} memory limit ${newLimit} below peak + margin ${floor}`);
          if (s.minor === 33 || s.minor === 32)
            assert.equal(resizeRestartPolicy(spec.get(c.containerName), 'memory'), 'RestartContainer', 'memory limit lowered on 1.33 without RestartContainer');
        }
        for (const r of RESOURCE_NAMES) {
          for (const key of ['requests', 'limits'] as const) {
            const x = c.from[key][r];
            const y = c.to[key][r];
            if (x === undefined || y === undefined) continue;
            // A raise may go beyond x2 up to the lowerBound (a limit: in proportion to its request).
            const lower = lowerBounds.get(c.containerName)?.[r];
            const request = c.from.requests[r];
            const reach = lower === undefined ? 0 : key === 'requests' ? lower : request ? Math.floor((x * lower) / request) : 0;
            assert.ok(
              y <= Math.max(Math.floor(x * 2), reach) && y >= Math.ceil(x * 0.5),
              `${c.containerName} ${r} ${key} ${x} -> ${y} is more than one step (lowerBound ${lower})`,
            );
          }
        }
        const restarts = c.resources.some((r) => resizeRestartPolicy(spec.get(c.containerName), r) === 'RestartContainer');
        assert.equal(c.restart, restarts, 'restart flag follows resizePolicy');
        if (c.restart) assert.ok(s.allowRestart, 'a restart without permission');
      }
      assert.equal(
        d.disruptive,
        d.changes.some((c) => c.restart),
      );
    }),
    { numRuns: 600 },
  );
  assert.ok(resized > 50, `only ${resized} of 600 scenarios produced a resize: the generator is too narrow`);
});

test('Off/Initial never act, InPlace never evicts, and Skip/Wait never carry a disruption', () => {
  fc.assert(
    fc.property(scenario, fc.constantFrom<UpdateMode>('Off', 'Initial', 'InPlace'), (s, mode) => {
      const { p, v, podUsage } = build(s);
      v.spec.updatePolicy!.updateMode = mode;
      const d = decide(p, v, { usage: podUsage, minor: s.minor });
      if (mode !== 'InPlace') assert.equal(d.action, 'Skip');
      assert.notEqual(d.action, 'Evict');
      if (d.action === 'Skip' || d.action === 'Wait') assert.equal(d.disruptive, false);
    }),
    { numRuns: 300 },
  );
});
