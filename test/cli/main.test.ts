import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { buildProgram } from '../../src/cli/main.ts';
import { VERSION } from '../../src/cli/program.ts';
import { tailorInProcess } from './cli-in-process.ts';
import { LOG_LEVELS } from '../../src/observability/logger.ts';

test('the CLI version matches package.json', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});

test('every command has a one-line description', () => {
  for (const command of buildProgram().commands) {
    const description = command.description();
    assert.ok(description.length > 0, `${command.name()} has no description`);
    assert.ok(!description.includes('\n'), `${command.name()} description is more than one line`);
  }
});

test('tailor --help runs through the bin script and lists the commands', () => {
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', '--help'], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /Usage: tailor/);
  for (const command of buildProgram().commands) assert.match(result.stdout, new RegExp(`\\b${command.name()}\\b`));
});

test('a reader that closes the pipe early (`tailor run --help | head -1`) ends the CLI quietly, exit 0', () => {
  // `true` exits without reading, long before the CLI has started (as `head` does after one line);
  // the shell reports the CLI's own status through PIPESTATUS.
  const result = spawnSync('bash', ['-c', 'node bin/tailor.mjs run --help | true; echo "status=${PIPESTATUS[0]}"'], {
    encoding: 'utf8',
  });
  assert.equal(result.stderr, '', 'nothing on stderr (no EPIPE stack trace)');
  assert.match(result.stdout, /status=0/);
});

test('an unknown command exits non-zero with a message', () => {
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'no-such-command'], { encoding: 'utf8' });
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /unknown command/);
});

test('a usage error is one line on stderr: the command, the cause and where to read more; no help (`tailor run --bogus-flag`)', () => {
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'run', '--bogus-flag'], { encoding: 'utf8' });
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr, "tailor run: unknown option '--bogus-flag'; see tailor run --help\n");
});

test('every kind of usage error is one line naming the command; only --help prints the help', async () => {
  // One row per line, read as a table:
  // prettier-ignore
  const cases: Array<[string[], string]> = [
    [['recommend'], "tailor recommend: required option '--prometheus-url <url>' not specified; see tailor recommend --help\n"],
    [[], 'tailor: name a command: demo, recommend, audit, replay, generate-trace, plan, sim, validate, run; see tailor --help\n'],
    [['recomend'], "tailor: unknown command 'recomend' (did you mean recommend?); see tailor --help\n"],
    [['replay', '--trace', 'x.csv', '--format', 'xml'], "tailor replay: option '--format <format>' argument 'xml' is invalid. Allowed choices are table, json, yaml; see tailor replay --help\n"],
    [['run', 'now'], "tailor run: too many arguments for 'run'. Expected 0 arguments but got 1; see tailor run --help\n"],
    [['validate', '-f'], "tailor validate: option '-f, --filename <files...>' argument missing; see tailor validate --help\n"],
    // Every problem of the configuration, on the one line.
    [
      ['run', '--interval', '5x', '--max-resizes-per-loop', '-1', '--prometheus-url', 'http://127.0.0.1:9'],
      'tailor run: invalid configuration: --interval=5x: invalid duration "5x": use e.g. 90s, 30m, 12h, 8d, 1w; --max-resizes-per-loop=-1: out of range 0-1000000; see tailor run --help\n',
    ],
  ];
  for (const [args, line] of cases) {
    const r = await tailorInProcess(args);
    assert.equal(r.stderr, line, args.join(' '));
    assert.equal(r.code, 2, args.join(' '));
  }
});

test("exit codes: 2 for a usage error (commander's or a bad TAILOR_* value), 1 for a failure, with the cause chain", async () => {
  const missing = await tailorInProcess(['plan']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /required option '-f, --filename <files\.\.\.>' not specified/);
  assert.equal((await tailorInProcess(['no-such-command'])).code, 2);
  assert.equal((await tailorInProcess(['replay', '--trace', 'x.csv', '--format', 'xml'])).code, 2);
  assert.equal((await tailorInProcess(['run', '--interval', '5x'])).code, 2);
  assert.equal((await tailorInProcess(['--version'])).code, 0);
});

test('every --help fits 80 columns: long options get a line of their own, descriptions wrap', () => {
  const program = buildProgram();
  for (const command of [program, ...program.commands]) {
    const help = command.helpInformation();
    for (const line of help.split('\n')) {
      // A single word longer than the room left (a long option name) may overflow; prose may not.
      if (line.length > 80) assert.ok(!line.trim().includes(' '), `tailor ${command.name()} --help: ${JSON.stringify(line)} is ${line.length} columns`);
    }
  }
  assert.match(
    program.commands.find((c) => c.name() === 'run')!.helpInformation(),
    /\n {2}--components <recommender\|updater\|admission>,\.\.\.\n {34}Components to run/,
  );
});

test('--log-level offers the same levels on every command, and a bad one is a usage error naming them', async () => {
  const program = buildProgram();
  const withLevel = program.commands.filter((c) => c.options.some((o) => o.long === '--log-level'));
  assert.deepEqual(withLevel.map((c) => c.name()).sort(), ['audit', 'demo', 'recommend', 'run', 'sim']);
  for (const command of withLevel.filter((c) => c.name() !== 'run')) {
    // `run` takes its options from the configuration table, which checks the same list.
    assert.deepEqual(command.options.find((o) => o.long === '--log-level')?.argChoices, [...LOG_LEVELS], command.name());
  }
  for (const args of [
    ['sim'],
    ['recommend', '--prometheus-url', 'http://127.0.0.1:9'],
    ['audit', '--prometheus-url', 'http://127.0.0.1:9'],
    ['demo'],
    ['run'],
  ]) {
    const r = await tailorInProcess([...args, '--log-level', 'bogus']);
    assert.equal(r.code, 2, args[0]);
    assert.match(
      r.stderr,
      /bogus.*(fatal, error, warn, info, debug, trace, silent|Allowed choices are fatal, error, warn, info, debug, trace, silent)/,
      args[0],
    );
    assert.doesNotMatch(r.stderr, /custom levels/);
  }
});
