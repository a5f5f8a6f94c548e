/**
 * RFC 3339 timestamps as Kubernetes writes them (`metav1.Time`: whole seconds, UTC, `Z`), to and
 * from milliseconds since the epoch. Parsing is strict: a calendar date that does not exist
 * (2026-02-30) or a missing offset is rejected rather than guessed.
 */

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** A malformed timestamp; the message quotes it. */
export class TimestampError extends Error {
  override readonly name = 'TimestampError';
}

/** Parses an RFC 3339 timestamp into ms since the epoch (fractions below 1 ms are dropped). */
export function parseRfc3339(input: string): number {
  const m = PATTERN.exec(input);
  if (!m) throw new TimestampError(`timestamp ${JSON.stringify(input)} is not RFC 3339 (like 2026-01-02T03:04:05Z)`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new TimestampError(`timestamp ${JSON.stringify(input)} is not a valid date and time`);
  }
  const offsetMinutes = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  if (m[9] && (Number(m[10]) > 23 || Number(m[11]) > 59)) throw new TimestampError(`timestamp ${JSON.stringify(input)} has an invalid UTC offset`);
  return utc - offsetMinutes * 60_000;
}

/** Formats ms since the epoch as `YYYY-MM-DDTHH:MM:SSZ`, truncated to whole seconds like metav1.Time. */
export function formatRfc3339(ms: number): string {
  if (!Number.isFinite(ms)) throw new TimestampError(`cannot format time ${ms}`);
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString();
  if (!/^\d{4}-/.test(iso)) throw new TimestampError(`time ${ms} is outside the years 0000-9999`);
  return iso.replace(/\.\d{3}Z$/, 'Z');
}
