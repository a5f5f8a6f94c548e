// One default strategy everywhere (issue 28 item 5): the constant names a built-in strategy, and
// every command that recommends takes it as its default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { BUILTIN_STRATEGY_NAMES, DEFAULT_STRATEGY } from '../../src/model/default-strategy.ts';
import { createStrategyRegistry } from '../../src/model/builtin-strategies.ts';
import { RUN_OPTIONS } from '../../src/controller/run-config.ts';
import { registerRecommend } from '../../src/cli/commands/recommend.ts';
import { registerAudit } from '../../src/cli/commands/audit.ts';

test('the default strategy is a built-in one, and the names the options declare are those the registry builds', () => {
  assert.ok(createStrategyRegistry().has(DEFAULT_STRATEGY), DEFAULT_STRATEGY);
  assert.deepEqual(createStrategyRegistry().names(), [...BUILTIN_STRATEGY_NAMES]);
});

test('run, recommend and audit all default to the same strategy', () => {
  const program = new Command('tailor');
  registerRecommend(program);
  registerAudit(program);
  const defaults = Object.fromEntries(program.commands.map((c) => [c.name(), c.options.find((o) => o.long === '--strategy')?.defaultValue]));
  assert.deepEqual(defaults, { recommend: DEFAULT_STRATEGY, audit: DEFAULT_STRATEGY });
  assert.equal(RUN_OPTIONS.recommenderStrategy.default, DEFAULT_STRATEGY);
});
