/**
 * The memory limit of the container this process runs in, read from its cgroup: v2
 * `/sys/fs/cgroup/memory.max`, else v1 `/sys/fs/cgroup/memory/memory.limit_in_bytes`. Used as the
 * default `--memory-budget` (decision 0225). Undefined when there is no limit (`max`, or v1's
 * "unlimited" of about 2^63) or no cgroup file to read.
 */
import { readFileSync } from 'node:fs';

export const CGROUP_V2_MEMORY_MAX = '/sys/fs/cgroup/memory.max';
export const CGROUP_V1_MEMORY_LIMIT = '/sys/fs/cgroup/memory/memory.limit_in_bytes';

/** A limit at or above this is v1's way of saying "none" (it writes 9223372036854771712). */
const UNLIMITED_FROM = 2 ** 60;

/** Bytes of a cgroup limit file's text; undefined for `max` or an unlimited value. */
export function parseCgroupLimit(text: string): number | undefined {
  const t = text.trim();
  if (t === '' || t === 'max') return undefined;
  const n = Number(t);
  return Number.isFinite(n) && n > 0 && n < UNLIMITED_FROM ? n : undefined;
}

/** The container's memory limit in bytes, or undefined. `read` is injected in tests. */
export function cgroupMemoryLimit(read: (path: string) => string = (p) => readFileSync(p, 'utf8')): number | undefined {
  for (const path of [CGROUP_V2_MEMORY_MAX, CGROUP_V1_MEMORY_LIMIT]) {
    let text: string;
    try {
      text = read(path);
    } catch {
      continue; // not this cgroup version
    }
    return parseCgroupLimit(text);
  }
  return undefined;
}
