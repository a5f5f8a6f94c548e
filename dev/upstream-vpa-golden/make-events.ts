/**
 * Writes the events that the upstream golden program replays (events.csv.gz; format in main.go):
 * a few synthetic containers that reach the corners (sub-millicore and near-floor CPU, duplicate and
 * late samples, OOM kills on time and late, a 120-day silence that moves the decaying histograms'
 * reference time, crash loops killed before any sample) and a few real containers from traces/ as
 * the replay feeds them (read and resampled by Tailor's trace reader). Deterministic: the same run
 * writes the same bytes.
 *
 *   node --import tsx dev/upstream-vpa-golden/make-events.ts test/model/fixtures/upstream-vpa-golden/events.csv.gz
 */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTraceFile } from '../../src/replay/trace-reader.ts';
import { AZURE_TRACE, BITBRAINS_TRACE, realTracePath } from '../../src/replay/real-traces.ts';
import type { ContainerSeries } from '../../src/replay/trace.ts';

const HOUR = 3600;
const DAY = 24 * HOUR;
const MIB = 1024 * 1024;
const START = 1_700_000_000;

const lines: string[] = ['seconds,container,kind,value'];
const event = (seconds: number, name: string, kind: 'cpu' | 'mem' | 'oom' | 'est', value: number | string = ''): void => {
  lines.push(`${seconds},${name},${kind},${value}`);
};

/** A small deterministic generator (mulberry32), so the events need no dependency. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// 1. CPU below and around the 25m floor, with sub-millicore values (truncated to 0 by upstream),
//    values like 0.29 whose x1000 is not a whole number in binary, and exact duplicates.
{
  const rnd = random(1);
  const name = 'synthetic-near-floor';
  for (let i = 0; i < 2 * 24 * 60; i++) {
    const t = START + i * 60;
    const pick = rnd();
    const cpu = pick < 0.2 ? Number((rnd() * 0.001).toFixed(6)) : pick < 0.4 ? 0.29 : Number((rnd() * 0.04).toFixed(5));
    event(t, name, 'cpu', cpu);
    if (i % 97 === 0) event(t, name, 'cpu', cpu + 0.5); // same time again: upstream drops it
    event(t, name, 'mem', Math.round(40 * MIB + rnd() * 20 * MIB));
    if (i % 60 === 59) event(t, name, 'est');
  }
}

// 2. Memory that grows until it is OOM-killed; OOM events on time and late (1 h, 12 h, 23 h and 25 h
//    after the kill, at every phase of the 24 h memory interval), memory samples out of order.
{
  const rnd = random(2);
  const name = 'synthetic-oom';
  let limit = 300 * MIB;
  for (let i = 0; i < 5 * 24 * 12; i++) {
    const t = START + 7 * 60 + i * 300;
    event(t, name, 'cpu', Number((0.2 + rnd() * 0.3).toFixed(4)));
    const memory = Math.round(200 * MIB + i * 0.3 * MIB + rnd() * 30 * MIB);
    event(t, name, 'mem', Math.min(memory, limit));
    if (memory > limit) {
      event(t, name, 'oom', limit);
      limit = Math.round(limit * 1.2);
    }
    if (i % 50 === 17) event(t - 600, name, 'mem', memory + 5 * MIB); // older than the last sample: dropped
    if (i % 37 === 11) {
      const lag = [1, 12, 23, 25][i % 4]! * HOUR + (i % 7) * 600;
      event(t, name, 'oom', Math.round(limit * (0.8 + rnd() * 0.4)));
      event(t, name, 'est');
      lines.push(`${t - lag},${name},oom,${Math.round(limit * 0.9)}`);
    }
    if (i % 12 === 5) event(t, name, 'est');
  }
}

// 3. A day of bursts, 120 days of silence (more than 100 half-lives: the reference time moves and
//    the old weights underflow), then another day.
{
  const rnd = random(3);
  const name = 'synthetic-long-silence';
  for (const dayStart of [START, START + 121 * DAY]) {
    for (let i = 0; i < 24 * 60; i++) {
      const t = dayStart + i * 60;
      const burst = i % 180 < 15;
      event(t, name, 'cpu', Number(((burst ? 1.5 : 0.05) + rnd() * 0.1).toFixed(3)));
      event(t, name, 'mem', Math.round((burst ? 900 : 500) * MIB + rnd() * MIB));
      if (i % 120 === 0) event(t, name, 'est');
    }
  }
}

/** A real container as the replay feeds it; an OOM kill every 2 days at 90% of the sample's memory. */
function real(series: ContainerSeries): void {
  const name = series.name;
  let nextEstimate = -Infinity;
  let nextOom = (series.times[0] ?? 0) + DAY;
  for (let i = 0; i < series.length; i++) {
    const t = series.times[i]!;
    event(t, name, 'cpu', series.cpu[i]!);
    const memory = series.memory[i]!;
    if (!Number.isNaN(memory)) {
      event(t, name, 'mem', memory);
      if (t >= nextOom) {
        event(t, name, 'oom', Math.floor(memory * 0.9));
        nextOom = t + 2 * DAY;
      }
    }
    if (t >= nextEstimate) {
      event(t, name, 'est');
      nextEstimate = t + HOUR / 2;
    }
  }
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bitbrains = await readTraceFile(realTracePath(root, BITBRAINS_TRACE));
const azure = await readTraceFile(realTracePath(root, AZURE_TRACE));
for (const wanted of ['bitbrains-rnd-2013-7-vm125', 'bitbrains-rnd-2013-7-vm197']) {
  const series = bitbrains.containers.find((c) => c.name === wanted);
  if (!series) throw new Error(`${wanted} is not in ${BITBRAINS_TRACE}`);
  real(series);
}
real(azure.containers[0]!);

// 4. Crash loops from the start (decision 0298): OOM-killed before any usage sample, at the
//    kubelet's back-off (10 s doubling to 5 min), estimated after every kill; the request raised
//    after the third kill (as the updater would), then the container runs and is sampled every
//    minute for two hours. Upstream estimates a container with OOM kills and no CPU sample.
for (const [name, request, raised] of [
  ['synthetic-oom-at-start', 48 * MIB, 128 * MIB],
  ['synthetic-oom-at-start-1gi', 1024 * MIB, 2048 * MIB],
] as const) {
  const rnd = random(4);
  let t = START + 3;
  for (let kill = 0; kill < 6; kill++) {
    event(t, name, 'oom', kill < 3 ? request : raised);
    event(t, name, 'est');
    t += Math.min(10 * 2 ** kill, 300) + 3;
  }
  for (let i = 0; i < 120; i++) {
    event(t + i * 60, name, 'cpu', Number((0.02 + rnd() * 0.01).toFixed(4)));
    event(t + i * 60, name, 'mem', Math.round(raised * (0.5 + rnd() * 0.2)));
    if (i % 10 === 9) event(t + i * 60, name, 'est');
  }
}

const out = process.argv[2];
if (!out) throw new Error('usage: make-events.ts OUT.csv.gz');
writeFileSync(out, gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
console.error(`wrote ${lines.length - 1} events to ${out}`);
