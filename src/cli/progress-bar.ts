/**
 * A progress bar on standard error for long commands (cli-progress), drawn only when that stream
 * is a terminal: piped or redirected output gets no escape codes and no progress lines.
 */
import cliProgress from 'cli-progress';

/** Where a long command reports how far it got. */
export interface Progress {
  start(total: number): void;
  update(done: number): void;
  stop(): void;
}

/** A bar titled `label` on `stream` when it is a terminal and `enabled`; otherwise undefined. */
export function progressBar(stream: NodeJS.WritableStream, enabled: boolean, label: string, unit: string): Progress | undefined {
  if (!enabled || (stream as { isTTY?: boolean }).isTTY !== true) return undefined;
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: `${label} [{bar}] {value}/{total} ${unit} | {eta_formatted} left`,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  return {
    start: (total) => bar.start(total, 0),
    update: (done) => bar.update(done),
    stop: () => bar.stop(),
  };
}
