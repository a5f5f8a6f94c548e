// --round-cpu-millicores and --round-memory-bytes (upstream's recommender flags): defaults that make
// the VPA status readable (memory up to 1Mi, decision 0285), and bad values refused at start-up,
// naming the flag or the variable.
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

test('defaults: CPU as computed (whole millicores), memory rounded up to 1Mi', () => {
  const { config } = resolve([]);
  assert.equal(config.roundCpuMillicores, 1);
  assert.equal(config.roundMemoryBytes, 1024 * 1024);
});

test("memory takes a quantity or upstream's bytes; both take their TAILOR_ variable", () => {
  assert.equal(resolve(['--round-memory-bytes', '64Mi']).config.roundMemoryBytes, 64 * 2 ** 20);
  assert.equal(resolve(['--round-memory-bytes', '1']).config.roundMemoryBytes, 1);
  assert.equal(resolve(['--round-memory-bytes', '1048576']).config.roundMemoryBytes, 2 ** 20);
  assert.equal(resolve(['--round-cpu-millicores', '10']).config.roundCpuMillicores, 10);
  const { config } = resolve([], { ...URL_ENV, TAILOR_ROUND_CPU_MILLICORES: '5', TAILOR_ROUND_MEMORY_BYTES: '1Gi' });
  assert.deepEqual([config.roundCpuMillicores, config.roundMemoryBytes], [5, 2 ** 30]);
});

test('zero, negative, fractional, too large or not a number: refused, naming the flag', () => {
  for (const [flag, value] of [
    ['--round-memory-bytes', '0'],
    ['--round-memory-bytes', 'banana'],
    ['--round-memory-bytes', '2Ti'],
    ['--round-cpu-millicores', '0'],
    ['--round-cpu-millicores', '-5'],
    ['--round-cpu-millicores', '2.5'],
  ] as const) {
    assert.throws(
      () => resolve([flag, value]),
      (err: unknown) => err instanceof InvalidConfigurationError && err.errors.some((e) => e.message.includes(flag.slice(2))),
      `${flag} ${value}`,
    );
  }
});
