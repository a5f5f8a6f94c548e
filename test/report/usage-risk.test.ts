import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageRisk } from '../../src/report/usage-risk.ts';

const MiB = 2 ** 20;
const DAY = 86_400_000;

/** The exact shortfall, sum(max(u - target, 0)) / sum(u) x 100, for comparison. */
function exactShortfall(millicores: number[], target: number): number {
  const used = millicores.reduce((a, b) => a + b, 0);
  return (millicores.reduce((a, u) => a + Math.max(u - target, 0), 0) / used) * 100;
}

test('the worked number: 100m, 100m, 300m against a 200m target is a 20% shortfall', () => {
  const risk = new UsageRisk();
  for (const cores of [0.1, 0.1, 0.3]) risk.addCpu(cores);
  const { cpuShortfallPct } = risk.against({ cpu: 200 });
  assert.ok(cpuShortfallPct !== null && Math.abs(cpuShortfallPct - 20) < 1e-9, `got ${cpuShortfallPct}`);
  assert.equal(risk.against({ cpu: 300 * 1.05 }).cpuShortfallPct, 0, 'a target above every sample has no shortfall');
});

test('the histogram stays within 2.5% of the exact shortfall on a skewed, spiky series (only the bucket holding the target is approximate)', () => {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const samples = Array.from({ length: 20_000 }, () => (random() < 0.05 ? 800 + 400 * random() : 50 + 150 * random()));
  const risk = new UsageRisk();
  for (const m of samples) risk.addCpu(m / 1000);
  for (const target of [100, 180, 250, 600, 900]) {
    const exact = exactShortfall(samples, target);
    const sketched = risk.against({ cpu: target }).cpuShortfallPct!;
    assert.ok(Math.abs(sketched - exact) <= Math.max(0.025 * exact, 0.05), `target ${target}m: ${sketched.toFixed(3)}% vs exact ${exact.toFixed(3)}%`);
  }
});

test('memory counts the UTC days whose peak is above the target, across pods', () => {
  const risk = new UsageRisk();
  risk.addMemory(100 * MiB, 0.5 * DAY); // day 0, pod a
  risk.addMemory(300 * MiB, 0.9 * DAY); // day 0, pod b: the day's peak
  risk.addMemory(150 * MiB, 1.2 * DAY); // day 1
  risk.addMemory(120 * MiB, 2.1 * DAY); // day 2
  assert.deepEqual(risk.against({ memory: 200 * MiB }), { cpuShortfallPct: null, memoryDays: 3, memoryDaysOverTarget: 1 });
  assert.equal(risk.against({ memory: 140 * MiB }).memoryDaysOverTarget, 2);
  assert.equal(risk.against({}).memoryDaysOverTarget, null, 'no target, no verdict');
});

test('no usage, or samples that are not numbers, give no CPU figure rather than a made-up one', () => {
  const risk = new UsageRisk();
  risk.addCpu(Number.NaN);
  risk.addMemory(Number.NaN, 0);
  assert.deepEqual(risk.against({ cpu: 100, memory: MiB }), { cpuShortfallPct: null, memoryDays: 0, memoryDaysOverTarget: 0 });
  risk.addCpu(0);
  assert.equal(risk.against({ cpu: 100 }).cpuShortfallPct, null, 'zero usage has no share to fall short of');
});
