import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container } from '@kubernetes/client-node';
import { detectRuntime, parseGoMemLimit, parseJvmSize, runtimeMemoryFloor } from '../../src/policy/container-runtime.ts';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const c = (x: Partial<V1Container>): V1Container => ({ name: 'app', image: 'registry.example/app:1', ...x });
const seen = (x: Partial<V1Container>) => {
  const r = detectRuntime(c(x));
  return `${r.runtime ?? '-'} ${r.behaviour} ${r.evidence}`;
};

test('JVM: -Xmx from JAVA_TOOL_OPTIONS, args, _JAVA_OPTIONS (which wins), MaxRAMPercentage, default 25%', () => {
  assert.equal(detectRuntime(c({ env: [{ name: 'JAVA_TOOL_OPTIONS', value: '-Xmx2g -XX:+UseG1GC' }] })).heapBytes, 2 * GiB);
  assert.equal(detectRuntime(c({ command: ['java', '-Xmx512m', '-jar', 'app.jar'] })).heapBytes, 512 * MiB);
  const both = detectRuntime(
    c({
      env: [
        { name: 'JAVA_TOOL_OPTIONS', value: '-Xmx1g' },
        { name: '_JAVA_OPTIONS', value: '-Xmx3g' },
      ],
      args: ['-Xmx2g'],
    }),
  );
  assert.equal(both.heapBytes, 3 * GiB, '_JAVA_OPTIONS is applied last');
  assert.equal(detectRuntime(c({ env: [{ name: 'JAVA_TOOL_OPTIONS', value: '-XX:MaxRAMPercentage=75.0' }] })).maxRamPercentage, 75);
  const plain = detectRuntime(c({ image: 'eclipse-temurin:21-jre' }));
  assert.deepEqual([plain.runtime, plain.behaviour, plain.maxRamPercentage, plain.heapBytes], ['jvm', 'start-sized', 25, undefined]);
  assert.equal(detectRuntime(c({ command: ['/opt/java/openjdk/bin/java'], args: ['-jar', 'x.jar'] })).runtime, 'jvm');
  // an env variable from a Secret (valueFrom) cannot be read: not a JVM by it
  assert.equal(detectRuntime(c({ env: [{ name: 'JAVA_TOOL_OPTIONS', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] })).runtime, undefined);
});

test('start-sized databases and runtimes that follow the limit, from image or command', () => {
  assert.equal(seen({ image: 'postgres:16' }), 'postgresql start-sized image postgres:16');
  assert.equal(seen({ image: 'docker.io/bitnami/postgresql:16.2.0' }), 'postgresql start-sized image docker.io/bitnami/postgresql:16.2.0');
  assert.equal(seen({ image: 'mariadb:11@sha256:abc' }), 'mysql start-sized image mariadb:11@sha256:abc');
  assert.equal(seen({ image: 'registry:5000/cache/redis:7' }), 'redis start-sized image registry:5000/cache/redis:7');
  assert.equal(seen({ command: ['redis-server', '/etc/redis.conf'] }), 'redis start-sized command redis-server');
  assert.equal(seen({ image: 'node:20-alpine' }), 'node follows-limit image node:20-alpine');
  assert.equal(seen({ command: ['gunicorn', 'app:app'] }), 'python follows-limit command gunicorn');
  assert.equal(seen({ image: 'envoyproxy/envoy:v1.30' }), 'envoy follows-limit image envoyproxy/envoy:v1.30');
  assert.equal(seen({ image: 'nginx:1.27' }), 'nginx follows-limit image nginx:1.27');
  assert.equal(seen({ env: [{ name: 'GOMEMLIMIT', value: '900MiB' }] }), 'go follows-limit env GOMEMLIMIT');
  assert.equal(seen({ image: 'registry.example/postgres-exporter:1' }), '- unknown not recognised', 'an exporter is not the database');
  assert.equal(seen({}), '- unknown not recognised');
  assert.equal(detectRuntime(c({ image: 'postgres:16' }), 'follows-limit').behaviour, 'follows-limit', 'the override wins');
});

test('floors: JVM heap + max(25%, 256Mi); from MaxRAMPercentage of the limit at start; Go GOMEMLIMIT + 10%; others none', () => {
  assert.equal(runtimeMemoryFloor(detectRuntime(c({ args: ['-Xmx2g'], command: ['java'] })), 4 * GiB), 2 * GiB + 512 * MiB);
  assert.equal(runtimeMemoryFloor(detectRuntime(c({ image: 'openjdk:17' })), GiB), 512 * MiB, '256Mi heap + 256Mi');
  assert.equal(runtimeMemoryFloor(detectRuntime(c({ image: 'openjdk:17' })), undefined), undefined, 'no limit at start, no heap known');
  assert.equal(runtimeMemoryFloor(detectRuntime(c({ env: [{ name: 'GOMEMLIMIT', value: '1GiB' }] })), 4 * GiB), Math.ceil(1.1 * GiB));
  assert.equal(runtimeMemoryFloor(detectRuntime(c({ image: 'postgres:16' })), 4 * GiB), undefined);
});

test('sizes: JVM k/m/g/t and bytes; GOMEMLIMIT with units, off is none', () => {
  assert.equal(parseJvmSize('1024k'), 1024 * 1024);
  assert.equal(parseJvmSize('2G'), 2 * GiB);
  assert.equal(parseJvmSize('12x'), undefined);
  assert.equal(parseGoMemLimit('512MiB'), 512 * MiB);
  assert.equal(parseGoMemLimit('1000'), 1000);
  assert.equal(parseGoMemLimit('off'), undefined);
});
