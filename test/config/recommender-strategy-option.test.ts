import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { RUN_OPTIONS, resolveRunConfig } from '../../src/controller/run-config.ts';
import { InvalidConfigurationError } from '../../src/config/resolve-config.ts';
import { addTableOptions, commandLineValues } from '../../src/config/commander-options.ts';

const URL_ENV = { TAILOR_PROMETHEUS_URL: 'http://prometheus:9090' };

function resolve(argv: string[], env: Record<string, string> = URL_ENV) {
  const command = addTableOptions(new Command('run').exitOverride(), RUN_OPTIONS);
  command.parse(argv, { from: 'user' });
  return resolveRunConfig(commandLineValues(command, RUN_OPTIONS), env);
}

test('--recommender-strategy: tailor-low-churn by default (decision 0276), vpa or tailor by flag or TAILOR_RECOMMENDER_STRATEGY', () => {
  assert.equal(resolve([]).config.recommenderStrategy, 'tailor-low-churn');
  assert.equal(resolve(['--recommender-strategy', 'tailor']).config.recommenderStrategy, 'tailor');
  assert.equal(resolve(['--recommender-strategy', 'vpa']).config.recommenderStrategy, 'vpa');
  const { config, sources } = resolve([], { ...URL_ENV, TAILOR_RECOMMENDER_STRATEGY: 'tailor' });
  assert.equal(config.recommenderStrategy, 'tailor');
  assert.equal(sources.recommenderStrategy, 'env');
});

test('--recommender-strategy: an unknown name is refused, naming the choices', () => {
  assert.throws(
    () => resolve(['--recommender-strategy', 'krr']),
    (err: unknown) =>
      err instanceof InvalidConfigurationError &&
      err.errors.some((e) => /recommender-strategy/.test(e.message) && /vpa/.test(e.message) && /tailor-low-churn/.test(e.message)),
  );
});
