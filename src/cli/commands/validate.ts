/**
 * `tailor validate -f FILE...`: checks VerticalPodAutoscaler objects in YAML or JSON files (`-` is
 * standard input; a directory means its .yaml, .yml and .json files) and prints each problem as
 * `file: kind/name: field: message`. Exit code 0 when
 * every object is valid, 1 when any is invalid, 2 when an input cannot be read or parsed.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CommanderError, type Command } from 'commander';
import { checkVpaDocuments } from '../../api/vpa-documents.ts';

export const EXIT_VALID = 0;
export const EXIT_INVALID = 1;
export const EXIT_UNREADABLE = 2;

async function readInput(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const MANIFEST = /\.(ya?ml|json)$/i;

/** The files an argument stands for: itself, or a directory's manifests (sorted, not recursive). */
async function expand(arg: string): Promise<string[]> {
  if (arg === '-') return [arg];
  try {
    if (!(await stat(arg)).isDirectory()) return [arg];
  } catch {
    return [arg]; // reading it will report the problem
  }
  const names = (await readdir(arg)).filter((n) => MANIFEST.test(n)).sort();
  return names.map((n) => join(arg, n));
}

/** Validates the files, writing problems to `out` and notes to `err`; returns the exit code. */
export async function validateFiles(args: readonly string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  let exitCode = EXIT_VALID;
  let checked = 0;
  let invalid = 0;
  const files: string[] = [];
  for (const arg of args) files.push(...(await expand(arg)));
  for (const file of files) {
    const label = file === '-' ? '<stdin>' : file;
    let text: string;
    try {
      text = await readInput(file);
    } catch (cause) {
      const reason = cause instanceof Error && 'code' in cause && cause.code === 'ENOENT' ? 'no such file' : cause instanceof Error ? cause.message : String(cause);
      err.write(`${label}: cannot read: ${reason}\n`);
      exitCode = EXIT_UNREADABLE;
      continue;
    }
    const result = checkVpaDocuments(text);
    if (!result.readable) {
      err.write(`${label}: cannot parse: ${result.error}\n`);
      exitCode = EXIT_UNREADABLE;
      continue;
    }
    if (result.objects.length === 0) err.write(`${label}: no VerticalPodAutoscaler objects found\n`);
    for (const object of result.objects) {
      checked += 1;
      if (object.errors.length === 0) continue;
      invalid += 1;
      if (exitCode === EXIT_VALID) exitCode = EXIT_INVALID;
      for (const e of object.errors) out.write(`${label}: ${object.ref}: ${e.path === '' ? '(object)' : e.path}: ${e.message}\n`);
    }
  }
  err.write(`${checked} VerticalPodAutoscaler object(s) checked, ${invalid} invalid\n`);
  return exitCode;
}

/** Registers `tailor validate`. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('Check VerticalPodAutoscaler objects in YAML/JSON files and name every invalid field')
    .requiredOption('-f, --filename <files...>', 'files or directories to check (YAML or JSON, several documents each; - reads standard input)')
    .action(async (options: { filename: string[] }) => {
      const code = await validateFiles(options.filename, process.stdout, process.stderr);
      // main() turns a CommanderError into the process exit code.
      if (code !== EXIT_VALID) throw new CommanderError(code, 'tailor.validate', `validation ended with exit code ${code}`);
    });
}
