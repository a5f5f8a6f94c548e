// `tailor run --scrape-interval` (TAILOR_SCRAPE_INTERVAL): the option the recommender's warning
// "could not tell the scrape interval" names (issue 28 item 10: `run --help` had no such option).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { RUN_OPTIONS, resolveRunConfig } from '../../src/controller/run-config.ts';
import { InvalidConfigurationError } from '../../src/config/resolve-config.ts';
import { addTableOptions, commandLineValues } from '../../src/config/commander-options.ts';
import { SCRAPE_INTERVAL_ADVICE } from '../../src/metrics/usage-feed.ts';

const URL_ENV = { TAILOR_PROMETHEUS_URL: 'http://prometheus:9090' };

function resolve(argv: string[], env: Record<string, string> = URL_ENV) {
  const command = addTableOptions(new Command('run').exitOverride(), RUN_OPTIONS);
  command.parse(argv, { from: 'user' });
  return resolveRunConfig(commandLineValues(command, RUN_OPTIONS), env);
}

test('unset by default (read from the data); a duration by flag or variable', () => {
  assert.equal(resolve([]).config.scrapeInterval, undefined);
  assert.equal(resolve(['--scrape-interval', '30s']).config.scrapeInterval, 30_000);
  assert.equal(resolve([], { ...URL_ENV, TAILOR_SCRAPE_INTERVAL: '1m' }).config.scrapeInterval, 60_000);
  assert.throws(
    () => resolve(['--scrape-interval', 'often']),
    (err: unknown) => err instanceof InvalidConfigurationError && err.errors.some((e) => e.message.includes('scrape-interval')),
  );
});

test('the advice in the warning names the flag and the variable tailor run has', () => {
  const row = RUN_OPTIONS.scrapeInterval;
  assert.ok(SCRAPE_INTERVAL_ADVICE.includes(`--${row.flag}`));
  assert.ok(SCRAPE_INTERVAL_ADVICE.includes(row.env));
});
