/**
 * `tailor generate-trace`: writes a synthetic usage trace (the replay's CSV format) from the
 * workload archetypes, deterministic by seed. Without options it writes the evaluation suite.
 * `--out -` writes it to standard output.
 */
import { Command, InvalidArgumentError } from 'commander';
import { generateWorkload, EVALUATION_SUITE, type WorkloadSpec } from '../../replay/workload/generator.ts';
import { ARCHETYPE_NAMES, type ArchetypeName } from '../../replay/workload/archetypes.ts';
import { writeFailure } from '../file-errors.ts';
import { STANDARD_OUTPUT } from '../common-options.ts';

interface GenerateOptions {
  out: string;
  seed: number;
  perArchetype: number;
  days: number;
  interval: number;
  archetype?: ArchetypeName[];
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function anInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
  return n;
}

function intervalSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > 300) throw new InvalidArgumentError('expected whole seconds from 10 to 300');
  return n;
}

function archetype(value: string, previous: ArchetypeName[] | undefined): ArchetypeName[] {
  if (!(ARCHETYPE_NAMES as string[]).includes(value)) {
    throw new InvalidArgumentError(`unknown archetype (known: ${ARCHETYPE_NAMES.join(', ')})`);
  }
  return [...(previous ?? []), value as ArchetypeName];
}

/** Registers `tailor generate-trace`. */
export function registerGenerateTrace(program: Command): void {
  program
    .command('generate-trace')
    .description('Write a synthetic usage trace from the workload archetypes (deterministic by seed)')
    .requiredOption('--out <file>', 'CSV file to write (- is standard output)')
    .option('--seed <n>', 'random seed', anInteger, EVALUATION_SUITE.seed)
    .option('--per-archetype <n>', 'containers per archetype', positiveInteger, EVALUATION_SUITE.perArchetype)
    .option('--days <n>', 'days of samples', positiveInteger, EVALUATION_SUITE.days)
    .option('--interval <seconds>', 'sampling interval, 10 to 300 s', intervalSeconds, EVALUATION_SUITE.intervalSeconds)
    .option('--archetype <name>', `archetype to include, repeatable (default: all of ${ARCHETYPE_NAMES.join(', ')})`, archetype)
    .action(async (options: GenerateOptions) => {
      const spec: WorkloadSpec = {
        seed: options.seed,
        perArchetype: options.perArchetype,
        days: options.days,
        intervalSeconds: options.interval,
        ...(options.archetype ? { archetypes: options.archetype } : {}),
      };
      const { writeTrace, writeTraceFile } = await import('../../replay/trace-writer.ts');
      const trace = generateWorkload(spec);
      const toStdout = options.out === STANDARD_OUTPUT;
      try {
        await (toStdout ? writeTrace(trace, process.stdout) : writeTraceFile(trace, options.out));
      } catch (err) {
        throw writeFailure(options.out, err);
      }
      process.stderr.write(
        `wrote ${trace.containers.length} containers x ${trace.containers[0]?.length ?? 0} samples to ${toStdout ? 'standard output' : options.out}\n`,
      );
    });
}
