/**
 * What `tailor run`'s recommender says in its log (issue 28 item 10), on kube-sim with a synthetic
 * usage source: one line per VPA whose recommendation was made or changed, naming the VPA and each
 * container's cpu and memory from and to; a malformed VPA named once, not every cycle; the routine
 * sync not at info; and at a graceful shutdown, how many checkpoints were written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { resolveRunConfig } from '../../../src/controller/run-config.ts';
import { createRecommenderComponent } from '../../../src/controller/recommender-component.ts';
import { ControllerMetrics, createRegistry } from '../../../src/controller/controller-metrics.ts';
import { createLogger } from '../../../src/observability/logger.ts';
import type { KubeObject } from 'kube-sim/apiserver';
import { SyntheticSource } from '../../support/synthetic-source.ts';
import { offVpa, startRecommenderSim, VPA_API } from '../../support/recommender-sim.ts';

test(
  'the run log says which VPA got which recommendation, names a malformed VPA once, and counts the checkpoints written at shutdown',
  { timeout: 60_000 },
  async (t) => {
    const { sim, kc, custom } = await startRecommenderSim(t, [{ name: 'web', replicas: 2, cpu: '500m', memory: '256Mi' }]);
    await custom.createNamespacedCustomObject({ ...VPA_API, namespace: 'default', body: offVpa('web') });
    // Stored as an older CRD without a schema would have kept it (the schema refuses the mode).
    sim.server.store.create('verticalpodautoscalers.autoscaling.k8s.io', {
      ...offVpa('bad', 'web'),
      metadata: { name: 'bad', namespace: 'default' },
      spec: { ...offVpa('bad', 'web').spec, updatePolicy: { updateMode: 'Sometimes' } },
    } as unknown as KubeObject);

    const lines: Array<{ level: number; msg: string; vpa?: string; time: string }> = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as { level: number; msg: string; vpa?: string; time: string });
          done();
        },
      }),
    });
    // Upstream's model: its memory target follows a higher peak at once.
    const { config } = resolveRunConfig(
      { components: 'recommender', prometheusUrl: 'http://127.0.0.1:9', history: '10m', historyStep: '1s', recommenderStrategy: 'vpa', logLevel: 'silent' },
      {},
    );
    const metrics = new ControllerMetrics(createRegistry({ defaultMetrics: false }));
    const source = new SyntheticSource(sim.server, { cpuCores: 0.3, memoryBytes: 200_000_000 });
    const loop = createRecommenderComponent({ config, logger, kubeConfig: kc, metrics, clock: Date.now }, { source });
    let stopped = false;
    t.after(async () => {
      if (!stopped) await loop.deactivate();
    });
    await loop.activate();
    const signal = new AbortController().signal;
    for (let cycle = 1; cycle <= 3; cycle++) await loop.runCycle({ now: Date.now(), cycle, signal });

    const made = lines.filter((l) => l.msg.startsWith('recommendation made for default/web'));
    assert.equal(made.length, 1, lines.map((l) => l.msg).join('\n'));
    // Memory is rounded up to 1Mi by default, so the line reads in MiB.
    assert.match(made[0]!.msg, /^recommendation made for default\/web: app cpu \d+m, memory \d+Mi$/);
    assert.equal(made[0]!.vpa, 'default/web');
    assert.match(made[0]!.time, /^\d{4}-\d\d-\d\dT/);
    const bad = lines.filter((l) => l.vpa === 'default/bad' && l.level === 40);
    assert.equal(bad.length, 1, 'three cycles, one warning');
    assert.match(bad[0]!.msg, /^VPA default\/bad is malformed; its recommendation is kept, not renewed: .*spec\.updatePolicy\.updateMode/);
    assert.ok(!lines.some((l) => l.msg === 'usage sync done'), 'the routine sync is a debug line');

    // The usage doubles: the change is said with from and to.
    source.usage.memoryBytes = 400_000_000;
    const before = lines.length;
    // Each cycle reads the steps (1 s) finished since the last one: a short wait lets new ones finish.
    for (let cycle = 4; cycle <= 10 && !lines.slice(before).some((l) => l.msg.startsWith('recommendation changed for default/web')); cycle++) {
      await new Promise((r) => setTimeout(r, 1100));
      await loop.runCycle({ now: Date.now(), cycle, signal });
    }
    const changed = lines.slice(before).find((l) => l.msg.startsWith('recommendation changed for default/web'));
    assert.ok(
      changed,
      lines
        .slice(before)
        .map((l) => l.msg)
        .join('\n'),
    );
    assert.match(changed.msg, /app (cpu \d+m→\d+m, )?memory \d+Mi→\d+Mi/);

    stopped = true;
    await loop.deactivate('shutdown');
    const shutdown = lines.find((l) => l.msg.startsWith('checkpoints written at shutdown'));
    assert.equal(shutdown?.msg, 'checkpoints written at shutdown: 1', 'one VPA x container with samples');
  },
);
