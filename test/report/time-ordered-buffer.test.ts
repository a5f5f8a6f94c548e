import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceEstimate, Strategy, UsageModel } from '../../src/model/types.ts';
import { OwnerIndex } from '../../src/metrics/owner-resolution.ts';
import { TimeOrderedBuffer } from '../../src/report/time-ordered-buffer.ts';
import { WorkloadUsage } from '../../src/report/workload-usage.ts';

/** A model that records what it was fed, in order. */
class Recorder implements UsageModel {
  readonly seen: string[] = [];
  addCpuSample(cores: number, at: number, pod?: string): void {
    this.seen.push(`${at} cpu ${pod} ${cores}`);
  }
  addMemorySample(bytes: number, at: number, pod?: string): void {
    this.seen.push(`${at} mem ${pod} ${bytes}`);
  }
  recordOom(bytes: number, at: number, pod?: string): void {
    this.seen.push(`${at} oom ${pod} ${bytes}`);
  }
  estimate(): ResourceEstimate | undefined {
    return undefined;
  }
}

function feed(timeOrdered: boolean): string[] {
  const models: Recorder[] = [];
  const strategy: Strategy = { name: 'rec', description: '', newModel: () => (models.push(new Recorder()), models.at(-1)!), timeOrdered };
  const owners = new OwnerIndex([
    { namespace: 'shop', kind: 'Pod', name: 'web-1', ownerKind: 'Deployment', ownerName: 'web' },
    { namespace: 'shop', kind: 'Pod', name: 'web-2', ownerKind: 'Deployment', ownerName: 'web' },
  ]);
  const usage = new WorkloadUsage(strategy, owners);
  const key = (pod: string) => ({ namespace: 'shop', pod, container: 'app' });
  // One chunk as the feed delivers it: pod 1's series whole, then pod 2's; memory; an OOM.
  usage.cpu({ key: key('web-1'), times: [60, 120], values: [1, 2] });
  usage.cpu({ key: key('web-2'), times: [60, 120], values: [3, 4] });
  usage.memory({ key: key('web-1'), times: [60, 120], values: [100, 200] });
  usage.oom({ key: key('web-2'), at: 60, count: 1 });
  usage.endChunk();
  assert.equal(models.length, 1, 'both pods feed one workload model');
  return models[0]!.seen;
}

test('a time-ordered strategy gets one chunk merged across pods: time, then CPU, memory, OOM', () => {
  // The OOM is sized as the largest peak seen (200).
  assert.deepEqual(feed(true), [
    '60 cpu web-1 1',
    '60 cpu web-2 3',
    '60 mem web-1 100',
    '60 oom web-2 200',
    '120 cpu web-1 2',
    '120 cpu web-2 4',
    '120 mem web-1 200',
  ]);
});

test('other strategies get the series as delivered', () => {
  assert.deepEqual(feed(false), [
    '60 cpu web-1 1',
    '120 cpu web-1 2',
    '60 cpu web-2 3',
    '120 cpu web-2 4',
    '60 mem web-1 100',
    '120 mem web-1 200',
    '60 oom web-2 200',
  ]);
});

test('the merge equals a stable sort by (time, kind) of everything buffered, over random chunks', () => {
  // The reference is the buffer's former rule: one entry per sample, sorted by time then kind,
  // ties in the order they were buffered. Series may be out of order, overlap, repeat times.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 200; round++) {
    const buffer = new TimeOrderedBuffer();
    const model = new Recorder();
    const expected: Array<{ at: number; kind: number; line: string }> = [];
    const runs = 1 + Math.floor(random() * 12);
    for (let r = 0; r < runs; r++) {
      const kind = Math.floor(random() * 3);
      const pod = `p${Math.floor(random() * 4)}`;
      if (kind === 2) {
        const at = 60 * Math.floor(random() * 10);
        buffer.oom(model, r, at, pod);
        expected.push({ at, kind, line: `${at} oom ${pod} ${r}` });
        continue;
      }
      const n = Math.floor(random() * 8);
      const times = Array.from({ length: n }, () => 60 * Math.floor(random() * 10));
      if (random() < 0.7) times.sort((a, b) => a - b);
      const values = times.map((_, i) => r * 100 + i);
      const series = { key: { namespace: 'shop', pod, container: 'app' }, times, values };
      if (kind === 0) buffer.cpu(model, series);
      else buffer.memory(model, series);
      // A series out of order is taken in time order (stable within the series).
      const order = times.map((_, i) => i).sort((a, b) => times[a]! - times[b]!);
      for (const i of order) expected.push({ at: times[i]!, kind, line: `${times[i]} ${kind === 0 ? 'cpu' : 'mem'} ${pod} ${values[i]}` });
    }
    buffer.flush();
    const want = expected
      .map((e, i) => ({ ...e, i }))
      .sort((a, b) => a.at - b.at || a.kind - b.kind || a.i - b.i)
      .map((e) => e.line);
    assert.deepEqual(model.seen, want, `round ${round}`);
  }
});
