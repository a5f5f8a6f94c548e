/**
 * Properties of plan() on generated workloads: the global resize and eviction budgets are never
 * exceeded, no workload gets more disruptions than its budget or any below minReplicas, a workload
 * waiting for its canary gets at most one non-urgent action, and actions come before waits and skips.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { UpdateMode } from '../../src/api/vpa.ts';
import { isAction } from '../../src/updater/decision.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { plan, type WorkloadGroup } from '../../src/updater/updater-plan.ts';
import { workloadBudget } from '../../src/updater/workload-budget.ts';
import { container, pod, resizeInProgress } from '../builders/pods.ts';
import { HOUR, MINUTE } from '../builders/time.ts';
import { vpa } from '../builders/vpas.ts';
import { context } from './planner-fixtures.ts';

const podArb = fc.record({
  cpu: fc.integer({ min: 50, max: 2000 }),
  restartCpu: fc.boolean(),
  oom: fc.boolean(),
  resizing: fc.boolean(),
  running: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
});

const groupArb = fc.record({
  pods: fc.array(podArb, { minLength: 1, maxLength: 5 }),
  mode: fc.constantFrom<UpdateMode>('Recreate', 'InPlaceOrRecreate', 'InPlace'),
  minReplicas: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  allowRestart: fc.boolean(),
});

const options = updaterOptions();

test('plan() keeps every budget, minReplicas and the canary', () => {
  fc.assert(
    fc.property(
      fc.array(groupArb, { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 0, max: 4 }),
      (specs, resizes, evictions) => {
        const groups: WorkloadGroup[] = specs.map((g, gi) => {
          const pods = g.pods.map((p, pi) =>
            pod({
              name: `w${gi}-${pi}`,
              namespace: `ns${gi}`,
              phase: p.running ? 'Running' : 'Pending',
              startedAgo: HOUR,
              containers: [
                container('app', {
                  requests: { cpu: `${p.cpu}m`, memory: '256Mi' },
                  limits: { memory: '512Mi' },
                  ...(p.restartCpu ? { resizePolicy: { cpu: 'RestartContainer' } } : {}),
                  ...(p.oom ? { oomKilledAgo: MINUTE } : {}),
                }),
              ],
              ...(p.resizing ? { conditions: [resizeInProgress(MINUTE)] } : {}),
            }),
          );
          const v = vpa({
            mode: g.mode,
            ...(g.minReplicas !== undefined ? { minReplicas: g.minReplicas } : {}),
            ...(g.allowRestart ? { annotations: { 'tailor.dev/allow-container-restart': 'true' } } : {}),
            recommend: { app: { target: { cpu: '400m', memory: '256Mi' }, lower: { cpu: '300m' }, upper: { cpu: '600m' } } },
          });
          return { workload: `Deployment/ns${gi}/web`, vpa: v, pods };
        });
        const decisions = plan({ ...context(), groups, budget: { resizes, evictions } });

        const actions = decisions.filter(isAction);
        assert.ok(actions.filter((d) => d.action === 'Evict').length <= evictions, 'eviction budget exceeded');
        assert.ok(actions.filter((d) => d.action !== 'Evict').length <= resizes, 'resize budget exceeded');
        const firstNonAction = decisions.findIndex((d) => !isAction(d));
        if (firstNonAction >= 0)
          assert.ok(
            decisions.slice(firstNonAction).every((d) => !isAction(d)),
            'actions come first',
          );

        for (const g of groups) {
          const mine = actions.filter((d) => d.workload === g.workload);
          const budget = workloadBudget(g.pods, g.vpa, options);
          const disruptive = mine.filter((d) => d.disruptive);
          assert.ok(disruptive.length <= budget.disruptions, `${g.workload}: ${disruptive.length} disruptions > budget ${budget.disruptions}`);
          if (budget.live < budget.minReplicas) assert.equal(disruptive.length, 0, 'disruption below minReplicas');
          for (const d of mine) if (d.action === 'Evict' && g.vpa.spec.updatePolicy?.updateMode === 'InPlace') assert.fail('InPlace evicted');
          // Canary: no pod was changed by the updater before, so one has settled only if it needs nothing.
          const all = decisions.filter((d) => d.workload === g.workload);
          const settled = all.some(
            (d) =>
              d.action === 'Skip' &&
              (d.reason === 'WithinBounds' || d.reason === 'UpToDate') &&
              g.pods.find((p) => p.metadata!.name === d.podName)!.status!.conditions!.length === 0,
          );
          const inFlight = all.some((d) => d.reason === 'ResizeInProgress');
          if (!settled && budget.live > 1) {
            const calm = mine.filter((d) => !d.urgent);
            assert.ok(calm.length <= (inFlight ? 0 : 1), `${g.workload}: ${calm.length} non-urgent actions before the canary settled`);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});
