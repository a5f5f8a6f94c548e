// Runtime-aware memory in the planner: the JVM floor, start-sized runtimes left alone in place and
// recreated instead, the override annotation, urgent raises still in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1EnvVar, V1Pod } from '@kubernetes/client-node';
import { container, pod } from '../builders/pods.ts';
import { vpa } from '../builders/vpas.ts';
import { MiB, MINUTE } from '../builders/time.ts';
import { decide } from './planner-fixtures.ts';

function app(opts: { image: string; env?: V1EnvVar[]; memoryPolicy?: 'NotRequired' | 'RestartContainer'; cpu?: string; oomKilledAgo?: number }): V1Pod {
  const p = pod({
    containers: [
      container('app', {
        requests: { cpu: opts.cpu ?? '500m', memory: '3Gi' },
        limits: { memory: '4Gi' },
        ...(opts.memoryPolicy ? { resizePolicy: { memory: opts.memoryPolicy } } : {}),
        ...(opts.oomKilledAgo !== undefined ? { oomKilledAgo: opts.oomKilledAgo } : {}),
      }),
    ],
  });
  const c = p.spec!.containers[0]!;
  c.image = opts.image;
  if (opts.env) c.env = opts.env;
  return p;
}

/** Memory far lower (outside the bounds); cpu as the pod has it. */
const lower = (mode: 'InPlace' | 'InPlaceOrRecreate', annotations: Record<string, string> = {}, cpu = '500m') =>
  vpa({ mode, annotations, recommend: { app: { target: { cpu, memory: '1Gi' }, lower: { cpu, memory: '900Mi' }, upper: { cpu, memory: '1200Mi' } } } });
const usage = { app: { memoryPeakBytes: 1000 * MiB } };
const RESTART_OK = { 'tailor.dev/allow-container-restart': 'true' };

test('a JVM with -Xmx2g (JAVA_TOOL_OPTIONS): its memory limit never goes below heap + overhead (2Gi + 512Mi)', () => {
  const p = app({
    image: 'registry.example/shop/api:1.4',
    env: [{ name: 'JAVA_TOOL_OPTIONS', value: '-XX:+UseG1GC -Xmx2g' }],
    memoryPolicy: 'RestartContainer',
  });
  const d = decide(p, lower('InPlaceOrRecreate', RESTART_OK), { usage });
  assert.equal(d.action, 'ResizeWithRestart', d.message);
  assert.equal(d.changes[0]!.to.limits.memory, 2560 * MiB, 'held at 2.5Gi, not the 2Gi the x0.5 step allows');
  assert.ok(
    d.notes.some((n) => n.includes('heap + overhead') && n.includes('jvm (-Xmx 2048Mi, from env JAVA_TOOL_OPTIONS)')),
    d.notes.join('\n'),
  );
  // The same container without the JVM flag (unknown runtime): the step allows 2Gi.
  const plain = decide(app({ image: 'registry.example/shop/api:1.4', memoryPolicy: 'RestartContainer' }), lower('InPlaceOrRecreate', RESTART_OK), { usage });
  assert.equal(plain.changes[0]!.to.limits.memory, 2048 * MiB);
});

test('PostgreSQL (start-sized) with memory NotRequired: InPlaceOrRecreate recreates the pod, InPlace leaves memory alone and says why', () => {
  const p = app({ image: 'postgres:16.2' });
  const recreate = decide(p, lower('InPlaceOrRecreate'), { usage });
  assert.equal(recreate.action, 'Evict', recreate.message);
  assert.match(recreate.message, /app sizes its memory at start \(resizePolicy memory NotRequired\): recreated so it starts with the new memory/);
  const inPlace = decide(p, lower('InPlace'), { usage });
  assert.equal(inPlace.action, 'Skip');
  assert.equal(inPlace.reason, 'StartSizedMemory');
  assert.match(inPlace.message, /postgresql \(from image postgres:16.2\), which sizes its memory at start/);
});

test('a start-sized runtime with a cpu change too: cpu in place, memory left unchanged with a note', () => {
  const p = app({ image: 'postgres:16.2', cpu: '100m' });
  const d = decide(p, lower('InPlaceOrRecreate', {}, '500m'), { usage });
  assert.equal(d.action, 'ResizeInPlace', d.message);
  assert.deepEqual(d.changes[0]!.resources, ['cpu']);
  assert.ok(
    d.notes.some((n) => n.startsWith('app: memory left unchanged')),
    d.notes.join('\n'),
  );
});

test('the override annotation wins over detection; a bad one is noted and detection is used', () => {
  const p = app({ image: 'postgres:16.2' });
  const followed = decide(p, lower('InPlace', { 'tailor.dev/runtime': 'app=follows-limit' }), { usage });
  assert.equal(followed.action, 'ResizeInPlace', followed.message);
  assert.deepEqual(followed.changes[0]!.resources, ['memory']);
  const jvm = decide(app({ image: 'busybox:1' }), lower('InPlace', { 'tailor.dev/runtime': 'jvm' }), { usage });
  assert.equal(jvm.reason, 'StartSizedMemory');
  const bad = decide(p, lower('InPlace', { 'tailor.dev/runtime': 'app=cobol' }), { usage });
  assert.equal(bad.reason, 'StartSizedMemory');
  assert.ok(
    bad.notes.some((n) => n.includes('tailor.dev/runtime: unknown runtime "cobol"')),
    bad.notes.join('\n'),
  );
});

test('Go and unknown runtimes resize memory in place as before; an OOM-killed JVM still gets its urgent raise in place', () => {
  const go = decide(app({ image: 'registry.example/api:2', env: [{ name: 'GOMEMLIMIT', value: '900MiB' }] }), lower('InPlace'), { usage });
  assert.equal(go.action, 'ResizeInPlace', go.message);
  const p = app({ image: 'eclipse-temurin:21-jre', oomKilledAgo: 5 * MINUTE });
  const v = vpa({
    mode: 'InPlace',
    recommend: { app: { target: { cpu: '500m', memory: '3Gi' }, lower: { cpu: '400m', memory: '2Gi' }, upper: { cpu: '600m', memory: '5Gi' } } },
  });
  const oom = decide(p, v, { usage });
  assert.equal(oom.reason, 'OomKilled');
  assert.equal(oom.action, 'ResizeInPlace', oom.message);
  assert.ok(oom.changes[0]!.to.limits.memory! > 4096 * MiB);
});
