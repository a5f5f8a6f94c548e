// The container image's CLI: `tailor run` and `tailor audit` as everywhere else; every other command
// in its place in the help, and one line (exit 1) when invoked, whatever its arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IMAGE_COMMANDS, leftOutMessage } from '../../../src/cli/commands/image-commands.ts';
import { main } from '../../../src/cli/image-main.ts';
import { buildProgram } from '../../../src/cli/main.ts';
import { buildProgram as programOf } from '../../../src/cli/program.ts';

/** What a command declares: its name, description and options. */
const shape = (c: ReturnType<typeof buildProgram>) => ({ name: c.name(), description: c.description(), options: c.options.map((o) => o.flags) });

test('the image lists every command in the same order; run and audit are the same commands as outside it', () => {
  const everything = buildProgram().commands;
  const image = programOf(IMAGE_COMMANDS).commands;
  assert.deepEqual(
    image.map((c) => c.name()),
    everything.map((c) => c.name()),
  );
  for (const name of ['run', 'audit']) assert.deepEqual(shape(image.find((c) => c.name() === name)!), shape(everything.find((c) => c.name() === name)!));
  const left = image.filter((c) => !['run', 'audit'].includes(c.name()));
  assert.equal(left.length, everything.length - 2);
  for (const c of left) assert.equal(c.description(), 'not in this image (it holds run and audit)', c.name());
});

test('a command the image leaves out says so in one line, exit 1, whatever follows it', async () => {
  for (const argv of [['demo'], ['sim', '--port', '0'], ['plan', '-f', 'shop.yaml', '--help'], ['replay', 'extra', 'arguments']]) {
    let stderr = '';
    const code = await main(['node', 'tailor', ...argv], { write: (chunk: string) => ((stderr += chunk), true) } as unknown as NodeJS.WritableStream);
    assert.deepEqual([code, stderr], [1, `tailor ${argv[0]}: ${leftOutMessage(argv[0]!)}\n`], argv.join(' '));
  }
  assert.equal(leftOutMessage('demo'), 'not in this image, which holds tailor run and tailor audit only; from a checkout of Tailor: npm run tailor -- demo');
});
