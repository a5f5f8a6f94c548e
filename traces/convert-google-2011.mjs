#!/usr/bin/env node
/**
 * Rebuilds traces/google_2011_jobs.csv.gz from the per-job Google cluster trace 2011 series published
 * in github.com/HiPro-IT/CPU-and-Memory-resource-usage-from-Google-Cluster-Data (commit
 * 327b8ce301d43fd09e0a6b63279edca0728d1af8, file GCD_VMs.tar.gz). Source, licence, citations and the
 * scale assumptions below: traces/README.md.
 *
 *   tar xzf GCD_VMs.tar.gz -C /tmp/g2011
 *   node traces/convert-google-2011.mjs /tmp/g2011/GCD_VMs traces/google_2011_jobs.csv.gz
 *
 * Input: files vm_<jobID>_<day> (day 1-10), 288 rows each of "CPU% memory%" at 5-minute steps.
 * Output: the replay's format (timestamp,container,cpu_cores,memory_bytes), one series per job that
 * has at least MIN_RUN_DAYS consecutive days; every day the source has for such a job is kept, and a
 * day it lacks stays a gap (no sample is invented). Deterministic: same input, same bytes.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** 100% CPU is taken as this many cores: an assumption (the source gives only percentages). */
export const CORES_AT_100_PERCENT = 4;
/** 100% memory is taken as this many bytes (8 GB): an assumption, as above. */
export const BYTES_AT_100_PERCENT = 8e9;
/** Day 1, row 0 is put at 2011-05-01T00:00:00Z: the source has only the day and the row number. */
export const EPOCH_START = Date.UTC(2011, 4, 1) / 1000;
const STEP_SECONDS = 300;
const ROWS_PER_DAY = 288;
const DAYS = 10;
const MIN_RUN_DAYS = 3;

function longestRun(days) {
  let best = 0;
  let run = 0;
  for (let day = 1; day <= DAYS; day++) {
    run = days.has(day) ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

function convert(dir) {
  const jobs = new Map();
  for (const file of readdirSync(dir)) {
    const match = /^vm_(\d+)_(\d+)$/.exec(file);
    if (!match) throw new Error(`unexpected file ${file} in ${dir}`);
    const day = Number(match[2]);
    if (day < 1 || day > DAYS) throw new Error(`${file}: day ${day} is outside 1-${DAYS}`);
    if (!jobs.has(match[1])) jobs.set(match[1], new Set());
    jobs.get(match[1]).add(day);
  }
  const kept = [...jobs.keys()].filter((job) => longestRun(jobs.get(job)) >= MIN_RUN_DAYS).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  const lines = ['timestamp,container,cpu_cores,memory_bytes'];
  for (const job of kept) {
    const days = [...jobs.get(job)].sort((a, b) => a - b);
    for (const day of days) {
      const rows = readFileSync(join(dir, `vm_${job}_${day}`), 'utf8').trim().split('\n');
      if (rows.length !== ROWS_PER_DAY) throw new Error(`vm_${job}_${day}: ${rows.length} rows, not ${ROWS_PER_DAY}`);
      rows.forEach((row, i) => {
        const [cpu, memory, extra] = row.trim().split(/\s+/).map(Number);
        if (extra !== undefined || !Number.isFinite(cpu) || !Number.isFinite(memory) || cpu < 0 || memory < 0) {
          throw new Error(`vm_${job}_${day}:${i + 1}: "${row}" is not two percentages`);
        }
        const time = EPOCH_START + (day - 1) * 86_400 + i * STEP_SECONDS;
        // Whole millicores, as requests are set (0.001 cores is 0.025% of the assumed 4 cores).
        const cores = ((cpu / 100) * CORES_AT_100_PERCENT).toFixed(3);
        // The source's percentages carry 3 decimals plus float noise (5.1209999999999996): rounded to
        // 0.001% first, so a byte count is a whole multiple of 80 kB and the file stays small.
        const bytes = Math.round(memory * 1000) * (BYTES_AT_100_PERCENT / 100_000);
        lines.push(`${time},google-2011-job${job},${cores},${bytes}`);
      });
    }
  }
  return { text: `${lines.join('\n')}\n`, jobs: jobs.size, kept: kept.length, rows: lines.length - 1 };
}

const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error('usage: node traces/convert-google-2011.mjs <unpacked GCD_VMs dir> <out.csv.gz>');
  process.exit(2);
}
const { text, jobs, kept, rows } = convert(dir);
writeFileSync(out, gzipSync(text, { level: 9 }));
console.log(`${out}: ${kept} of ${jobs} jobs (at least ${MIN_RUN_DAYS} consecutive days), ${rows.toLocaleString('en')} rows`);
