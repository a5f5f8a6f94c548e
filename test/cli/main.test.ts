import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { VERSION, buildProgram } from '../../src/cli/main.ts';

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

test('an unknown command exits non-zero with a message', () => {
  const result = spawnSync(process.execPath, ['bin/tailor.mjs', 'no-such-command'], { encoding: 'utf8' });
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /unknown command/);
});
