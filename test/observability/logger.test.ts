import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger, moduleLogger, type Logger } from '../../src/observability/logger.ts';
import type { MetricsSource } from '../../src/metrics/metrics-source.ts';
import { UsageFeed } from '../../src/metrics/usage-feed.ts';

/** The top-level keys of one JSON line, in order, duplicates kept (JSON.parse would hide them). */
function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      let j = i + 1;
      while (line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      if (depth === 1 && line[j + 1] === ':') keys.push(line.slice(i + 1, j));
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys;
}

function capture(): { logger: Logger; lines: () => string[] } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    logger: createLogger({ level: 'debug', destination }),
    lines: () =>
      text
        .trim()
        .split('\n')
        .filter((l) => l !== ''),
  };
}

test('a module of a component logs each place key once: component, then module, then part', () => {
  const { logger, lines } = capture();
  const recommender = logger.child({ component: 'recommender' });
  moduleLogger(recommender, 'usage-feed').info('a');
  moduleLogger(moduleLogger(recommender, 'prometheus-source'), 'prometheus-client', { endpoint: 'http://p' }).info('b');
  moduleLogger(logger, 'http').info('c');
  const [a, b, c] = lines().map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual([a?.component, a?.module], ['recommender', 'usage-feed']);
  assert.deepEqual([b?.component, b?.module, b?.part, b?.endpoint], ['recommender', 'prometheus-source', 'prometheus-client', 'http://p']);
  assert.equal(c?.component, 'http');
  for (const line of lines()) {
    const keys = topLevelKeys(line);
    assert.deepEqual(keys, [...new Set(keys)], line);
  }
});

test("the usage feed's line under `tailor run`'s recommender logger repeats no key", async () => {
  const { logger, lines } = capture();
  const down = new Proxy({} as MetricsSource, { get: () => () => Promise.reject(new Error('Prometheus down')) });
  const feed = new UsageFeed(down, { historyMs: 3_600_000, stepMs: 60_000 }, logger.child({ component: 'recommender' }));
  await feed.sync(10_000_000, { cpu: () => undefined, memory: () => undefined, oom: () => undefined });
  const line = lines().find((l) => l.includes('usage discovery failed'));
  assert.ok(line, lines().join('\n'));
  const keys = topLevelKeys(line);
  assert.deepEqual(keys, [...new Set(keys)], line);
  assert.match(line, /"component":"recommender","module":"usage-feed"/);
});

test('times are ISO 8601 in UTC, not epoch milliseconds', () => {
  const { logger, lines } = capture();
  logger.info('a');
  const { time } = JSON.parse(lines()[0]!) as { time: unknown };
  assert.equal(typeof time, 'string');
  assert.match(time as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test('an unknown log level is refused with the known ones, not a pino internal message', () => {
  assert.throws(
    () => createLogger({ level: 'bogus' as 'info' }),
    /^Error: unknown log level "bogus": use one of fatal, error, warn, info, debug, trace, silent$/,
  );
});
