/**
 * What the reader of a report must know about the data behind it, one line each, with what to do:
 * CPU too sparse for its rate window, an unknown scrape interval. Pure: rows and the sync report
 * in, lines out (the command prints them on stderr); rows concerned get a note too.
 */
import type { SyncReport } from '../metrics/usage-feed.ts';
import type { ReportRow } from './report-rows.ts';

const seconds = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

/** Warnings about sparse data; adds a note to each row with memory but no CPU samples. */
export function sparseDataWarnings(rows: ReportRow[], sync: Pick<SyncReport, 'scrapeIntervalMs' | 'rateWindowMs'>): string[] {
  const out: string[] = [];
  const noCpu = rows.filter((r) => r.cpuSamples === 0);
  for (const r of noCpu) r.notes.push(`no CPU samples with a ${seconds(sync.rateWindowMs)} rate window`);
  if (sync.scrapeIntervalMs === undefined) {
    out.push(`could not tell the scrape interval (no CPU series had two samples in the last hour); CPU was read over ${seconds(sync.rateWindowMs)}: pass --scrape-interval if the data is scraped less often`);
  }
  if (noCpu.length > 0) {
    const interval = sync.scrapeIntervalMs === undefined ? 'unknown' : seconds(sync.scrapeIntervalMs);
    out.push(`${noCpu.length} container(s) have no CPU samples: the CPU data is too sparse for a ${seconds(sync.rateWindowMs)} rate window (scrape interval ${interval}); pass --scrape-interval with the real interval`);
  }
  return out;
}
