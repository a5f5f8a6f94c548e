/** Fixed times for tests: the planner's clock is an argument, so tests pick it. */
export const NOW = Date.parse('2026-06-01T12:00:00Z');
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

/** The RFC 3339 time `ms` before NOW (whole seconds, as Kubernetes writes it). */
export function ago(ms: number): string {
  return new Date(NOW - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;
