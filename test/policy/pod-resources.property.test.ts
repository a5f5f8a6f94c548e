/**
 * Property-based tests of the resource policy: whatever the pod, policy, LimitRange and
 * recommendation, the plan keeps the QoS class, keeps requests <= limits, adds no limit, removes
 * nothing, yields whole non-negative numbers, honours min/maxAllowed where nothing else overrides
 * them, and is stable (planning again from the result changes nothing).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { V1Container, V1LimitRange } from '@kubernetes/client-node';
import { formatCpu, formatMemory } from 'kube-basics/quantity';
import type { ContainerResourcePolicy } from '../../src/api/vpa.ts';
import type { ContainerTarget, PodResourcesInput } from '../../src/policy/pod-resources.ts';
import { planPodResources } from '../../src/policy/pod-resources.ts';
import { applyPlanToRequirements } from '../../src/policy/resource-requirements.ts';
import { qosClassOf } from '../../src/policy/qos.ts';
import { readResourceValues } from '../../src/policy/container-values.ts';
import { MINIMUM_REQUEST, roundUp } from '../../src/policy/rounding.ts';
import { RESOURCE_NAMES, type ResourceName } from '../../src/model/types.ts';
import { MiB } from './fixtures.ts';

const NAMES = ['app', 'proxy', 'log'] as const;
const RUNS = 400;

const amount = (r: ResourceName) => (r === 'cpu' ? fc.integer({ min: 1, max: 16_000 }) : fc.integer({ min: 1, max: 32_768 }).map((m) => m * MiB));
const format = (r: ResourceName, v: number) => (r === 'cpu' ? formatCpu(v) : formatMemory(v));

/** One resource of a container: nothing, a request, a limit only, request < limit, request == limit. */
function resourceShape(r: ResourceName) {
  return fc.oneof(
    fc.constant({}),
    amount(r).map((v) => ({ request: v })),
    amount(r).map((v) => ({ limit: v })),
    fc.tuple(amount(r), amount(r)).map(([a, b]) => ({ request: Math.min(a, b), limit: Math.max(a, b) })),
    amount(r).map((v) => ({ request: v, limit: v })),
  );
}

function container(name: string) {
  return fc.record({ cpu: resourceShape('cpu'), memory: resourceShape('memory') }).map((shape): V1Container => {
    const requests: Record<string, string> = {};
    const limits: Record<string, string> = {};
    for (const r of RESOURCE_NAMES) {
      const s = shape[r] as { request?: number; limit?: number };
      if (s.request !== undefined) requests[r] = format(r, s.request);
      if (s.limit !== undefined) limits[r] = format(r, s.limit);
    }
    return { name, resources: { requests, limits } };
  });
}

/** A Guaranteed container half of the time, so Guaranteed pods are common. */
function anyContainer(name: string) {
  const guaranteed = fc.tuple(amount('cpu'), amount('memory')).map(([cpu, memory]): V1Container => ({
    name,
    resources: { requests: { cpu: formatCpu(cpu), memory: formatMemory(memory) }, limits: { cpu: formatCpu(cpu), memory: formatMemory(memory) } },
  }));
  return fc.oneof(container(name), guaranteed);
}

const target = (r: ResourceName) =>
  fc.oneof(
    { weight: 8, arbitrary: r === 'cpu' ? fc.double({ min: 0, max: 20_000, noNaN: true }) : fc.double({ min: 0, max: 40_000 * MiB, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(Number.NaN, -1, Number.POSITIVE_INFINITY, 0) },
  );

const bounds = (r: ResourceName) =>
  fc.option(
    fc.tuple(amount(r), amount(r)).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
    { nil: undefined },
  );

function containerPolicy(name: string) {
  return fc
    .record({
      mode: fc.constantFrom('Auto', 'Auto', 'Auto', 'Off') as fc.Arbitrary<'Auto' | 'Off'>,
      cpu: bounds('cpu'),
      memory: bounds('memory'),
      controlledResources: fc.constantFrom<ResourceName[]>(['cpu', 'memory'], ['cpu'], ['memory']),
      controlledValues: fc.constantFrom('RequestsAndLimits', 'RequestsOnly') as fc.Arbitrary<'RequestsAndLimits' | 'RequestsOnly'>,
    })
    .map((p): ContainerResourcePolicy => {
      const minAllowed: Record<string, string> = {};
      const maxAllowed: Record<string, string> = {};
      for (const r of RESOURCE_NAMES) {
        const b = p[r];
        if (b) {
          minAllowed[r] = format(r, b[0]);
          maxAllowed[r] = format(r, b[1]);
        }
      }
      return { containerName: name, mode: p.mode, minAllowed, maxAllowed, controlledResources: p.controlledResources, controlledValues: p.controlledValues };
    });
}

function boundsItem(type: 'Container' | 'Pod', b: { cpu?: readonly [number, number]; memory?: readonly [number, number] }) {
  const min: Record<string, string> = {};
  const max: Record<string, string> = {};
  for (const r of RESOURCE_NAMES) {
    const x = b[r];
    if (x) {
      min[r] = format(r, x[0]);
      max[r] = format(r, x[1]);
    }
  }
  return { type, min, max };
}

/** A Container item (first), maybe with a ratio, and maybe a Pod item (second). */
const limitRanges = fc.option(
  fc
    .record({
      cpu: bounds('cpu'),
      memory: bounds('memory'),
      ratio: fc.option(fc.integer({ min: 1000, max: 8000 }), { nil: undefined }),
      pod: fc.option(fc.record({ cpu: bounds('cpu'), memory: bounds('memory') }), { nil: undefined }),
    })
    .map((lr): V1LimitRange[] => {
      const container = boundsItem('Container', lr);
      const maxLimitRequestRatio = lr.ratio === undefined ? undefined : { cpu: `${lr.ratio}m`, memory: `${lr.ratio}m` };
      const limits = [{ ...container, ...(maxLimitRequestRatio ? { maxLimitRequestRatio } : {}) }];
      if (lr.pod) limits.push(boundsItem('Pod', lr.pod));
      return [{ spec: { limits } }];
    }),
  { nil: undefined },
);

function scenarioWith(limitRangeArbitrary: fc.Arbitrary<V1LimitRange[] | undefined>) {
  return fc
    .record({
      count: fc.integer({ min: 1, max: 3 }),
      containers: fc.tuple(...NAMES.map(anyContainer)),
      init: fc.option(anyContainer('init'), { nil: undefined }),
      policies: fc.tuple(...NAMES.map((n) => fc.option(containerPolicy(n), { nil: undefined }))),
      star: fc.option(containerPolicy('*'), { nil: undefined }),
      targets: fc.tuple(...NAMES.map(() => fc.record({ cpu: target('cpu'), memory: target('memory') }))),
      limitRanges: limitRangeArbitrary,
      memoryRules: fc.option(
        fc.tuple(
          ...NAMES.map(() => fc.record({ floor: fc.option(amount('memory'), { nil: undefined }), mayDecrease: fc.option(fc.boolean(), { nil: undefined }) })),
        ),
        { nil: undefined },
      ),
    })
    .map((s): PodResourcesInput => {
      const containers = s.containers.slice(0, s.count);
      const policies = [...s.policies.slice(0, s.count), s.star].filter((p): p is ContainerResourcePolicy => p !== undefined);
      const recommendations: ContainerTarget[] = containers.map((c, i) => ({ containerName: c.name, target: s.targets[i]! }));
      const input: PodResourcesInput = {
        pod: { spec: s.init ? { containers, initContainers: [s.init] } : { containers } },
        resourcePolicy: { containerPolicies: policies },
        recommendations,
      };
      if (s.limitRanges) input.limitRanges = s.limitRanges;
      if (s.memoryRules) {
        const rules = s.memoryRules;
        input.memoryLimitRules = Object.fromEntries(containers.map((c, i) => [c.name, stripUndefined(rules[i]!)]));
      }
      return input;
    });
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Checks a property over scenarios with LimitRanges (`only`), without, or either (default). */
function check(property: (input: PodResourcesInput) => void, limitRange: 'any' | 'none' | 'only' = 'any'): void {
  const lr = limitRange === 'any' ? limitRanges : limitRange === 'none' ? fc.constant(undefined) : limitRanges.filter((x) => x !== undefined);
  fc.assert(fc.property(scenarioWith(lr), property), { numRuns: RUNS });
}

test('the QoS class never changes', () => {
  check((input) => {
    const plan = planPodResources(input);
    const init = (input.pod.spec?.initContainers ?? []).map((c) => readResourceValues(c.resources));
    assert.equal(qosClassOf([...plan.containers.map((c) => c.proposed), ...init]), plan.qosClass);
    // The last-resort revert of the whole pod is never needed: per-resource fixes suffice.
    assert.ok(!plan.reasons.some((r) => r.code === 'QosWouldChange'), JSON.stringify(plan.reasons));
  });
});

test('requests <= limits, no limit added, nothing removed, whole non-negative numbers', () => {
  check((input) => {
    for (const c of planPodResources(input).containers) {
      for (const r of RESOURCE_NAMES) {
        const { requests, limits } = c.proposed;
        for (const v of [requests[r], limits[r]]) {
          if (v !== undefined) assert.ok(Number.isSafeInteger(v) && v >= 0, `${c.containerName} ${r}: ${v}`);
        }
        if (requests[r] !== undefined && limits[r] !== undefined) assert.ok(requests[r]! <= limits[r]!, `${c.containerName} ${r} request > limit`);
        assert.equal(limits[r] !== undefined, c.current.limits[r] !== undefined, `${c.containerName} ${r}: a limit was added or removed`);
        if (c.current.requests[r] !== undefined) assert.notEqual(requests[r], undefined, `${c.containerName} ${r}: request removed`);
      }
    }
  });
});

test('requests follow the target within min/maxAllowed where no LimitRange, limit or QoS rule overrides them', () => {
  check((input) => {
    const plan = planPodResources(input);
    if (plan.qosClass === 'BestEffort' || plan.reasons.length > 0) return;
    for (const c of plan.containers) {
      const policy =
        input.resourcePolicy?.containerPolicies?.find((p) => p.containerName === c.containerName) ??
        input.resourcePolicy?.containerPolicies?.find((p) => p.containerName === '*');
      if (policy?.mode === 'Off' || c.reasons.some((x) => x.code === 'BurstableKept')) continue;
      const t = input.recommendations.find((x) => x.containerName === c.containerName)!.target;
      for (const r of policy?.controlledResources ?? RESOURCE_NAMES) {
        if (c.reasons.some((x) => x.code === 'MemoryLimitKept' && x.resource === r)) continue; // safety first
        const value = t[r]!;
        if (!Number.isFinite(value) || value < 0) continue;
        const requestsOnly = policy?.controlledValues === 'RequestsOnly';
        if (requestsOnly && c.current.limits[r] !== undefined) continue; // the fixed limit caps the request
        const min = policy?.minAllowed?.[r];
        const max = policy?.maxAllowed?.[r];
        let expected = Math.max(roundUp(r, value), MINIMUM_REQUEST[r]);
        if (min !== undefined) expected = Math.max(expected, readResourceValues({ requests: { [r]: min } }).requests[r]!);
        if (max !== undefined) expected = Math.min(expected, readResourceValues({ requests: { [r]: max } }).requests[r]!);
        assert.equal(c.proposed.requests[r], expected, `${c.containerName} ${r}`);
      }
    }
  }, 'none');
});

test('changed values under RequestsAndLimits respect the LimitRange', () => {
  check((input) => {
    const lr = input.limitRanges?.[0]?.spec?.limits[0];
    if (!lr) return;
    for (const c of planPodResources(input).containers) {
      const policy =
        input.resourcePolicy?.containerPolicies?.find((p) => p.containerName === c.containerName) ??
        input.resourcePolicy?.containerPolicies?.find((p) => p.containerName === '*');
      if (policy?.controlledValues === 'RequestsOnly') continue;
      for (const r of c.changedResources) {
        const read = (q: string | undefined) => (q === undefined ? undefined : readResourceValues({ requests: { [r]: q } }).requests[r]);
        const min = read(lr.min?.[r]);
        const max = read(lr.max?.[r]);
        const request = c.proposed.requests[r]!;
        const limit = c.proposed.limits[r];
        if (min !== undefined) assert.ok(request >= min, `${r} request ${request} < LimitRange min ${min}`);
        if (max !== undefined) assert.ok(request <= max && (limit === undefined || limit <= max), `${r} above LimitRange max ${max}`);
        const ratio = lr.maxLimitRequestRatio?.[r];
        if (ratio !== undefined && limit !== undefined)
          assert.ok(limit * 1000 <= request * Number.parseInt(ratio, 10), `${r} ratio ${limit}/${request} > ${ratio}`);
      }
    }
  });
});

test('RequestsAndLimits keeps at least the original limit-to-request ratio when nothing caps the limit', () => {
  check((input) => {
    for (const c of planPodResources(input).containers) {
      for (const r of c.changedResources) {
        const [oldRequest, oldLimit, request, limit] = [c.current.requests[r], c.current.limits[r], c.proposed.requests[r], c.proposed.limits[r]];
        if (oldRequest === undefined || oldLimit === undefined || request === undefined || limit === undefined || limit === oldLimit) continue;
        // newLimit = ceil(oldLimit x newRequest / oldRequest) (memory up to whole MiB): never below the exact ratio.
        assert.ok(BigInt(limit) * BigInt(oldRequest) >= BigInt(oldLimit) * BigInt(request), `${r}: ${oldRequest}/${oldLimit} -> ${request}/${limit}`);
      }
    }
  }, 'none');
});

test('planning again from the result changes nothing (no flapping)', () => {
  check((input) => {
    // Scaled into a Pod LimitRange, a second plan may still move: its scale is computed from the
    // planned sums, which move with rounding leftovers and with memory floors that follow the
    // current limit (pod-limit-range.ts); not checked here.
    if (input.limitRanges?.[0]?.spec?.limits[1]) return;
    const first = planPodResources(input);
    const containers = (input.pod.spec?.containers ?? []).map((c, i) => ({ ...c, resources: applyPlanToRequirements(c.resources, first.containers[i]!) }));
    const again = planPodResources({ ...input, pod: { ...input.pod, spec: { ...input.pod.spec, containers } } });
    assert.deepEqual(
      again.containers.map((c) => c.proposed),
      first.containers.map((c) => c.proposed),
    );
  });
});

test('the pod totals stay within a Pod LimitRange that the current pod meets', () => {
  check((input) => {
    const podItem = input.limitRanges?.[0]?.spec?.limits[1];
    if (!podItem) return;
    const plan = planPodResources(input);
    const init = (input.pod.spec?.initContainers ?? []).map((c) => readResourceValues(c.resources));
    for (const r of RESOURCE_NAMES) {
      const read = (q: string | undefined) => (q === undefined ? undefined : readResourceValues({ requests: { [r]: q } }).requests[r]);
      const [min, max] = [read(podItem.min?.[r]), read(podItem.max?.[r])];
      const totals = (which: 'current' | 'proposed') => {
        const sum = (side: 'requests' | 'limits') => {
          const values = [...plan.containers.map((c) => c[which][side][r]), ...init.map((v) => v[side][r])].filter((v): v is number => v !== undefined);
          if (values.length === 0) return undefined;
          const containers = plan.containers.map((c) => c[which][side][r] ?? 0).reduce((a, b) => a + b, 0);
          return Math.max(containers, ...init.map((v) => v[side][r] ?? 0));
        };
        return { requests: sum('requests'), limits: sum('limits') };
      };
      // As the LimitRanger: requests and limits both within [min, max] (a side with no value at all is not checked).
      const within = (v: number | undefined) => v === undefined || ((max === undefined || v <= max) && (min === undefined || v >= min));
      const meets = (t: { requests: number | undefined; limits: number | undefined }) => within(t.requests) && within(t.limits);
      if (meets(totals('current'))) assert.ok(meets(totals('proposed')), `${r}: ${JSON.stringify(totals('proposed'))} outside [${min}, ${max}]`);
    }
  }, 'only');
});

test('at creation, without other bounds, a pod is brought within a Pod LimitRange or the plan says it cannot be', () => {
  // A min or a max per resource: with both, close together, one factor for requests and limits
  // may not exist once containers without limits or rounding are involved.
  const podOnly = fc
    .record({ cpu: fc.option(amount('cpu'), { nil: undefined }), memory: fc.option(amount('memory'), { nil: undefined }), isMin: fc.boolean() })
    .filter((b) => b.cpu !== undefined || b.memory !== undefined)
    .map((b): V1LimitRange[] => {
      const values: Record<string, string> = {};
      for (const r of RESOURCE_NAMES) if (b[r] !== undefined) values[r] = format(r, b[r]);
      return [{ spec: { limits: [{ type: 'Pod', ...(b.isMin ? { min: values } : { max: values }) }] } }];
    });
  fc.assert(
    fc.property(scenarioWith(podOnly), (generated) => {
      // Only the Pod item: no policies, no memory floors, valid targets of 20 steps (20m, 20Mi) or more.
      const input: PodResourcesInput = { ...generated, resourcePolicy: undefined, memoryLimitRules: undefined, atCreation: true };
      input.recommendations = generated.recommendations.map((rec) => ({
        containerName: rec.containerName,
        target: Object.fromEntries(Object.entries(rec.target).filter(([r, v]) => Number.isFinite(v) && v >= 20 * (r === 'cpu' ? 1 : MiB))),
      }));
      const plan = planPodResources(input);
      if (plan.qosClass === 'BestEffort' || plan.reasons.some((r) => /cannot|QoS|left unchanged/.test(r.message))) return;
      // Tiny values (a few millicores or MiB) are dominated by the 1m / 1 MiB minimum and rounding.
      const tiny = plan.containers.some((c) =>
        RESOURCE_NAMES.some((r) =>
          [c.current.requests[r], c.current.limits[r], c.proposed.requests[r]].some((v) => v !== undefined && v < 20 * (r === 'cpu' ? 1 : MiB)),
        ),
      );
      if (tiny) return;
      const item = input.limitRanges![0]!.spec!.limits[0]!;
      const init = (input.pod.spec?.initContainers ?? []).map((c) => readResourceValues(c.resources));
      for (const r of RESOURCE_NAMES) {
        const read = (q: string | undefined) => (q === undefined ? undefined : readResourceValues({ requests: { [r]: q } }).requests[r]);
        const [min, max] = [read(item.min?.[r]), read(item.max?.[r])];
        if (min === undefined && max === undefined) continue;
        // Rounding leaves a step per container (1m / 1 MiB), and planned limits rounded up to whole
        // MiB can differ by a step from those planned again from the scaled requests.
        const slack = plan.containers.length * (r === 'cpu' ? 1 : MiB) + Math.ceil(Math.max(min ?? 0, max ?? 0) / 100);
        for (const side of ['requests', 'limits'] as const) {
          const values = plan.containers.map((c) => c.proposed[side][r]).filter((v): v is number => v !== undefined);
          if (values.length === 0) continue;
          const total = Math.max(
            values.reduce((a, b) => a + b, 0),
            ...init.map((v) => v[side][r] ?? 0),
          );
          if (init.some((v) => (v[side][r] ?? 0) === total && total !== values.reduce((a, b) => a + b, 0))) continue; // an init container decides
          if (max !== undefined) assert.ok(total <= max + slack, `${r} ${side} ${total} > max ${max}: ${JSON.stringify(plan.reasons)}`);
          if (min !== undefined) assert.ok(total >= min - slack, `${r} ${side} ${total} < min ${min}: ${JSON.stringify(plan.reasons)}`);
        }
      }
    }),
    { numRuns: RUNS },
  );
});

test('a Burstable pod one request away from Guaranteed stays Burstable, whatever the targets', () => {
  const nearlyGuaranteed = fc
    .record({
      containers: fc.tuple(...NAMES.map((n) => fc.tuple(amount('cpu'), amount('memory')).map(([cpu, memory]) => ({ n, cpu, memory })))),
      count: fc.integer({ min: 1, max: 3 }),
      resource: fc.constantFrom<ResourceName>('cpu', 'memory'),
      gap: fc.integer({ min: 1, max: 4 }),
      controlledValues: fc.constantFrom('RequestsAndLimits', 'RequestsOnly') as fc.Arbitrary<'RequestsAndLimits' | 'RequestsOnly'>,
      targets: fc.tuple(...NAMES.map(() => fc.record({ cpu: target('cpu'), memory: target('memory') }))),
      limitRanges,
    })
    .map((s): PodResourcesInput => {
      const containers: V1Container[] = s.containers.slice(0, s.count).map(({ n, cpu, memory }, i) => {
        const limits = { cpu: formatCpu(cpu * 4), memory: formatMemory(memory * 4) };
        const requests = { ...limits };
        // The first container's request is below its limit by `gap` quarters: the pod is Burstable.
        if (i === 0) requests[s.resource] = format(s.resource, (s.resource === 'cpu' ? cpu : memory) * (4 - s.gap));
        return { name: n, resources: { requests, limits } };
      });
      const input: PodResourcesInput = {
        pod: { spec: { containers } },
        resourcePolicy: { containerPolicies: [{ containerName: '*', controlledValues: s.controlledValues }] },
        recommendations: containers.map((c, i) => ({ containerName: c.name, target: s.targets[i]! })),
      };
      if (s.limitRanges) input.limitRanges = s.limitRanges;
      return input;
    });
  fc.assert(
    fc.property(nearlyGuaranteed, (input) => {
      const plan = planPodResources(input);
      assert.equal(plan.qosClass, 'Burstable');
      assert.equal(qosClassOf(plan.containers.map((c) => c.proposed)), 'Burstable');
      assert.ok(!plan.reasons.some((r) => r.code === 'QosWouldChange'));
    }),
    { numRuns: RUNS },
  );
});

test('a BestEffort pod is never changed', () => {
  const bestEffort = fc.tuple(
    fc.integer({ min: 1, max: 3 }),
    fc.tuple(...NAMES.map(() => fc.record({ cpu: target('cpu'), memory: target('memory') }))),
    limitRanges,
  );
  fc.assert(
    fc.property(bestEffort, ([count, targets, lr]) => {
      const names = NAMES.slice(0, count);
      const input: PodResourcesInput = {
        pod: { spec: { containers: names.map((name) => ({ name })) } },
        recommendations: names.map((n, i) => ({ containerName: n, target: targets[i]! })),
      };
      if (lr) input.limitRanges = lr;
      const plan = planPodResources(input);
      assert.equal(plan.qosClass, 'BestEffort');
      assert.equal(plan.changed, false);
    }),
    { numRuns: RUNS },
  );
});

test('memory limits never go below min(current limit, floor), nor below the current one where they may not decrease', () => {
  check((input) => {
    if (!input.memoryLimitRules) return;
    for (const c of planPodResources(input).containers) {
      const rules = input.memoryLimitRules[c.containerName];
      const [before, after] = [c.current.limits.memory, c.proposed.limits.memory];
      if (!rules || before === undefined || after === undefined) continue;
      if (rules.floor !== undefined) assert.ok(after >= Math.min(before, rules.floor), `limit ${after} below min(${before}, floor ${rules.floor})`);
      if (rules.mayDecrease === false) assert.ok(after >= before, `limit lowered from ${before} to ${after}`);
    }
  });
});

test('requestsForBestEffort: a BestEffort pod ends Burstable with requests only, or unchanged', () => {
  const bestEffort = fc.tuple(
    fc.integer({ min: 1, max: 3 }),
    fc.tuple(...NAMES.map(() => fc.record({ cpu: target('cpu'), memory: target('memory') }))),
    limitRanges,
  );
  fc.assert(
    fc.property(bestEffort, ([count, targets, lr]) => {
      const names = NAMES.slice(0, count);
      const input: PodResourcesInput = {
        pod: { spec: { containers: names.map((name) => ({ name })) } },
        recommendations: names.map((n, i) => ({ containerName: n, target: targets[i]! })),
        requestsForBestEffort: true,
      };
      if (lr) input.limitRanges = lr;
      const plan = planPodResources(input);
      assert.equal(qosClassOf(plan.containers.map((c) => c.proposed)), plan.changed ? 'Burstable' : 'BestEffort');
      for (const c of plan.containers) assert.deepEqual(c.proposed.limits, {});
    }),
    { numRuns: RUNS },
  );
});
