/**
 * The watch recorder against kube-sim's API server: objects there before it starts are recorded as
 * ADDED by its list, later changes by its watch, each line stamped with the injected clock, and the
 * record reads back split by resource.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { podManifest, startSim } from 'kube-sim/test/apiserver/sim-fixture';
import { vpa } from '../builders/vpas.ts';
import { readRecord, recordWatches } from './watch-recorder.ts';

const dir = mkdtempSync(join(tmpdir(), 'chaos-watch-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Waits until the record holds what `done` asks for (read again as lines arrive). */
async function until(file: string, done: (r: ReturnType<typeof readRecord>) => boolean): Promise<ReturnType<typeof readRecord>> {
  for (let i = 0; i < 600; i++) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // not written yet
    }
    const r = readRecord(text);
    if (done(r)) return r;
    await sleep(50);
  }
  throw new Error(`the record never got there: ${readFileSync(file, 'utf8').slice(0, 2000)}`);
}

test('a pod there before (listed), a VPA and a deletion after (watched), stamped with the injected clock', async () => {
  const sim = await startSim();
  const file = join(dir, 'watch.jsonl');
  await sim.core.createNamespacedPod({ namespace: 'default', body: podManifest('before') });
  let clock = 1000;
  const recorder = recordWatches(sim.kc, file, () => clock);
  try {
    await until(file, (r) => r.pods.some((p) => p.object.metadata?.name === 'before'));
    clock = 2000;
    const body = { ...vpa(), metadata: { name: 'web', namespace: 'default' } };
    await sim.custom.createNamespacedCustomObject({ group: 'autoscaling.k8s.io', version: 'v1', namespace: 'default', plural: 'verticalpodautoscalers', body });
    await sim.core.deleteNamespacedPod({ namespace: 'default', name: 'before', gracePeriodSeconds: 0 });
    const r = await until(file, (x) => x.vpas.length > 0 && x.pods.some((p) => p.type === 'DELETED'));
    assert.equal(r.unreadable, 0);
    assert.equal(r.pods[0]!.at, 1000);
    assert.deepEqual(
      r.vpas.map((v) => [v.type, v.object.metadata?.name, v.at]),
      [['ADDED', 'web', 2000]],
    );
    assert.equal(r.pods.at(-1)!.type, 'DELETED');
    assert.equal(r.pods.at(-1)!.at, 2000);
  } finally {
    recorder.stop();
    await sim.close();
  }
});
