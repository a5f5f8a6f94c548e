import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger.ts';
import { RepeatedWarnings } from '../../src/observability/repeated-warnings.ts';

const MIN = 60_000;

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const l of chunk.toString().split('\n')) if (l !== '') lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), lines };
}

test('a lasting cause is said once, then as debug lines, then again once per period with the repeats', () => {
  const { logger, lines } = capture();
  const w = new RepeatedWarnings(logger, 10 * MIN);
  for (let m = 0; m <= 60; m++) w.say('scrape', m * MIN, { namespace: 'shop' }, 'could not tell the scrape interval');
  const warnings = lines.filter((l) => l['level'] === 40);
  assert.deepEqual(
    warnings.map((l) => l['repeats'] ?? 0),
    [0, 10, 10, 10, 10, 10, 10],
  );
  assert.match(String(warnings[1]!['msg']), /could not tell the scrape interval \(still, 10 times since it was last said\)$/);
  assert.equal(lines.filter((l) => l['level'] === 20).length, 61 - 7);
  assert.equal(warnings[0]!['namespace'], 'shop');
});

test('another cause, or the same one after it went away, is said at once; error level kept', () => {
  const { logger, lines } = capture();
  const w = new RepeatedWarnings(logger, 10 * MIN);
  w.say('vpa shop/a', 0, {}, 'a is malformed');
  w.say('vpa shop/b', MIN, {}, 'b is malformed', 'error');
  w.say('vpa shop/a', 2 * MIN, {}, 'a is malformed');
  assert.equal(w.resolved('vpa shop/a'), true);
  assert.equal(w.resolved('vpa shop/a'), false);
  w.say('vpa shop/a', 3 * MIN, {}, 'a is malformed');
  w.retain((cause) => cause !== 'vpa shop/b');
  assert.equal(w.size, 1);
  w.say('vpa shop/b', 4 * MIN, {}, 'b is malformed', 'error');
  assert.deepEqual(
    lines.map((l) => [l['level'], l['msg']]),
    [
      [40, 'a is malformed'],
      [50, 'b is malformed'],
      [20, 'a is malformed'],
      [40, 'a is malformed'],
      [50, 'b is malformed'],
    ],
  );
});
