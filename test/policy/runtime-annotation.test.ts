import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRuntimeAnnotation, runtimeOverridesOf } from '../../src/policy/runtime-annotation.ts';
import { runtimeFitWarnings } from '../../src/policy/runtime-fit.ts';

test('tailor.dev/runtime: one runtime for all, or per container; errors name the annotation and what is wrong', () => {
  const all = parseRuntimeAnnotation('JVM');
  assert.ok(all.ok);
  assert.deepEqual([...all.overrides], [['*', 'jvm']]);
  const per = parseRuntimeAnnotation('app=jvm, sidecar = go');
  assert.ok(per.ok);
  assert.deepEqual(
    [...per.overrides],
    [
      ['app', 'jvm'],
      ['sidecar', 'go'],
    ],
  );
  for (const [value, why] of [
    ['', 'empty'],
    ['app=cobol', 'unknown runtime "cobol"'],
    ['jvm,go', '"jvm" needs a container name'],
    ['App=jvm', '"App" is not a container name'],
    ['a=jvm,a=go', 'container "a" is named twice'],
  ] as const) {
    const r = parseRuntimeAnnotation(value);
    assert.ok(!r.ok, value);
    assert.ok(r.message.startsWith(`tailor.dev/runtime: ${why}`), r.message);
  }
  const none = runtimeOverridesOf({ other: 'x' });
  assert.ok(none.ok && none.overrides.size === 0);
});

test('resizePolicy fit: a start-sized runtime with memory NotRequired warns, one that follows the limit with RestartContainer warns', () => {
  const warnings = runtimeFitWarnings([
    { name: 'db', image: 'postgres:16' },
    { name: 'api', image: 'eclipse-temurin:21', resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
    { name: 'proxy', image: 'envoyproxy/envoy:v1.30', resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
    { name: 'web', image: 'nginx:1.27' },
    { name: 'x', image: 'example:1' },
  ]);
  assert.deepEqual(
    warnings.map((w) => w.container),
    ['db', 'proxy'],
  );
  assert.match(
    warnings[0]!.message,
    /^container db runs postgresql \(from image postgres:16\), which sizes its memory at start: resizePolicy memory NotRequired/,
  );
  assert.match(warnings[1]!.message, /follows its memory limit: resizePolicy memory RestartContainer restarts it/);
  const overridden = parseRuntimeAnnotation('db=follows-limit');
  assert.ok(overridden.ok);
  assert.deepEqual(runtimeFitWarnings([{ name: 'db', image: 'postgres:16' }], overridden.overrides), []);
});
