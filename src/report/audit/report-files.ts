/**
 * The names of the report files in `--output-dir`: `audit-<time>.html` and `.json` per audit (the
 * time in UTC, `20260102T030405Z`, so names sort by time) and `latest.html` / `latest.json`, and
 * which of the stamped ones to remove so that only the newest `keep` audits stay.
 */

/** `2026-01-02T03:04:05.000Z` -> `audit-20260102T030405Z`. */
export function reportBaseName(generatedAt: string): string {
  return `audit-${generatedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
}

const STAMPED = /^audit-(\d{8}T\d{6}Z)\.(html|json)$/;

/** The stamped report files among `names` older than the newest `keep` audits. Other files are never named. */
export function reportsToPrune(names: readonly string[], keep: number): string[] {
  const stamps = [...new Set(names.map((n) => STAMPED.exec(n)?.[1]).filter((s): s is string => s !== undefined))].sort();
  const old = new Set(stamps.slice(0, Math.max(0, stamps.length - keep)));
  return names.filter((n) => old.has(STAMPED.exec(n)?.[1] ?? '')).sort();
}
