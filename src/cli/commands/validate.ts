/**
 * `tailor validate -f FILE...`: checks VerticalPodAutoscaler objects in YAML or JSON files (`-` is
 * standard input; a directory means the .yaml, .yml and .json files in it and its subfolders) and prints each problem as
 * `file: kind/name: field: message` (`--format json|yaml`: one report). Documents that are not
 * VPAs are skipped with a note on stderr. A VPA's `tailor.dev/` annotations are checked too (a bad
 * value or an unknown key: docs/workload-annotations.md). Exit code 0 when every object is valid, 1 when any is
 * invalid, none is found, or an input cannot be read or parsed (the other files are still checked), 2 for a usage
 * error (decision 0178).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CommanderError, type Command } from 'commander';
import { checkVpaDocuments, type CheckedObject } from '../../api/vpa-documents.ts';
import { annotationFieldErrors } from '../../policy/annotations/annotation-field-errors.ts';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.ts';
import { readReason } from '../file-errors.ts';
import { readInput } from '../read-input.ts';
import { formatOption, outputOption, serialize, writeResult } from '../common-options.ts';
import { runtimeFitInText } from '../../policy/runtime-fit-documents.ts';

export const VALIDATE_FORMATS = ['text', 'json', 'yaml'] as const;
export type ValidateFormat = (typeof VALIDATE_FORMATS)[number];

/** What was found in one file. */
export interface FileCheck {
  file: string;
  /** Why the file could not be read or parsed; absent when it was. */
  error?: string;
  objects: CheckedObject[];
  /** Documents that are not VPAs, e.g. `Deployment/web`. */
  skipped: string[];
  /** Warnings that do not make the file invalid: a memory resizePolicy that does not fit the runtime of a VPA's target. */
  warnings?: string[];
}

/** The whole run: `--format json|yaml` prints this. */
export interface ValidateReport {
  files: FileCheck[];
  checked: number;
  invalid: number;
}

const MANIFEST = /\.(ya?ml|json)$/i;

/** A file to check, or a folder that could not be listed (its error). */
interface Input {
  file: string;
  error?: string;
}

/**
 * The manifests under a folder, its subfolders included (as `kubectl apply -R -f DIR`), in
 * path order; hidden folders (`.git`) and symbolic links to folders are not entered.
 */
async function manifestsUnder(dir: string): Promise<Input[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (cause) {
    return [{ file: dir, error: `cannot read the folder: ${readReason(cause)}` }];
  }
  const out: Input[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) out.push(...(await manifestsUnder(path)));
    } else if (MANIFEST.test(entry.name)) out.push({ file: path });
  }
  return out;
}

/** What an argument stands for: itself (`-` is standard input), or a folder's manifests. */
async function expand(arg: string): Promise<Input[]> {
  if (arg === '-') return [{ file: arg }];
  try {
    if (!(await stat(arg)).isDirectory()) return [{ file: arg }];
  } catch {
    return [{ file: arg }]; // reading it will report the problem
  }
  return manifestsUnder(arg);
}

/**
 * Checks every file; notes (skipped documents, unreadable files, the count) go to `err`. Finding no
 * VerticalPodAutoscaler at all is a failure (exit code 1): a folder of the wrong files, or a typo
 * in its name, must not pass as "0 invalid".
 */
export async function checkFiles(args: readonly string[], err: NodeJS.WritableStream): Promise<ValidateReport> {
  const report: ValidateReport = { files: [], checked: 0, invalid: 0 };
  const inputs: Input[] = [];
  for (const arg of args) inputs.push(...(await expand(arg)));
  for (const input of inputs) {
    const file = input.file;
    const label = file === '-' ? '<stdin>' : file;
    if (input.error !== undefined) {
      err.write(`${label}: ${input.error}\n`);
      report.files.push({ file: label, error: input.error, objects: [], skipped: [] });
      continue;
    }
    let text: string;
    try {
      text = await readInput(file);
    } catch (cause) {
      const error = `cannot read: ${readReason(cause)}`;
      err.write(`${label}: ${error}\n`);
      report.files.push({ file: label, error, objects: [], skipped: [] });
      continue;
    }
    const result = checkVpaDocuments(text, annotationFieldErrors);
    if (!result.readable) {
      err.write(`${label}: cannot parse: ${result.error}\n`);
      report.files.push({ file: label, error: `cannot parse: ${result.error}`, objects: [], skipped: [] });
      continue;
    }
    if (result.skipped.length > 0)
      err.write(`${label}: skipped ${result.skipped.length} document(s) that are not VerticalPodAutoscalers: ${result.skipped.join(', ')}\n`);
    if (result.objects.length === 0) err.write(`${label}: no VerticalPodAutoscaler objects found\n`);
    const warnings = runtimeFitInText(text);
    for (const w of warnings) err.write(`${label}: warning: ${w}\n`);
    report.files.push({ file: label, objects: result.objects, skipped: result.skipped, ...(warnings.length > 0 ? { warnings } : {}) });
    report.checked += result.objects.length;
    report.invalid += result.objects.filter((o) => o.errors.length > 0).length;
  }
  err.write(`${report.checked} VerticalPodAutoscaler object(s) checked, ${report.invalid} invalid\n`);
  if (report.checked === 0) {
    err.write(
      inputs.length === 0
        ? `nothing was validated: no .yaml, .yml or .json file in ${args.join(', ')} (subfolders included)\n`
        : `nothing was validated: no VerticalPodAutoscaler in the ${inputs.length} file(s) read\n`,
    );
  }
  return report;
}

/** One line per problem: `file: kind/name: field: message`. */
export function formatProblems(report: ValidateReport): string {
  const lines = report.files.flatMap((f) =>
    f.objects.flatMap((o) => o.errors.map((e) => `${f.file}: ${o.ref}: ${e.path === '' ? '(object)' : e.path}: ${e.message}\n`)),
  );
  return lines.join('');
}

/** 0 when every file was read, at least one VPA was found and every VPA is valid, else 1. */
export function exitCodeOf(report: ValidateReport): number {
  return report.checked === 0 || report.invalid > 0 || report.files.some((f) => f.error !== undefined) ? EXIT_FAILURE : EXIT_OK;
}

/** Validates the files, writing the result to `out` and notes to `err`; returns the exit code. */
export async function validateFiles(
  args: readonly string[],
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  format: ValidateFormat = 'text',
  output?: string,
): Promise<number> {
  const report = await checkFiles(args, err);
  await writeResult(format === 'text' ? formatProblems(report) : serialize(report, format), output, out);
  return exitCodeOf(report);
}

/** Registers `tailor validate`. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('Check VerticalPodAutoscaler objects in YAML/JSON files and name every invalid field')
    .requiredOption(
      '-f, --filename <files...>',
      'files or directories to check (YAML or JSON, several documents each; a directory: its .yaml, .yml and .json files, subfolders included; - reads standard input)',
    )
    .addOption(formatOption(VALIDATE_FORMATS, 'text'))
    .addOption(outputOption())
    .action(async (options: { filename: string[]; format: ValidateFormat; output?: string }) => {
      const code = await validateFiles(options.filename, process.stdout, process.stderr, options.format, options.output);
      // main() turns a CommanderError into the process exit code.
      if (code !== EXIT_OK) throw new CommanderError(code, 'tailor.validate', `validation ended with exit code ${code}`);
    });
}
