/**
 * `tailor replay`: replays a usage trace under one or more strategies and prints their quality
 * figures (slack, shortfall, OOM kills, changes), as a table or as the JSON contract of issue 5.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseCpu, parseMemory } from 'kube-basics/quantity';
import { readTraceFile } from '../../replay/trace-reader.ts';
import { describeResampling } from '../../replay/resample.ts';
import { DEFAULT_REPLAY_OPTIONS, replayTrace } from '../../replay/replay-engine.ts';
import { summarize } from '../../replay/quality-tally.ts';
import { formatTable, type ReplayReport } from '../../replay/quality-report.ts';
import { createReplayStrategy, replayStrategyNames } from '../../replay/strategy-registry.ts';

interface ReplayCliOptions {
  trace: string;
  strategy?: string[];
  format: 'table' | 'json';
  perContainer?: boolean;
  initialCpu: number;
  initialMemory: number;
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

/** Registers `tailor replay`. */
export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('Replay a usage trace under recommendation strategies and report their quality')
    .requiredOption('--trace <file>', 'trace CSV (or .csv.gz): timestamp,container,cpu_cores,memory_bytes')
    .option('--strategy <name>', `strategy to replay, repeatable (default: all of ${replayStrategyNames().join(', ')})`, collect)
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
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
    .action(async (options: ReplayCliOptions) => {
      const names = options.strategy ?? replayStrategyNames();
      const strategies = names.map((name) => createReplayStrategy(name));
      const trace = await readTraceFile(options.trace);
      const changed = trace.resampling && describeResampling(options.trace, trace.resampling);
      if (changed) process.stderr.write(`tailor: warning: ${changed}\n`);
      const report: ReplayReport = { strategies: [] };
      for (const strategy of strategies) {
        const run = replayTrace(trace, strategy, { initialRequest: { cpu: options.initialCpu, memory: options.initialMemory } });
        const figures = summarize(strategy.name, run.containers);
        report.strategies.push(
          options.perContainer ? { ...figures, perContainer: run.containers.map((c) => summarize(c.name, [c])) } : figures,
        );
      }
      if (options.format === 'json') {
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${formatTable(report.strategies)}\n`);
      if (options.perContainer) {
        for (const s of report.strategies) {
          process.stdout.write(`\n${s.name}, per container:\n${formatTable(s.perContainer ?? [])}\n`);
        }
      }
    });
}
