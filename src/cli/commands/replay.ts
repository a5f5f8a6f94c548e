/**
 * `tailor replay`: replays a usage trace under one or more strategies and prints their quality
 * figures (slack, shortfall, OOM kills, changes), as a table, as the JSON contract of issue 5, or
 * as YAML; `--output FILE` writes them to a file. A progress bar (containers x strategies) is drawn
 * on stderr when it is a terminal: the default trace takes most of a minute.
 */
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { Option, InvalidArgumentError, type Command } from 'commander';
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import { DEFAULT_REPLAY_OPTIONS, replayContainer, type ReplayOptions } from '../../replay/replay-engine.ts';
import type { ReplayReport } from '../../replay/quality-report.ts';
import { createReplayStrategy, replayStrategyNames } from '../../replay/replay-strategies.ts';
import { StrategyRegistryError } from '../../model/strategy-registry.ts';
import type { ReplayStrategy } from '../../replay/replay-strategy.ts';
import { UsageError } from '../exit-codes.ts';
import { DEFAULT_STRATEGY } from '../../model/default-strategy.ts';
import { formatOption, noProgressOption, outputOption, serialize, writeResult } from '../common-options.ts';

export const REPLAY_FORMATS = ['table', 'json', 'yaml'] as const;

export interface ReplayCliOptions {
  trace: string;
  strategy?: string[];
  format: (typeof REPLAY_FORMATS)[number];
  output?: string;
  perContainer?: boolean;
  initialCpu: number;
  initialMemory: number;
  progress: boolean;
}

/** A commander parser from a quantity parser: bad input is a usage error naming the option. */
function quantity(parse: (input: string) => number): (value: string) => number {
  return (value) => {
    try {
      return parse(value);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A strategy named by `--strategy`; an unknown name is a usage error (exit code 2). */
function strategyByName(name: string): ReplayStrategy {
  try {
    return createReplayStrategy(name);
  } catch (err) {
    if (err instanceof StrategyRegistryError) throw new UsageError(`--strategy: ${err.message}`, { cause: err });
    throw err;
  }
}

/** The report in the chosen format. */
async function render(report: ReplayReport, options: ReplayCliOptions): Promise<string> {
  if (options.format !== 'table') return serialize(report, options.format);
  const { formatTable } = await import('../../replay/quality-report.ts');
  let text = `${formatTable(report.strategies)}\n`;
  if (options.perContainer) {
    for (const s of report.strategies) text += `\n${s.name}, per container:\n${formatTable(s.perContainer ?? [])}\n`;
  }
  return text;
}

/** Runs `tailor replay`: the result to `out` (or --output), the progress bar to `err`. */
export async function runReplay(options: ReplayCliOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<void> {
  // Loaded when the command runs, not at every start of the CLI.
  const [{ readTraceFile }, { describeResampling }, { summarize }, { progressBar }] = await Promise.all([
    import('../../replay/trace-reader.ts'),
    import('../../replay/resample.ts'),
    import('../../replay/quality-tally.ts'),
    import('../progress-bar.ts'),
  ]);
  const names = options.strategy ?? replayStrategyNames();
  const strategies = names.map(strategyByName);
  const trace = await readTraceFile(options.trace);
  const changed = trace.resampling && describeResampling(options.trace, trace.resampling);
  if (changed) err.write(`tailor: warning: ${changed}\n`);
  const replayOptions: ReplayOptions = { ...DEFAULT_REPLAY_OPTIONS, initialRequest: { cpu: options.initialCpu, memory: options.initialMemory } };
  const report: ReplayReport = { strategies: [] };
  const bar = progressBar(err, options.progress, 'replaying', 'containers');
  bar?.start(strategies.length * trace.containers.length);
  try {
    let done = 0;
    for (const strategy of strategies) {
      const containers = [];
      for (const series of trace.containers) {
        containers.push(replayContainer(series, strategy, replayOptions));
        bar?.update(++done);
        // Lets the bar draw and Ctrl-C through between containers.
        if (bar) await yieldToEvents();
      }
      const figures = summarize(strategy.name, containers);
      report.strategies.push(options.perContainer ? { ...figures, perContainer: containers.map((c) => summarize(c.name, [c])) } : figures);
    }
  } finally {
    bar?.stop();
  }
  await writeResult(await render(report, options), options.output, out);
}

/** Registers `tailor replay`. */
export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('Replay a usage trace under recommendation strategies and report their quality')
    .requiredOption('--trace <file>', 'trace CSV (or .csv.gz): timestamp,container,cpu_cores,memory_bytes')
    .option(
      '--strategy <name>',
      `strategy to replay, repeatable (default: all of ${replayStrategyNames().join(', ')}; the other commands default to ${DEFAULT_STRATEGY})`,
      collect,
    )
    .addOption(formatOption(REPLAY_FORMATS, 'table'))
    .addOption(outputOption())
    .option('--per-container', 'add the figures of each container')
    .addOption(
      new Option('--initial-cpu <quantity>', "CPU request before a strategy's first estimate")
        .argParser(quantity(parseCpu))
        .default(DEFAULT_REPLAY_OPTIONS.initialRequest.cpu, '500m'),
    )
    .addOption(
      new Option('--initial-memory <quantity>', "memory request before a strategy's first estimate")
        .argParser(quantity(parseMemory))
        .default(DEFAULT_REPLAY_OPTIONS.initialRequest.memory, '1Gi'),
    )
    .addOption(noProgressOption())
    .action(async (options: ReplayCliOptions) => {
      await runReplay(options, process.stdout, process.stderr);
    });
}
