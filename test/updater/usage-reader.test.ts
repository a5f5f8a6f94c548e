import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MemoryUsageSource } from '../../src/metrics/memory-usage-source.ts';
import { PrometheusUnreachableError } from '../../src/metrics/metrics-errors.ts';
import { updaterOptions } from '../../src/policy/update-thresholds.ts';
import { podUsageFrom, readUsage, usageWindows } from '../../src/updater/usage-reader.ts';

const MiB = 1024 * 1024;
const key = (pod: string, container: string) => ({ namespace: 'shop', pod, container });

test('the answer becomes usage per pod and container; a sustained value covers the pressure window', () => {
  const usage = podUsageFrom(
    [
      { key: key('web-1', 'app'), peakBytes: 800 * MiB, sustainedBytes: 950 * MiB },
      { key: key('web-1', 'side'), peakBytes: 20 * MiB },
      { key: key('web-2', 'app') },
    ],
    120_000,
  );
  assert.deepEqual(Object.fromEntries(usage), {
    'shop/web-1': { app: { memoryPeakBytes: 800 * MiB, memoryWorkingSetMinBytes: 950 * MiB, memoryWindowMs: 120_000 }, side: { memoryPeakBytes: 20 * MiB } },
    'shop/web-2': { app: {} },
  });
});

test('the windows come from the options: peak over 1h, pressure over 2 min, a sample within 1 min before it', () => {
  assert.deepEqual(usageWindows(updaterOptions()), { peakWindowMs: 3600_000, pressureWindowMs: 120_000, coverageMs: 60_000 });
});

test('one read per loop for all namespaces; a failure or no source gives no usage (fail safe)', async () => {
  const asked: string[][] = [];
  const ok: MemoryUsageSource = { memoryUsage: async (ns) => (asked.push([...ns]), [{ key: key('web-1', 'app'), peakBytes: MiB }]) };
  const read = await readUsage(ok, ['shop', 'batch'], 0, updaterOptions());
  assert.deepEqual(asked, [['shop', 'batch']]);
  assert.equal(read.available, true);
  assert.equal(read.usage.get('shop/web-1')?.app?.memoryPeakBytes, MiB);

  const error = new PrometheusUnreachableError('connect ECONNREFUSED', 'q');
  const down: MemoryUsageSource = {
    memoryUsage: async () => {
      throw error;
    },
  };
  assert.deepEqual(await readUsage(down, ['shop'], 0, updaterOptions()), { available: false, usage: new Map(), error });
  assert.deepEqual(await readUsage(undefined, ['shop'], 0, updaterOptions()), { available: false, usage: new Map() });
  assert.deepEqual(await readUsage(down, [], 0, updaterOptions()), { available: true, usage: new Map() }, 'nothing to ask');
});
