import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CGROUP_V1_MEMORY_LIMIT, CGROUP_V2_MEMORY_MAX, cgroupMemoryLimit, parseCgroupLimit } from '../../src/observability/cgroup-memory.ts';

const files = (entries: Record<string, string>) => (path: string) => {
  const text = entries[path];
  if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  return text;
};

test('cgroup v2: memory.max in bytes, or none for "max"', () => {
  assert.equal(cgroupMemoryLimit(files({ [CGROUP_V2_MEMORY_MAX]: '536870912\n' })), 512 * 2 ** 20);
  assert.equal(cgroupMemoryLimit(files({ [CGROUP_V2_MEMORY_MAX]: 'max\n', [CGROUP_V1_MEMORY_LIMIT]: '1000' })), undefined);
});

test('cgroup v1: memory.limit_in_bytes, where about 2^63 means none', () => {
  assert.equal(cgroupMemoryLimit(files({ [CGROUP_V1_MEMORY_LIMIT]: '268435456\n' })), 256 * 2 ** 20);
  assert.equal(cgroupMemoryLimit(files({ [CGROUP_V1_MEMORY_LIMIT]: '9223372036854771712\n' })), undefined);
});

test('no cgroup file, or an unreadable value: no limit', () => {
  assert.equal(cgroupMemoryLimit(files({})), undefined);
  for (const text of ['', 'junk', '-1', '0']) assert.equal(parseCgroupLimit(text), undefined, text);
});
